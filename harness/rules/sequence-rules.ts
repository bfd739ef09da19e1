import { not_served } from '../checks';
import { operation_found, served } from '../checks/served';
import { InstitutionDisclosureState } from '../state/institution-disclosures';
import { outcomeOf, type Outcome } from '../state/outcome';
import { UserDisclosureState } from '../state/user-disclosures';
import { DOCUMENTED_PATH, refusedForNoReason, suppliedObjects, suppliedRule } from './contact-info';
import type { Known, Seen, Verifier } from './exchange';
import { isObject } from './request';
import { institutionWrite, judgeInstitutionStep, unseenInstitutionMoves } from './sequence/institution-disclosures';
import { bodyOf, busy, Timeline, unknownWhy, whoIsWho, type Write } from './sequence/timeline';
import { judgeUserStep, unseenUserMoves, userDisclosureWrite } from './sequence/user-disclosures';

export { outcomeOf } from '../state/outcome';

/**
 * The state rules of the catalog, judged across the capture's sequence. Only what the traffic
 * proves counts:
 * - a write answered 2xx is a move; one refused (4xx, 429, 503) changes nothing; one whose outcome
 *   is unknown (no answer, 1xx/3xx, another 5xx) makes the record's state unknown until a later list
 *   shows it;
 * - a move is judged by the first list of the same user (institution) that starts after the move's
 *   answer ended (in the same millisecond counts: HAR times are rounded to it), and that no other
 *   write on the same record overlaps (sequence/timeline.ts);
 * - who a write is about is taken from what the capture shows (the list of the same credential, or
 *   the only user listed); where it cannot be told, the write makes the records it may have touched
 *   unknown, never a failure.
 * One file per family: the users' acceptance records (sequence/user-disclosures.ts), the institution
 * disclosures (sequence/institution-disclosures.ts), each asking its state fold (harness/state/); the contact
 * update's phone number on record below.
 */

export interface SequenceNotes {
  /** Per exchange index: what the sequence concluded about state there (unknown outcomes, moves judged). */
  notes: Map<number, string[]>;
}

interface PhoneState {
  number?: string;
  /** The rule a later acceptance of `number` proves. */
  numberRule?: string;
  numberBy?: number;
  /** What shows `number` on record where no exchange of the log does: what the run knows (Known). */
  numberFrom?: string;
  previous?: string;
  previousRule?: string;
  previousBy?: number;
}

const digits = (s: string) => s.replace(/\D/g, '');
/** Two numbers that are certainly different (not the same digits written otherwise, not one with a country code
 * prefixed). */
function certainlyDifferent(a: string, b: string): boolean {
  const x = digits(a);
  const y = digits(b);
  if (x === '' || y === '') return a.trim() !== b.trim();
  return x !== y && !x.endsWith(y) && !y.endsWith(x);
}
const sameNumber = (a: string, b: string) => a === b || (digits(a) !== '' && digits(a) === digits(b));

/**
 * Judge the state rules over the sequence. `verifierFor(index)` gives the verifier of the exchange
 * that shows the evidence (a list, or the update that names a number).
 */
export function judgeSequence(
  seen: Seen[],
  verifierFor: (index: number) => Verifier,
  known: Known = {},
): SequenceNotes {
  const notes = new Map<number, string[]>();
  const note = (i: number, text: string) => notes.set(i, [...(notes.get(i) ?? []), text]);
  const sorted = [...seen].sort((a, b) => a.x.startMs - b.x.startMs || a.x.index - b.x.index);
  const userOf = whoIsWho(sorted, (status) => outcomeOf(status) === 'applied');
  const ud = new UserDisclosureState(userOf);
  const inst = new InstitutionDisclosureState();
  const phones = new Map<string, PhoneState>(
    Object.entries(known.phonesOnRecord ?? {}).map(([customer, p]) => [
      customer,
      { number: p.number, numberFrom: p.from },
    ]),
  );
  const tl = new Timeline(sorted);
  const writes: Write[] = [];
  for (const s of sorted) {
    const w = userDisclosureWrite(s, ud, userOf, note) ?? institutionWrite(s, inst, tl, verifierFor, note);
    if (w) writes.push(w);
    // A refused contact update changed nothing: it does not keep the number from being judged meanwhile (tests that
    // send only requests to refuse share a customer).
    const outcome = outcomeOf(s.x.status);
    if (s.mapped.operation === 'updateContactInfo' && outcome !== 'refused') {
      writes.push(contactWrite(s, outcome, outcome === 'unknown' ? unknownWhy(s) : '', phones, note));
    }
  }
  tl.schedule(writes);
  for (const s of sorted) {
    tl.advanceTo(s);
    const v = verifierFor(s.x.index);
    judgeUserStep(s, v, ud, tl, userOf);
    judgeInstitutionStep(s, v, inst, tl);
    if (s.mapped.operation === 'updateContactInfo') judgeContactStep(s, v, tl, phones);
  }
  versionedPath(sorted, verifierFor);
  tl.finish();
  unseenUserMoves(ud, note);
  unseenInstitutionMoves(inst, note);
  return { notes };
}

/** A contact update, judged by the number on record before it, the updates meanwhile and the next one. */
function judgeContactStep(s: Seen, v: Verifier, tl: Timeline, phones: Map<string, PhoneState>): void {
  const customer = s.mapped.pathParams.customerId!;
  const key = `phone|${customer}`;
  /** The contact updates of a customer that overlap [start, end] (other than the exchange itself). */
  const overlappingPhoneWrites = (): Write[] => tl.byStart.filter((w) => w.keys.includes(key) && tl.overlaps(w, s));
  /** The number a customer's next write names as oldPhoneNumber, where it was served: on record when s was sent. */
  const laterOnRecord = (): string | undefined => {
    const next = tl.byStart.find((w) => w.keys.includes(key) && tl.precedes(s, w.s));
    const phone = next && outcomeOf(next.s.x.status) === 'applied' ? bodyOf(next.s).phoneNumber : undefined;
    return isObject(phone) && typeof phone.oldPhoneNumber === 'string' ? phone.oldPhoneNumber : undefined;
  };
  const meanwhile = busy(tl.overlapping(s), key) ? overlappingPhoneWrites().map((w) => w.setsPhone) : undefined;
  judgeContactUpdate(s, v, phones.get(customer), meanwhile, laterOnRecord);
}

// Operation 10: the phone number on record, as the log shows it (no retrieval is specified: what an
// update stored is observed through rule 2, the number a later update may name as oldPhoneNumber).

/** The rule a later update naming the number a phone update put on record proves (or breaks). */
function storedRule(body: Record<string, any>): string {
  const phone = body.phoneNumber as Record<string, any>;
  if (suppliedObjects(body).length === 3) return 'OP10-RULE3-PHONE-STORED';
  const codes = [phone.oldCountryCode, phone.newCountryCode];
  if (codes.every((c) => typeof c === 'string') && codes[0] !== codes[1]) return 'OP10-RULE1-COUNTRY-CODE-STORED';
  return 'OP10-RULE1-PHONE-STORED';
}

type Note = (i: number, text: string) => void;

/** The write a contact update that was not refused makes: the number on record it sets, or makes unknown. */
function contactWrite(s: Seen, outcome: Outcome, why: string, phones: Map<string, PhoneState>, note: Note): Write {
  const customer = s.mapped.pathParams.customerId!;
  const body = bodyOf(s);
  const phone = isObject(body.phoneNumber) ? body.phoneNumber : undefined;
  const i = s.x.index;
  const apply = () => {
    if (outcome === 'unknown') {
      phones.set(customer, {});
      return note(i, `phone number on record of customer ${customer} unknown (${why}) until a later update proves it`);
    }
    const st = phones.get(customer) ?? {};
    if (phone && typeof phone.newPhoneNumber === 'string') return phones.set(customer, phoneSet(body, st, i));
    const kept = 'OP10-RULE1-UNSUPPLIED-KEPT';
    if (!phone && st.number !== undefined) phones.set(customer, { ...st, numberRule: kept, numberBy: i });
    else if (phone) phones.set(customer, {});
  };
  const setsPhone = phone ? (typeof phone.newPhoneNumber === 'string' ? phone.newPhoneNumber : undefined) : '';
  return { s, keys: [`phone|${customer}`], setsPhone, apply };
}

/**
 * The number on record after a 2xx phone update (exchange `i`), and the rule a later update naming
 * it proves. One that keeps the number (the same as old and new) stores nothing new: it shows the
 * number on record.
 */
function phoneSet(body: Record<string, any>, st: PhoneState, i: number): PhoneState {
  const phone = body.phoneNumber as Record<string, any>;
  const previous = typeof phone.oldPhoneNumber === 'string' ? phone.oldPhoneNumber : undefined;
  if (previous !== undefined && sameNumber(previous, phone.newPhoneNumber)) {
    return st.number !== undefined && sameNumber(st.number, previous) ? st : { number: previous, numberBy: i };
  }
  const rule = storedRule(body);
  return { number: phone.newPhoneNumber, numberRule: rule, numberBy: i, previous, previousRule: rule, previousBy: i };
}

/** How the log shows the number on record: an exchange, or what the run knows from its configuration. */
const shownBy = (st: PhoneState) =>
  st.numberBy === undefined ? `as ${st.numberFrom}` : `since the 2xx update in exchange #${st.numberBy}`;

/**
 * Judge a contact update by the number on record the log shows before it (`st`). `meanwhile`: the
 * numbers the updates that overlap it may put on record (undefined when none overlaps); `later`: the
 * number on record as the customer's next write shows it.
 */
function judgeContactUpdate(
  s: Seen,
  v: Verifier,
  st: PhoneState | undefined,
  meanwhile: Array<string | undefined> | undefined,
  later: () => string | undefined,
): void {
  const phone = bodyOf(s).phoneNumber;
  const outcome = outcomeOf(s.x.status);
  if (!isObject(phone) || typeof phone.oldPhoneNumber !== 'string' || outcome === 'unknown') return;
  const old = phone.oldPhoneNumber;
  if (meanwhile) return mismatchMeanwhile(s, v, old, st, meanwhile);
  if (st?.number === undefined) {
    const onRecord = later();
    const how = 'the next update served named it as oldPhoneNumber, with no write in between';
    if (onRecord !== undefined && sameNumber(old, onRecord)) onRecordRefused(s, v, how);
    return;
  }
  const since = `${st.number} ${shownBy(st)}`;
  if (sameNumber(old, st.number)) {
    if (outcome !== 'applied') return storedNumberRefused(s, v, st);
    const why = `oldPhoneNumber ${old} is the number on record ${shownBy(st)}`;
    if (st.numberRule) v.verify(st.numberRule, served(s.res, why));
  } else if (st.previous !== undefined && sameNumber(old, st.previous)) {
    const by = `the 2xx update in exchange #${st.previousBy}`;
    const why = `oldPhoneNumber ${old} is the previous number, replaced by ${by}`;
    v.verify(st.previousRule!, not_served(s.res, why));
  } else if ([st.number, st.previous].every((n) => n === undefined || certainlyDifferent(old, n))) {
    const why = `oldPhoneNumber ${old} is not the number on record (${since})`;
    v.verify('OP10-RULE2-OLD-PHONE-MATCH', not_served(s.res, why));
  }
}

/**
 * OP10-RULE2-OLD-PHONE-MATCH while other updates of the customer ran (several requests to refuse, side
 * by side): judged only where oldPhoneNumber differs from every number that can be on record.
 */
function mismatchMeanwhile(
  s: Seen,
  v: Verifier,
  old: string,
  st: PhoneState | undefined,
  meanwhile: Array<string | undefined>,
): void {
  if (st?.number === undefined) return;
  const numbers = [st.number, ...(st.previous === undefined ? [] : [st.previous])];
  if (!meanwhile.every((n): n is string => n !== undefined)) return;
  if (![...numbers, ...meanwhile].every((n) => certainlyDifferent(old, n))) return;
  const why =
    `oldPhoneNumber ${old} is not the number on record (${st.number} ${shownBy(st)}), ` +
    'nor any number the updates sent meanwhile may have put there';
  v.verify('OP10-RULE2-OLD-PHONE-MATCH', not_served(s.res, why));
}

/**
 * The number an update put on record, named as oldPhoneNumber and refused where the request cannot
 * explain it (refusedForNoReason): the update did not store it (its stored rule), or the target
 * refuses an update that rule 1 or 3 (and, for a LOGIN_ID customer, its userIdType) says it serves.
 */
function storedNumberRefused(s: Seen, v: Verifier, st: PhoneState): void {
  if (!refusedForNoReason(s)) return;
  const did =
    st.numberRule === 'OP10-RULE1-UNSUPPLIED-KEPT'
      ? 'supplied no phoneNumber, so it kept it'
      : st.numberRule
        ? 'put it on record'
        : 'named it as old and new number';
  const how = st.numberBy === undefined ? `${st.numberFrom}` : `the 2xx update in exchange #${st.numberBy} ${did}`;
  if (st.numberRule) v.verify(st.numberRule, served(s.res, `oldPhoneNumber ${st.number} is on record: ${how}`));
  onRecordRefused(s, v, how);
}

/** An update naming the number on record (as `how` shows), refused where the request cannot explain it. */
function onRecordRefused(s: Seen, v: Verifier, how: string): void {
  if (!refusedForNoReason(s)) return;
  const body = bodyOf(s);
  const why = `oldPhoneNumber ${body.phoneNumber.oldPhoneNumber} is the number on record (${how})`;
  const rule = suppliedRule(suppliedObjects(body));
  if (rule) v.verify(rule, served(s.res, why));
  if (body.userIdType !== 'LOGIN_ID') return;
  v.verify('OP10-USERIDTYPE-LOGIN-ID', served(s.res, `${why}, userIdType LOGIN_ID`));
}

/** The URL of a customer's update with a version segment before its customers segment (/v1/customers/…). */
function versioned(url: string): RegExp | undefined {
  try {
    const u = new URL(url);
    const at = u.pathname.lastIndexOf('/customers/');
    if (at < 0) return undefined;
    const esc = (t: string) => t.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
    return new RegExp(`^${esc(u.origin + u.pathname.slice(0, at))}/v\\d+${esc(u.pathname.slice(at))}$`);
  } catch {
    return undefined;
  }
}

/**
 * OP10-PATH on a 404 at the documented path ("no such path" or "no such customer"): the log shows the
 * same customer's update served with a version segment ("The contact update path carries no version
 * segment"), so the customer is on record and the documented path is not the operation's.
 */
function versionedPath(log: Seen[], verifierFor: (index: number) => Verifier): void {
  const updates = log.filter((s) => s.mapped.operation === 'updateContactInfo');
  for (const s of updates) {
    if (s.x.status !== 404) continue;
    const re = versioned(s.x.url);
    const at = re && updates.find((o) => outcomeOf(o.x.status) === 'applied' && re.test(o.x.url.split('?')[0]!));
    if (at) verifierFor(s.x.index).verify('OP10-PATH', operation_found(s.res, `{baseUrl}${DOCUMENTED_PATH}`, at.res));
  }
}
