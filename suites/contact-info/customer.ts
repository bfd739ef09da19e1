import { contactHeaders, contactUpdateBody, otherPhoneNumber, type ContactCredentials, type ContactUpdate } from '../../data-builders/contact-info';
import type { CaseContext } from '../../harness/case';
import type { HttpResult } from '../../harness/http/client';
import type { CustomerData } from '../../harness/config';
import { acquireLock, lockIsFree } from '../../harness/lock';

export const is2xx = (status: number): boolean => status >= 200 && status < 300;

/**
 * A configured customer (testData.customer, or one of testData.moreCustomers), as one case sees it.
 * Every case that may change the phone number holds its customer's lock from its first request until
 * its clean-up is done, so phone-changing cases on one customer never overlap; with more customers
 * configured, they run side by side. The case keeps track of what its accepted updates put on
 * record and restores, in its clean-up (also when it failed), the phone number, e-mail address and
 * postal address the configuration gives as the values on record at the start.
 */
export class Customer {
  readonly customerId: string;
  /** The values on record at the start (from the configuration). */
  readonly original: { phoneNumber: string; emailAddress?: string; postalAddress?: Record<string, string> };
  /** The number this case believes is on record after its accepted updates. */
  private onRecord: string;
  /** Every number an accepted update of this case set, oldest first. */
  private readonly numbersSet: string[] = [];
  private readonly numbersUsed: string[] = [];
  /** Set when the number on record may be none this case set (e.g. a target that cleared it). */
  private phoneUnknown = false;
  private emailChanged = false;
  private postalChanged = false;

  private constructor(private readonly t: CaseContext, c: CustomerData = t.config.testData.customer) {
    this.customerId = c.customerId;
    this.original = { phoneNumber: c.phoneNumber, emailAddress: c.emailAddress, postalAddress: c.postalAddress };
    this.onRecord = c.phoneNumber;
    this.numbersUsed.push(c.phoneNumber);
    t.cleanup("restore the customer's contact data", () => this.restore());
  }

  /** For a case that may change the phone number: waits for the customer's lock and holds it to the end of the clean-up. */
  static async forPhoneChanges(t: CaseContext): Promise<Customer> {
    const customers = [t.config.testData.customer, ...t.config.testData.moreCustomers];
    const key = (c: CustomerData) => `contact-info phone: ${t.config.baseUrl} ${c.customerId}`;
    // A customer no other case holds, else the first one (and wait for it).
    const chosen = customers.find((c) => lockIsFree(key(c))) ?? customers[0]!;
    const release = await acquireLock(key(chosen));
    t.priority = 1;
    // Registered first, so it runs last: after the restore (clean-ups run in reverse order).
    t.cleanup('let the next case use the customer', async () => release());
    if (customers.length > 1) await t.parameter('customerId', chosen.customerId);
    return new Customer(t, chosen);
  }

  /** For a case that changes only the e-mail address or postal address (no case observes those, so no lock). */
  static forEmailOrAddress(t: CaseContext): Customer {
    return new Customer(t);
  }

  /** The case cannot restore what the configuration does not give: it does not change it. */
  requireRestorable(what: { email?: boolean; postal?: boolean }): void {
    if (what.email && !this.original.emailAddress) this.t.notApplicable('testData.customer.emailAddress is not configured: the suite does not change an e-mail address it could not restore');
    if (what.postal && !this.original.postalAddress) this.t.notApplicable('testData.customer.postalAddress is not configured: the suite does not change a postal address it could not restore');
  }

  /** The path after the base URL, as the client sends it. */
  get path(): string {
    return `/customers/${encodeURIComponent(this.customerId)}:contact-info`;
  }

  /** A phone number shaped like the one on record, not used before in this case. */
  newNumber(): string {
    const n = otherPhoneNumber(this.t.faker, this.original.phoneNumber, this.numbersUsed);
    this.numbersUsed.push(n);
    return n;
  }

  /**
   * Before a request that must be refused: a valid phone update (the number on record to a new one)
   * is served at the same path, so the refusal that follows is the target applying the rule, not an
   * operation that serves nothing. Returns the number now on record.
   */
  async control(t: CaseContext): Promise<string> {
    const next = this.newNumber();
    const res = await t.step(`control: a valid phone update (${this.onRecord} to ${next}) is served`, () =>
      this.update({ phone: { oldPhoneNumber: this.onRecord, newPhoneNumber: next } }, 'control: valid phone update'));
    if (!is2xx(res.status)) t.notApplicable(`a valid phone update was not served either (status ${res.status}; reported by OP10-PATH or OP10-RULE1-SUPPLIED-OBJECTS), so a refusal would show nothing`);
    return next;
  }

  /** The number on record may have been changed by an update that did not supply it (e.g. cleared): the restore also tries "". */
  phoneMayHaveChanged(): void {
    this.phoneUnknown = true;
  }

  /** Send one contact update; an accepted one is remembered for the restore. */
  async update(u: ContactUpdate, label: string, credentials: ContactCredentials = 'configured'): Promise<HttpResult> {
    const res = await this.t.send({
      operation: 'updateContactInfo',
      pathParams: { customerId: this.customerId },
      headers: contactHeaders(this.t.config, credentials),
      body: contactUpdateBody(this.t.config, u),
      label,
    });
    if (is2xx(res.status)) {
      if (u.phone) {
        this.onRecord = u.phone.newPhoneNumber;
        if (u.phone.newPhoneNumber !== this.original.phoneNumber) this.numbersSet.push(u.phone.newPhoneNumber);
      }
      if (u.emailAddress !== undefined) this.emailChanged = true;
      if (u.postalAddress !== undefined) this.postalChanged = true;
    }
    return res;
  }

  /**
   * Put back the values on record at the start. The phone number is set back by naming, as
   * oldPhoneNumber, the number this case believes on record, then (should the target not have stored
   * it) every other number it set; a no-op update naming the original number as old and new confirms
   * it is on record (rule 2: it is accepted only then). Where the phone-alone form does not get there,
   * the same is tried with the three objects together. The e-mail and postal address are sent alone,
   * then together where a target refuses one alone.
   */
  private async restore(): Promise<void> {
    const problems: string[] = [];
    const start = this.original.phoneNumber;
    if (this.numbersSet.length > 0 || this.phoneUnknown) {
      const candidates = [...new Set([this.onRecord, ...[...this.numbersSet].reverse(), ...(this.phoneUnknown ? [''] : [])])].filter((n) => n !== start);
      const together = this.original.emailAddress !== undefined && this.original.postalAddress !== undefined;
      const confirm = async () => is2xx((await this.update({ phone: { oldPhoneNumber: start, newPhoneNumber: start } }, 'confirm the phone number on record')).status);
      // Where the case itself set the number back, confirming is enough.
      let confirmed = this.onRecord === start && (await confirm());
      for (const form of together ? (['alone', 'together'] as const) : (['alone'] as const)) {
        if (confirmed) break;
        for (const n of candidates) {
          const phone = { oldPhoneNumber: n, newPhoneNumber: start };
          const u: ContactUpdate = form === 'alone' ? { phone } : { phone, emailAddress: this.original.emailAddress, postalAddress: this.original.postalAddress };
          if (is2xx((await this.update(u, `restore the phone number (${form === 'alone' ? 'alone' : 'with the e-mail and postal address'})`)).status)) break;
        }
        confirmed = await confirm();
      }
      if (!confirmed) problems.push(`could not confirm that the phone number is back to ${start}: an update naming it as oldPhoneNumber was refused after trying to set it back from ${candidates.map((n) => JSON.stringify(n)).join(', ')}`);
    }
    // The e-mail and postal address: each alone, and where a target refuses that, both together
    // (rule 1 lets a target be served either way; the restore must not depend on one).
    const email = this.emailChanged && this.original.emailAddress !== undefined;
    const postal = this.postalChanged && this.original.postalAddress !== undefined;
    let emailBack = !email;
    let postalBack = !postal;
    if (email) emailBack = is2xx((await this.update({ emailAddress: this.original.emailAddress }, 'restore the e-mail address')).status);
    if (postal) postalBack = is2xx((await this.update({ postalAddress: this.original.postalAddress }, 'restore the postal address')).status);
    if ((!emailBack || !postalBack) && this.original.emailAddress !== undefined && this.original.postalAddress !== undefined) {
      const res = await this.update({ emailAddress: this.original.emailAddress, postalAddress: this.original.postalAddress }, 'restore the e-mail and postal address together');
      if (is2xx(res.status)) emailBack = postalBack = true;
    }
    if (!emailBack) problems.push('the e-mail address could not be set back');
    if (!postalBack) problems.push('the postal address could not be set back');
    if (problems.length) throw new Error(problems.join('; '));
  }
}
