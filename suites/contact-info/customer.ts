import { contactHeaders, contactUpdateBody, otherPhoneNumber, type ContactCredentials, type ContactUpdate } from '../../data-builders/contact-info';
import type { CaseContext } from '../../harness/case';
import { TransportError, type HttpResult } from '../../harness/http/client';
import type { CustomerData } from '../../harness/config';
import { acquireLock, lockIsFree } from '../../harness/lock';
import { markPhoneKnown, markPhoneUnknown, phoneKey, phoneUnknownAfterEarlierCase, samePhone, UNKNOWN_AFTER_EARLIER_CASE, type Phone } from './_phone-on-record';

export const is2xx = (status: number): boolean => status >= 200 && status < 300;

/**
 * A configured customer (testData.customer, or one of testData.moreCustomers), as one case sees it.
 * Every case that may change the phone number holds its customer's lock from its first request until
 * its clean-up is done, so phone-changing cases on one customer never overlap; with more customers
 * configured, they run side by side. Every request is built from that customer's own configured
 * data: its userIdType (LOGIN_ID for a customer addressed by its login id) and its countryCode.
 *
 * The case keeps track of what its updates may have put on record: an accepted update, and also one
 * whose outcome is unknown (a timeout, a cut-off answer, a reset after sending, a 5xx or 429 on it)
 * may have landed. Its clean-up (also when the case failed) reconciles: it sets the phone number
 * back from each number the case may have put on record (rule 2 refuses the ones that are not), then
 * confirms the configured number is on record (an update naming it as oldPhoneNumber is accepted
 * only then); it sets the e-mail and postal address back to the configured ones. What it cannot
 * confirm is listed as a leftover, with the values to restore by hand, and the next case on the
 * customer reconciles first (see _phone-on-record.ts).
 */
export class Customer {
  readonly customerId: string;
  /** The configured datum this customer comes from. */
  readonly datum: CustomerData;
  /** The values on record at the start (from the configuration). */
  readonly original: { phoneNumber: string; countryCode: string; emailAddress?: string; postalAddress?: Record<string, string> };
  /** The phone (number and country code) this case believes is on record after its accepted updates. */
  private onRecord: Phone;
  /** Every phone an accepted update, or one with an unknown outcome, of this case may have put on record, oldest first. */
  private mayBeOnRecord: Phone[] = [];
  /** An update with an unknown outcome was sent: the phone on record may be onRecord or any of mayBeOnRecord. */
  private uncertain = false;
  private readonly numbersUsed: string[] = [];
  /** Set when the number on record may be none this case set (e.g. a target that cleared it). */
  private phoneUnknown = false;
  private emailChanged = false;
  private postalChanged = false;

  private constructor(private readonly t: CaseContext, c: CustomerData = t.config.testData.customer) {
    this.datum = c;
    this.customerId = c.customerId;
    this.original = { phoneNumber: c.phoneNumber, countryCode: c.countryCode, emailAddress: c.emailAddress, postalAddress: c.postalAddress };
    this.onRecord = this.start;
    this.numbersUsed.push(c.phoneNumber);
    t.cleanup("restore the customer's contact data", () => this.restore());
  }

  /** The configured phone: the one on record at the start. */
  get start(): Phone {
    return { number: this.original.phoneNumber, countryCode: this.original.countryCode };
  }

  private get key(): string {
    return phoneKey(this.t.config.baseUrl, this.customerId);
  }

  /**
   * For a case that may change the phone number: waits for the customer's lock and holds it to the
   * end of the clean-up. `which` narrows the configured customers (e.g. one addressed by LOGIN_ID);
   * with none matching, the case is "not applicable" with `needs` as the reason. A customer whose
   * phone number an earlier case left unknown is reconciled first, or the case is "could not test".
   */
  static async forPhoneChanges(t: CaseContext, opts: { which?: (c: CustomerData) => boolean; needs?: string } = {}): Promise<Customer> {
    const all = [t.config.testData.customer, ...t.config.testData.moreCustomers];
    const customers = opts.which ? all.filter(opts.which) : all;
    if (customers.length === 0) t.notApplicable(opts.needs ?? 'no configured customer fits this test');
    const key = (c: CustomerData) => `contact-info phone: ${t.config.baseUrl} ${c.customerId}`;
    // A customer no other case holds, else the first one (and wait for it).
    const chosen = customers.find((c) => lockIsFree(key(c))) ?? customers[0]!;
    const release = await acquireLock(key(chosen));
    t.priority = 1;
    // Registered first, so it runs last: after the restore (clean-ups run in reverse order).
    t.cleanup('let the next case use the customer', async () => release());
    if (all.length > 1) await t.parameter('customerId', chosen.customerId);
    const c = new Customer(t, chosen);
    await c.reconcileAfterEarlierCase();
    return c;
  }

  /** For a case that changes only the e-mail address or postal address (no case observes those, so no lock). */
  static forEmailOrAddress(t: CaseContext): Customer {
    return new Customer(t);
  }

  /**
   * An earlier case could not confirm the phone number: set it back from what that case may have put
   * on record and confirm, before this case relies on it; else "could not test", never a failure.
   */
  private async reconcileAfterEarlierCase(): Promise<void> {
    const earlier = phoneUnknownAfterEarlierCase(this.key);
    if (!earlier) return;
    this.mayBeOnRecord = earlier.mayBe.filter((p) => !samePhone(p, this.start));
    this.uncertain = true;
    let confirmed = false;
    try {
      confirmed = await this.t.step('reconcile the phone number on record (unknown after an earlier case)', () => this.reconcilePhone());
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
    }
    if (!confirmed) {
      // Left to the earlier case's leftover: this case changed nothing, so its clean-up has nothing to do.
      this.mayBeOnRecord = [];
      this.uncertain = false;
      this.t.couldNotTest(`${UNKNOWN_AFTER_EARLIER_CASE}, and setting it back to ${this.describe(this.start)} could not be confirmed (${earlier.why})`);
    }
    markPhoneKnown(this.key);
    this.t.putBack(this.key);
    this.mayBeOnRecord = [];
    this.uncertain = false;
    this.onRecord = this.start;
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
    const res = await t.step(`control: a valid phone update (${this.onRecord.number} to ${next}) is served`, () =>
      this.update({ phone: { oldPhoneNumber: this.onRecord.number, oldCountryCode: this.onRecord.countryCode, newPhoneNumber: next } }, 'control: valid phone update'));
    if (!is2xx(res.status)) t.notApplicable(`a valid phone update was not served either (status ${res.status}; reported by OP10-PATH or OP10-RULE1-SUPPLIED-OBJECTS), so a refusal would show nothing`);
    return next;
  }

  /** The number on record may have been changed by an update that did not supply it (e.g. cleared): the restore also tries "". */
  phoneMayHaveChanged(): void {
    this.phoneUnknown = true;
  }

  /**
   * Send one contact update for this customer; what an accepted one put on record is remembered for
   * the restore, and so is what one with an unknown outcome may have put there (then rethrown).
   */
  async update(u: ContactUpdate, label: string, credentials: ContactCredentials = 'configured'): Promise<HttpResult> {
    let res: HttpResult;
    try {
      res = await this.t.send({
        operation: 'updateContactInfo',
        pathParams: { customerId: this.customerId },
        headers: contactHeaders(this.t.config, credentials),
        body: contactUpdateBody(this.datum, u),
        label,
      });
    } catch (e) {
      // A timeout, a cut-off answer, a reset, a 502/503/504 or 429: the update may have landed.
      if (e instanceof TransportError) this.mayHaveLanded(u, true);
      throw e;
    }
    if (is2xx(res.status)) this.mayHaveLanded(u, false);
    // A 500 (or another 5xx) on an update: it may have been applied before the target failed.
    else if (res.status >= 500) this.mayHaveLanded(u, true);
    return res;
  }

  private mayHaveLanded(u: ContactUpdate, unknownOutcome: boolean): void {
    if (u.phone) {
      const set: Phone = { number: u.phone.newPhoneNumber, countryCode: u.phone.newCountryCode ?? this.original.countryCode };
      if (!unknownOutcome) this.onRecord = set;
      else this.uncertain = true;
      if (!samePhone(set, this.start) && !this.mayBeOnRecord.some((p) => samePhone(p, set))) this.mayBeOnRecord.push(set);
    }
    if (u.emailAddress !== undefined) this.emailChanged = true;
    if (u.postalAddress !== undefined) this.postalChanged = true;
  }

  private describe(p: Phone): string {
    return `${JSON.stringify(p.number)}${p.countryCode ? ` (country code ${p.countryCode})` : ''}`;
  }

  /**
   * Set the phone back to the configured one and confirm it (rule 2 as the probe): from the phone
   * this case believes on record, then from every other it may have put there (newest first; a
   * refusal as a mismatch only says "not this one"), then confirm with an update naming the
   * configured number as old and new (accepted only when it is on record). Where the phone-alone
   * form does not get there, the same is tried with the three objects together. A confirmed
   * "already as found" is success. Transport failures that outlast the clean-up retry are thrown.
   */
  private async reconcilePhone(): Promise<boolean> {
    const start = this.start;
    const candidates = [this.onRecord, ...[...this.mayBeOnRecord].reverse(), ...(this.phoneUnknown ? [{ number: '', countryCode: start.countryCode }] : [])].filter(
      (p, i, a) => !samePhone(p, start) && a.findIndex((q) => samePhone(p, q)) === i,
    );
    const together = this.original.emailAddress !== undefined && this.original.postalAddress !== undefined;
    const confirm = async () =>
      is2xx((await this.update({ phone: { oldPhoneNumber: start.number, oldCountryCode: start.countryCode, newPhoneNumber: start.number, newCountryCode: start.countryCode } }, 'confirm the phone number on record')).status);
    // Where the case itself set the number back, confirming is enough.
    let confirmed = samePhone(this.onRecord, start) && !this.uncertain && (await confirm());
    for (const form of together ? (['alone', 'together'] as const) : (['alone'] as const)) {
      if (confirmed) break;
      for (const n of candidates) {
        const phone = { oldPhoneNumber: n.number, oldCountryCode: n.countryCode, newPhoneNumber: start.number, newCountryCode: start.countryCode };
        const u: ContactUpdate = form === 'alone' ? { phone } : { phone, emailAddress: this.original.emailAddress, postalAddress: this.original.postalAddress };
        if (is2xx((await this.update(u, `restore the phone number from ${this.describe(n)} (${form === 'alone' ? 'alone' : 'with the e-mail and postal address'})`)).status)) break;
      }
      confirmed = await confirm();
    }
    return confirmed;
  }

  /**
   * Put back the values on record at the start: the phone number (reconcilePhone), then the e-mail
   * and postal address, each alone and, where a target refuses that, both together (rule 1 lets a
   * target be served either way; the restore must not depend on one). What could not be put back is
   * listed as a leftover with the values to restore by hand.
   */
  private async restore(): Promise<void> {
    const problems: string[] = [];
    const start = this.start;
    const who = `customer ${JSON.stringify(this.customerId)} (userIdType ${this.datum.userIdType})`;
    if (this.mayBeOnRecord.length > 0 || this.phoneUnknown || this.uncertain || !samePhone(this.onRecord, start)) {
      let confirmed = false;
      let why = 'an update naming it as oldPhoneNumber was refused after setting it back';
      try {
        confirmed = await this.reconcilePhone();
      } catch (e) {
        if (!(e instanceof TransportError)) throw e;
        why = e.message;
      }
      const mayBe = [...this.mayBeOnRecord, ...(this.phoneUnknown ? [{ number: '', countryCode: start.countryCode }] : [])];
      if (confirmed) {
        markPhoneKnown(this.key);
        this.t.putBack(this.key);
      } else {
        markPhoneUnknown(this.key, mayBe, why);
        problems.push(`could not confirm that the phone number is back to ${this.describe(start)}: ${why}`);
        this.t.leftBehind({
          key: this.key,
          what: `phone number of ${who}`,
          now: `unknown: ${[...mayBe, start].map((p) => this.describe(p)).join(' or ')}`,
          restore: `phoneNumber ${this.describe(start)}`,
          why,
        });
      }
    }
    const email = this.emailChanged && this.original.emailAddress !== undefined;
    const postal = this.postalChanged && this.original.postalAddress !== undefined;
    let emailBack = !email;
    let postalBack = !postal;
    let why = 'the target refused the update that sets it back';
    const attempt = async (u: ContactUpdate, label: string) => {
      try {
        return is2xx((await this.update(u, label)).status);
      } catch (e) {
        if (!(e instanceof TransportError)) throw e;
        why = e.message;
        return false;
      }
    };
    if (email) emailBack = await attempt({ emailAddress: this.original.emailAddress }, 'restore the e-mail address');
    if (postal) postalBack = await attempt({ postalAddress: this.original.postalAddress }, 'restore the postal address');
    if ((!emailBack || !postalBack) && this.original.emailAddress !== undefined && this.original.postalAddress !== undefined) {
      if (await attempt({ emailAddress: this.original.emailAddress, postalAddress: this.original.postalAddress }, 'restore the e-mail and postal address together')) emailBack = postalBack = true;
    }
    const emailKey = `contact-info email|${this.t.config.baseUrl}|${this.customerId}`;
    const postalKey = `contact-info postal|${this.t.config.baseUrl}|${this.customerId}`;
    if (email && emailBack) this.t.putBack(emailKey);
    if (postal && postalBack) this.t.putBack(postalKey);
    if (!emailBack) {
      problems.push('the e-mail address could not be set back');
      this.t.leftBehind({ key: emailKey, what: `e-mail address of ${who}`, now: 'a dbsi-conformance test address (dbsi-conformance.<run>.…@example.com)', restore: `emailAddress ${JSON.stringify(this.original.emailAddress)}`, why });
    }
    if (!postalBack) {
      problems.push('the postal address could not be set back');
      this.t.leftBehind({ key: postalKey, what: `postal address of ${who}`, now: 'a dbsi-conformance test address (address2 "dbsi-conformance <run>")', restore: `postalAddress ${JSON.stringify(this.original.postalAddress)}`, why });
    }
    if (problems.length) throw new Error(problems.join('; '));
  }
}
