import type { Seen } from '../rules/exchange';
import { isObject, requestJson } from '../rules/request';

/**
 * Operation 10 as a log shows it, per customer: the phone number (and country code) the log says is on record,
 * and the one it replaced. There is no read operation: what is on record is what the last accepted update put
 * there (a refused one changed nothing; one whose outcome is unknown makes it unknown), and rule 2 is the read-back
 * (a later update naming it as oldPhoneNumber is accepted only if it is on record). It judges nothing (the rules of
 * harness/rules/ do): the explorer (suites/explore/contact-*.ts) reads it to choose its next command.
 */

export interface PhoneOnRecord {
  number: string;
  /** "" where none was sent (the target keeps its own). */
  countryCode: string;
}

interface CustomerView {
  /** undefined: unknown (an update with an unknown outcome, or none seen yet). */
  phone?: PhoneOnRecord;
  /** The number an accepted change replaced (a stale oldPhoneNumber). */
  previous?: string;
  /** Accepted phone changes to another number, in order. */
  changes: number;
  /** The e-mail address or postal address was written (no read shows them). */
  otherWritten: boolean;
}

export class ContactInfoState {
  private readonly customers = new Map<string, CustomerView>();

  private view(customer: string): CustomerView {
    return (
      this.customers.get(customer) ?? this.customers.set(customer, { changes: 0, otherWritten: false }).get(customer)!
    );
  }

  /** Fold one entry in (in the order sent). */
  add(s: Seen): this {
    if (s.mapped.operation !== 'updateContactInfo') return this;
    const customer = s.mapped.pathParams.customerId;
    if (customer === undefined) return this;
    const status = s.x.status;
    if (status >= 400 && status < 500) return this;
    const v = this.view(customer);
    const body = requestJson(s).json;
    const phone = isObject(body) && isObject(body.phoneNumber) ? body.phoneNumber : undefined;
    if (isObject(body) && (isObject(body.email) || isObject(body.postalAddress))) v.otherWritten = true;
    if (!phone) return this;
    if (status < 200 || status >= 300 || typeof phone.newPhoneNumber !== 'string') {
      v.phone = undefined;
      return this;
    }
    const countryCode = typeof phone.newCountryCode === 'string' ? phone.newCountryCode : (v.phone?.countryCode ?? '');
    if (phone.newPhoneNumber !== v.phone?.number) {
      v.previous = v.phone?.number ?? (typeof phone.oldPhoneNumber === 'string' ? phone.oldPhoneNumber : undefined);
      v.changes++;
    }
    v.phone = { number: phone.newPhoneNumber, countryCode };
    return this;
  }

  /** Say what is on record before the log begins (what the explorer's control update confirmed). */
  found(customer: string, phone: PhoneOnRecord): this {
    this.view(customer).phone = { ...phone };
    return this;
  }

  /** The phone the log says is on record (undefined: unknown). */
  phone(customer: string): Readonly<PhoneOnRecord> | undefined {
    return this.customers.get(customer)?.phone;
  }

  /** The number the last accepted change replaced, if any. */
  previous(customer: string): string | undefined {
    return this.customers.get(customer)?.previous;
  }

  /** Accepted changes of the number (to another number) the log shows. */
  changes(customer: string): number {
    return this.customers.get(customer)?.changes ?? 0;
  }

  /** An update that was not refused supplied the e-mail or postal address. */
  otherWritten(customer: string): boolean {
    return this.customers.get(customer)?.otherWritten ?? false;
  }
}
