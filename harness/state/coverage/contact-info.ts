import { inStartOrder } from '../../log/entry';
import type { Seen } from '../../rules/exchange';
import { isObject, requestJson } from '../../rules/request';
import { sameNumber } from '../../phone-number';
import { ContactInfoState } from '../contact-info';
import { outcomeOf } from '../outcome';
import { Reached, type FamilyCoverage } from './reached';

/**
 * A customer's contact data (operation 10). There is no read operation: rule 2 is the read-back ("oldPhoneNumber
 * … must match the phone number on record"), so an update is read back by the next update of the customer that
 * names an oldPhoneNumber and is answered (accepted or refused). The state before: the number as found (no change of
 * it in the log yet) or changed by the log; the update: which objects it supplies (rule 1, rule 3), a confirmation
 * (the number on record as old and new), another country code, or a stale oldPhoneNumber (a refusal a fault could
 * apply anyway).
 */

const FROM = ['as found', 'changed'];
const PHONE_ALONE = 'phone alone';
const OTHER_COUNTRY_CODE = 'phone alone, another country code';
const CONFIRMATION = 'the number on record as old and new';
const STALE = 'a stale oldPhoneNumber (refused)';
export const CONTACT_KINDS = [
  PHONE_ALONE,
  OTHER_COUNTRY_CODE,
  'phone + e-mail',
  'phone + postal address',
  'phone + e-mail + postal address',
  CONFIRMATION,
  'e-mail alone',
  'postal address alone',
  'e-mail + postal address',
  STALE,
];
const t = (from: string, kind: string) => `number ${from} × ${kind}`;
export const CONTACT_TRANSITIONS: readonly string[] = FROM.flatMap((f) => CONTACT_KINDS.map((k) => t(f, k)));

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The kind of an update, as the fold knew the number on record before it (undefined: none of the space). */
function kindOf(state: ContactInfoState, customer: string, s: Seen): string | undefined {
  const body = requestJson(s).json;
  if (!isObject(body)) return undefined;
  const phone = isObject(body.phoneNumber) ? body.phoneNumber : undefined;
  const others = [isObject(body.email) && 'e-mail', isObject(body.postalAddress) && 'postal address'].filter(
    (o): o is string => typeof o === 'string',
  );
  if (!phone) return others.length ? `${others.join(' + ')}${others.length === 1 ? ' alone' : ''}` : undefined;
  const [old, number] = [str(phone.oldPhoneNumber), str(phone.newPhoneNumber)];
  const onRecord = state.phone(customer);
  if (old === undefined || number === undefined || !onRecord) return undefined;
  if (!sameNumber(old, onRecord.number)) return outcomeOf(s.x.status) === 'refused' ? STALE : undefined;
  if (outcomeOf(s.x.status) !== 'applied') return undefined;
  if (sameNumber(old, number)) return CONFIRMATION;
  if (others.length) return `phone + ${others.join(' + ')}`;
  const cc = str(phone.newCountryCode);
  return cc !== undefined && onRecord.countryCode !== '' && cc !== onRecord.countryCode
    ? OTHER_COUNTRY_CODE
    : PHONE_ALONE;
}

export function contactInfoCoverage(log: readonly Seen[]): FamilyCoverage {
  const state = new ContactInfoState();
  const reached = new Reached(CONTACT_TRANSITIONS);
  for (const s of inStartOrder(log)) {
    const customer = s.mapped.operation === 'updateContactInfo' ? s.mapped.pathParams.customerId : undefined;
    if (customer === undefined) continue;
    const outcome = outcomeOf(s.x.status);
    const body = requestJson(s).json;
    const namesOld = isObject(body) && isObject(body.phoneNumber) && str(body.phoneNumber.oldPhoneNumber) !== undefined;
    if (namesOld && outcome !== 'unknown') reached.read((c) => c === customer, s);
    const kind = kindOf(state, customer, s);
    const from = state.phone(customer) ? (state.changes(customer) ? 'changed' : 'as found') : undefined;
    if (outcome === 'unknown') reached.lost(customer);
    else if (kind && from && (outcome === 'applied' || kind === STALE)) reached.took(customer, t(from, kind), s);
    state.add(s);
  }
  return reached.result('contact data (operation 10)', 'the next update of the customer naming an oldPhoneNumber');
}
