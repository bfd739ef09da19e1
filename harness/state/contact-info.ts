import type { Seen } from '../rules/exchange';
import { isObject, requestJson } from '../rules/request';
import { outcomeOf } from './outcome';
import { sameNumber, type Phone } from '../phone-number';
import type { RunLog } from '../log/run-log';

/**
 * Operation 10 as a log shows it, per customer: the phone number (and country code) the log says is on record,
 * the exchange that shows it there, and the number it replaced. There is no read operation: what is on record is
 * what the last accepted update put there (a refused one changed nothing; one whose outcome is unknown makes it
 * unknown), and rule 2 is the read-back (a later update naming it as oldPhoneNumber is accepted only if it is on
 * record). Numbers compare with `sameNumber` (harness/phone-number.ts). It judges nothing: the state rules
 * (harness/rules/sequence/contact-info.ts) ask it which number may be on record when an update was sent, the
 * explorer (suites/explore/contact-*.ts) to choose its next command.
 */

export type PhoneOnRecord = Phone;

/** How the number came to be on record, as the log shows it. */
export type HowOnRecord =
  /** An accepted phone update named it as new number (and another as old). */
  | 'stored'
  /** An accepted update without a phoneNumber object kept it (known on record before). */
  | 'kept'
  /** An accepted update named it as old and new number: it was on record, nothing stored. */
  | 'named'
  /** What the run knows before the log (the configuration, an earlier test): `from` says which. */
  | 'known';

export interface NumberOnRecord extends Phone {
  how: HowOnRecord;
  /** The exchange (Seen.x.index) that shows it; undefined for `known`. */
  by?: number;
  /** For `known`: what shows it on record. */
  from?: string;
  /** The accepted update that named it as new number (stored or named), kept over updates that kept it; undefined for
   * `known`. */
  shownBy?: number;
}

/** The number an accepted change replaced (its oldPhoneNumber), and the exchange that replaced it. */
export interface Replaced {
  number: string;
  by: number;
}

interface CustomerView {
  /** undefined: unknown (an update with an unknown outcome, or none seen yet). */
  phone?: NumberOnRecord;
  /** The number the last accepted change replaced (a stale oldPhoneNumber). */
  replaced?: Replaced;
  /** Accepted phone changes to another number, in order. */
  changes: number;
  /** The e-mail address or postal address may have been written (an update supplying one was not refused). */
  otherWritten: boolean;
  /** An update at the documented path was answered 2xx: the customer (and its id) are on record. */
  served: boolean;
  /** The numbers an accepted update named as oldPhoneNumber: each was on record then (rule 2). */
  namedAsOld: Set<string>;
  /** The number on record was confirmed (named as old and new by an accepted update) and nothing moved it since. */
  confirmed: boolean;
  /**
   * Every number an update that was accepted, or whose outcome is unknown (it may have landed), named as new since
   * the last confirmation, oldest first; "" where one may have cleared it (a phoneNumber object without a new number,
   * or an update without one whose outcome is unknown).
   */
  setSince: string[];
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export class ContactInfoState {
  private readonly customers = new Map<string, CustomerView>();

  private view(customer: string): CustomerView {
    return (
      this.customers.get(customer) ??
      this.customers
        .set(customer, {
          changes: 0,
          otherWritten: false,
          served: false,
          namedAsOld: new Set(),
          confirmed: false,
          setSince: [],
        })
        .get(customer)!
    );
  }

  /** Fold one entry in (in the order its effect took place: the rules apply a write when its answer ended). */
  add(s: Seen): this {
    if (s.mapped.operation !== 'updateContactInfo') return this;
    const customer = s.mapped.pathParams.customerId;
    if (customer === undefined) return this;
    const v = this.view(customer);
    const body = requestJson(s).json;
    const status = s.x.status;
    // Conservative: anything but a 4xx may have written them (what protects the customer's data, issue 30).
    const other = isObject(body) && (isObject(body.email) || isObject(body.postalAddress));
    if (other && !(status >= 400 && status < 500)) v.otherWritten = true;
    const outcome = outcomeOf(status);
    if (outcome === 'refused') return this;
    const phone = isObject(body) && isObject(body.phoneNumber) ? body.phoneNumber : undefined;
    if (outcome === 'applied' && !s.undocumentedPath) v.served = true;
    if (outcome === 'applied' && phone && str(phone.oldPhoneNumber) !== undefined)
      v.namedAsOld.add(str(phone.oldPhoneNumber)!);
    if (outcome === 'unknown' || (phone && str(phone.newPhoneNumber) === undefined)) {
      // It may have landed, or cleared the number (a phoneNumber object without a new number).
      v.phone = v.replaced = undefined;
      v.confirmed = false;
      this.mayHaveSet(v, (phone && str(phone.newPhoneNumber)) || '');
      return this;
    }
    if (!phone) {
      if (v.phone) v.phone = { ...v.phone, how: 'kept', by: s.x.index, from: undefined };
      return this;
    }
    this.phoneSet(v, phone, s.x.index);
    return this;
  }

  /** After a 2xx phone update (exchange i): one naming the same number as old and new stores nothing new. */
  private phoneSet(v: CustomerView, phone: Record<string, unknown>, i: number): void {
    const number = str(phone.newPhoneNumber)!;
    const old = str(phone.oldPhoneNumber);
    const countryCode = str(phone.newCountryCode) ?? v.phone?.countryCode ?? '';
    if (old !== undefined && sameNumber(old, number)) {
      if (v.phone !== undefined && sameNumber(v.phone.number, old)) v.phone = { ...v.phone, countryCode, shownBy: i };
      else [v.phone, v.replaced] = [{ number: old, countryCode, how: 'named', by: i, shownBy: i }, undefined];
      [v.confirmed, v.setSince] = [true, []];
      return;
    }
    v.confirmed = false;
    this.mayHaveSet(v, number);
    v.changes++;
    v.phone = { number, countryCode, how: 'stored', by: i, shownBy: i };
    v.replaced = old === undefined ? undefined : { number: old, by: i };
  }

  private mayHaveSet(v: CustomerView, number: string): void {
    if (!v.setSince.some((n) => sameNumber(n, number))) v.setSince.push(number);
  }

  /** Say what is on record before the log begins (the configuration, an earlier test, the explorer's control). */
  found(customer: string, phone: Phone, from = 'found before the log'): this {
    const v = this.view(customer);
    v.phone = { number: phone.number, countryCode: phone.countryCode, how: 'known', from };
    v.replaced = undefined;
    return this;
  }

  /** The phone the log says is on record (undefined: unknown), with what shows it. */
  phone(customer: string): Readonly<NumberOnRecord> | undefined {
    return this.customers.get(customer)?.phone;
  }

  /** The number the last accepted change replaced, and by which exchange. */
  replaced(customer: string): Readonly<Replaced> | undefined {
    return this.customers.get(customer)?.replaced;
  }

  /** The number the last accepted change replaced, if any. */
  previous(customer: string): string | undefined {
    return this.replaced(customer)?.number;
  }

  /** Which numbers may be on record for the customer: the one the log shows, and the one it replaced (a target that
   * did not store the change keeps it); undefined where the log leaves the number unknown. */
  mayBeOnRecord(customer: string): string[] | undefined {
    const v = this.customers.get(customer);
    if (v?.phone === undefined) return undefined;
    return v.replaced === undefined ? [v.phone.number] : [v.phone.number, v.replaced.number];
  }

  /** Accepted changes of the number (to another number) the log shows. */
  changes(customer: string): number {
    return this.customers.get(customer)?.changes ?? 0;
  }

  /** An update of the customer at the documented path was answered 2xx. */
  served(customer: string): boolean {
    return this.customers.get(customer)?.served ?? false;
  }

  /** An accepted update named the number as oldPhoneNumber: it was on record then (rule 2). */
  acceptedAsOld(customer: string, number: string): boolean {
    return [...(this.customers.get(customer)?.namedAsOld ?? [])].some((n) => sameNumber(n, number));
  }

  /**
   * The number on record is proven: an accepted update named it as old and new (rule 2: accepted only when it is on
   * record), and no update since was accepted that changed it or whose outcome is unknown.
   */
  proven(customer: string): boolean {
    const v = this.customers.get(customer);
    return v?.phone !== undefined && v.confirmed;
  }

  /**
   * Which numbers may be on record besides the one the log shows (the drivers' question, for a restore): every
   * number an accepted update, or one that may have landed, named as new since the last confirmation, oldest first
   * ("" where one may have cleared it). Empty where the last confirmation is the last word.
   */
  mayHaveSetSinceConfirmed(customer: string): readonly string[] {
    return this.customers.get(customer)?.setSince ?? [];
  }

  /** An update that was not refused supplied the e-mail or postal address. */
  otherWritten(customer: string): boolean {
    return this.customers.get(customer)?.otherWritten ?? false;
  }
}

/** The fold of a whole log, in the order given, starting from what the run knows is on record. */
export function foldContactInfo(
  log: readonly Seen[],
  known: Record<string, { number: string; from: string }> = {},
): ContactInfoState {
  const state = new ContactInfoState();
  for (const [customer, p] of Object.entries(known))
    state.found(customer, { number: p.number, countryCode: '' }, p.from);
  for (const s of log) state.add(s);
  return state;
}

/**
 * The contact fold of an active run's whole log (harness/log/run-log.ts), the requests that got no answer included
 * (status 0: they may have landed), which the drivers ask (suites/contact-info/): whether a customer's update was
 * served, whether a number was accepted as old, which numbers may be on record.
 */
export function foldRunLog(log: Pick<RunLog, 'withUnanswered'>): ContactInfoState {
  return foldContactInfo(log.withUnanswered());
}
