import {
  contactHeaders,
  contactUpdateBody,
  otherPhoneNumber,
  type ContactCredentials,
  type ContactUpdate,
} from '../../data-builders/contact-info';
import type { CaseContext } from '../../harness/case';
import type { Known } from '../../harness/rules/exchange';
import { nothingSent, TransportError, type HttpResult } from '../../harness/http/client';
import type { CustomerData } from '../../harness/config';
import { lockIsFree, lockIsShared, lockLoad, type LockMode } from '../../harness/lock';
import { asConfigured, holdCustomer, phoneBelieved, type OnRecord, type Settle } from './_customer-on-record';
import { phoneKey, sameNumber, samePhone, UNKNOWN_AFTER_EARLIER_CASE, type Phone } from './_phone-on-record';
import {
  carriesEmailOrPostal,
  emailAndPostalKnown,
  listSetToConfigured,
  phoneAdvice,
  requireConfirmed,
} from './_unconfirmable';
import { provedBeforeFirstWrite } from './_prove-before-write';

const CHANGES_NOTHING = '(the number as old and new: changes nothing)';

export const is2xx = (status: number): boolean => status >= 200 && status < 300;

/** Why a phone number was not confirmed though every update was answered: the configured one was refused as old. */
const REFUSED_AFTER_SETTING_BACK = 'an update naming it as oldPhoneNumber was refused after setting it back';

/**
 * A configured customer (testData.customer, or one of testData.moreCustomers), as one case sees it.
 * Every request is built from that customer's own configured data: its userIdType (LOGIN_ID for a
 * customer addressed by its login id) and its countryCode.
 *
 * A case that may change the phone number holds the customer's lock exclusively (forPhoneChanges); a
 * case that only sends requests a conformant target refuses holds it shared, side by side with the
 * others (forRefusals). What is on record lives per run, per customer (_customer-on-record.ts): a
 * case starts from the number the run knows is on record, not necessarily the configured one, and
 * its updates move it: an accepted update, and also one whose outcome is unknown (a timeout, a
 * cut-off answer, a reset after sending, a 5xx or 429 on it), which may have landed; never one that
 * was not sent at all (harness/http/client.ts nothingSent). The last case
 * out restores (also when it failed): it sets the phone number back from each number the run may
 * have put on record (rule 2 refuses the ones that are not), then confirms the configured number is
 * on record (an update naming it as oldPhoneNumber is accepted only then); it sets the e-mail and
 * postal address back to the configured ones. What it cannot confirm is listed as a leftover, with
 * the values to restore by hand, and the next case on the customer reconciles first.
 */
export class Customer {
  readonly customerId: string;
  /** The configured datum this customer comes from. */
  readonly datum: CustomerData;
  /** The values on record at the start of the run (from the configuration). */
  readonly original: {
    phoneNumber: string;
    countryCode: string;
    emailAddress?: string;
    postalAddress?: Record<string, string>;
  };
  private readonly numbersUsed: string[] = [];
  /**
   * The answered updates of this customer this case sent, in order (controls and restores included):
   * the log the state rules read (CaseContext.judgeLog), with the update that put the number on
   * record before this case, where an earlier case's accepted update did (cited).
   */
  readonly log: HttpResult[] = [];
  /** The accepted update that put the number believed on record there, when this case took the customer. */
  private readonly before: HttpResult | undefined;
  /** This case alone acts on the customer (it holds it exclusively, or settles it for the others): its accepted updates
   * move the phone the run believes. */
  private sole: boolean;

  private constructor(
    private readonly t: CaseContext,
    c: CustomerData,
    /** What the run knows is on record (shared by the cases on this customer; this case's own for an e-mail or address
     * case). */
    private readonly s: OnRecord,
    private readonly mode: LockMode | 'own',
  ) {
    this.datum = c;
    this.customerId = c.customerId;
    this.original = {
      phoneNumber: c.phoneNumber,
      countryCode: c.countryCode,
      emailAddress: c.emailAddress,
      postalAddress: c.postalAddress,
    };
    this.numbersUsed.push(c.phoneNumber);
    this.sole = mode !== 'shared';
    this.before = s.shownBy;
  }

  /**
   * The log the state rules read for this case: the accepted update that put the number on record
   * before this case (another case's, where one did), then this case's own updates of the customer.
   */
  get judgedLog(): HttpResult[] {
    if (this.logFrom > 0) return this.log.slice(this.logFrom);
    return this.before && !this.log.includes(this.before) ? [this.before, ...this.log] : [...this.log];
  }

  /**
   * The log starts with an accepted update that shows the number on record before this case's own
   * requests (an earlier case's, or this case's confirmation after a reconcile). Else only the
   * configuration says which number is on record.
   */
  get logShowsNumberBefore(): boolean {
    return this.logFrom > 0 || this.before !== undefined;
  }

  /**
   * What the run knows of the number on record before judgedLog begins, where no accepted update in it shows
   * one: the configured number (a capture knows nothing of it; harness/rules/capture-view.ts).
   */
  knownBefore(phone: Phone): Known {
    if (this.logShowsNumberBefore) return {};
    const from = samePhone(phone, this.start)
      ? `configured in ${this.configKey('phoneNumber')}`
      : 'left on record by an earlier test of this run';
    return { phonesOnRecord: { [this.customerId]: { number: phone.number, from } } };
  }

  /** Where the log the rules read starts, after a reconcile that set the number back and confirmed it. */
  private logFrom = 0;

  /** The configured phone: the one on record at the start of the run, and after it. */
  get start(): Phone {
    return { number: this.original.phoneNumber, countryCode: this.original.countryCode };
  }

  /** The phone the run believes is on record now (left by the cases before this one, and this case's updates). */
  get onRecord(): Phone {
    return this.s.phone;
  }

  /** The number on record, where the run knows it (not after a request that should have been refused was accepted). */
  get knownNumber(): string | undefined {
    return phoneBelieved(this.s) ? this.s.phone.number : undefined;
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
  static forPhoneChanges(
    t: CaseContext,
    opts: { which?: (c: CustomerData) => boolean; needs?: string } = {},
  ): Promise<Customer> {
    return Customer.hold(t, opts, 'exclusive');
  }

  /**
   * For a case that sends only requests a conformant target refuses (and a control that changes
   * nothing): holds the customer shared, side by side with the other such cases. A faulty target that
   * accepts one may change the number: the case's own check fails, and the run reconciles it.
   */
  static forRefusals(
    t: CaseContext,
    opts: { which?: (c: CustomerData) => boolean; needs?: string } = {},
  ): Promise<Customer> {
    return Customer.hold(t, opts, 'shared');
  }

  private static async hold(
    t: CaseContext,
    opts: { which?: (c: CustomerData) => boolean; needs?: string },
    mode: LockMode,
  ): Promise<Customer> {
    const all = [t.config.testData.customer, ...t.config.testData.moreCustomers];
    const customers = opts.which ? all.filter(opts.which) : all;
    if (customers.length === 0) t.notApplicable(opts.needs ?? 'no configured customer fits this test');
    const key = (c: CustomerData) => phoneKey(t.config.baseUrl, c.customerId);
    // A customer no other case holds; else (a reader) one that readers hold; else the one fewest cases hold or wait
    // for.
    const chosen =
      customers.find((c) => lockIsFree(key(c))) ??
      (mode === 'shared' ? customers.find((c) => lockIsShared(key(c))) : undefined) ??
      customers.reduce((a, b) => (lockLoad(key(b)) < lockLoad(key(a)) ? b : a));
    const start = { number: chosen.phoneNumber, countryCode: chosen.countryCode };
    let c: Customer | undefined;
    // No await before the lock is asked for: the choice above stays true.
    const s = await holdCustomer(t, key(chosen), start, mode, (s) => (c ??= new Customer(t, chosen, s, mode)).settle());
    if (all.length > 1) await t.parameter('customerId', chosen.customerId);
    return (c ??= new Customer(t, chosen, s, mode));
  }

  /** For a case that changes only the e-mail address or postal address (no case observes those, so no lock): it
   * restores them itself. */
  static forEmailOrAddress(t: CaseContext): Customer {
    const d = t.config.testData.customer;
    const c = new Customer(t, d, asConfigured({ number: d.phoneNumber, countryCode: d.countryCode }), 'own');
    t.cleanup("restore the customer's contact data", () => c.restore());
    return c;
  }

  /** How this case puts the customer back when it is the one to (see _customer-on-record.ts). */
  private settle(): Settle {
    const alone = async (fn: () => Promise<void>) => {
      this.sole = true;
      try {
        await fn();
      } finally {
        this.sole = this.mode !== 'shared';
      }
    };
    return {
      reconcileFirst: () => alone(() => this.reconcileAfterEarlierCase()),
      reconcile: () =>
        alone(async () => {
          const problems: string[] = [];
          await this.restorePhone(problems);
          if (problems.length) throw new Error(problems.join('; '));
        }),
      restore: () => alone(() => this.restore()),
    };
  }

  /**
   * An earlier case could not confirm the phone number: set it back from what the run may have put
   * on record and confirm, before this case relies on it; else "could not test", never a failure.
   */
  private async reconcileAfterEarlierCase(): Promise<void> {
    const earlier = this.s.unknown ?? '';
    let confirmed = false;
    let answered = true;
    try {
      confirmed = await this.t.step('reconcile the phone number on record (unknown ' + 'after an earlier case)', () =>
        this.reconcilePhone(),
      );
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
      answered = false;
    }
    if (!confirmed) {
      const back = `setting it back to ${this.describe(this.start)} could not be confirmed (${earlier})`;
      this.notConfirmed(`${UNKNOWN_AFTER_EARLIER_CASE}, and ${back}`, answered);
    }
    this.t.putBack(this.key);
  }

  /**
   * Why an update the case needed served was not, and which rule reports it: a 404 may also mean the
   * customer is not on record, which OP10-PATH reports as could not test, naming the customerId.
   */
  notServed(status: number, rules: string): string {
    if (status !== 404) return `status ${status}; reported by ${rules}`;
    return (
      `status 404: the operation is not served at the documented path, or no customer ` +
      `${JSON.stringify(this.customerId)} (userIdType ${this.datum.userIdType}) is on record; OP10-PATH ` +
      `tells which where it can`
    );
  }

  /**
   * The configuration key of one of this customer's values (testData.customer.phoneNumber,
   * testData.moreCustomers[2].customerId): what a could-not-test that a configured value may cause
   * names (CaseContext.couldNotTest's setupKey, gathered in the run's diagnosis block).
   */
  configKey(field: 'customerId' | 'phoneNumber' | 'emailAndPostalConfirmed'): string {
    const more = this.t.config.testData.moreCustomers;
    let i = more.indexOf(this.datum);
    // By identity; else (a copy of the configured datum) by its customerId.
    if (i < 0 && this.datum !== this.t.config.testData.customer) {
      i = more.findIndex((m) => m.customerId === this.customerId);
    }
    return i < 0 ? `testData.customer.${field}` : `testData.moreCustomers[${i}].${field}`;
  }

  /**
   * A refused update that relied on this customer's configured values, before any update of the
   * customer was served: an update that changes nothing (the configured number as old and new)
   * tells whether they are right. Served, the refusal is the target's; refused too, the run's setup
   * proofs make the tests that met it could not test, naming the key (harness/setup/proof.ts).
   */
  private async proveConfigured(
    u: ContactUpdate | undefined,
    credentials: ContactCredentials,
    why = 'control: ',
  ): Promise<void> {
    if (this.s.served || !phoneBelieved(this.s) || !samePhone(this.s.phone, this.start)) return;
    if (u && this.relies(u).length === 0) return;
    const p = this.start;
    const keep: ContactUpdate = {
      phone: {
        oldPhoneNumber: p.number,
        oldCountryCode: p.countryCode,
        newPhoneNumber: p.number,
        newCountryCode: p.countryCode,
      },
    };
    const res = await this.t.send({
      operation: 'updateContactInfo',
      pathParams: { customerId: this.customerId },
      headers: contactHeaders(this.t.config, credentials),
      body: contactUpdateBody(this.datum, keep),
      label: `${why}are the configured customer id and number on record? ` + CHANGES_NOTHING,
      relies: this.relies(keep),
    });
    this.log.push(res);
    if (is2xx(res.status)) this.s.served = this.s.startProven = true;
  }

  /** Prove before you write (_prove-before-write.ts): once per customer per run, before its first update. */
  private async proveBeforeWrite(): Promise<void> {
    if (this.s.served || this.datum.userIdType === 'LOGIN_ID') return;
    const prove = () => this.proveConfigured(undefined, 'configured', 'prove before the first write: ');
    await provedBeforeFirstWrite(this.t, this.customerId, prove);
  }

  /**
   * The configured values an update relies on being right: the customer id, and the configured
   * phone number when the update names it as oldPhoneNumber (harness/setup/proof.ts). None for a
   * customer addressed by its login id: a refusal of it is what OP10-USERIDTYPE-LOGIN-ID judges.
   */
  private relies(u: ContactUpdate): string[] {
    if (this.datum.userIdType === 'LOGIN_ID') return [];
    const out = [this.configKey('customerId')];
    const old = u.phone?.oldPhoneNumber;
    if (old !== undefined && sameNumber(old, this.original.phoneNumber) && samePhone(this.s.phone, this.start))
      out.push(this.configKey('phoneNumber'));
    return out;
  }

  /** The case cannot restore what the configuration does not give: it does not change it. */
  requireRestorable(what: { email?: boolean; postal?: boolean }): void {
    if (what.email && !this.original.emailAddress)
      this.t.notApplicable(
        'testData.customer.emailAddress is not configured: the suite does not ' +
          'change an e-mail address it could not restore',
      );
    if (what.postal && !this.original.postalAddress)
      this.t.notApplicable(
        'testData.customer.postalAddress is not configured: the suite does ' +
          'not change a postal address it could not restore',
      );
    if (what.email || what.postal)
      requireConfirmed(this.t, this.datum, this.configKey('emailAndPostalConfirmed'), this.path);
  }

  /** No e-mail or postal address leaves the machine unless the values on record are known (_unconfirmable.ts). */
  private requireConfirmed(): void {
    requireConfirmed(this.t, this.datum, this.configKey('emailAndPostalConfirmed'), this.path);
  }

  /** The path after the base URL, as the client sends it. */
  get path(): string {
    return `/customers/${encodeURIComponent(this.customerId)}:contact-info`;
  }

  /** A phone number shaped like the one on record, not used before in this case, nor one the run may have put on
   * record. */
  newNumber(): string {
    const n = otherPhoneNumber(this.t.faker, this.original.phoneNumber, [
      ...this.numbersUsed,
      this.s.phone.number,
      ...this.s.mayBe.map((p) => p.number),
    ]);
    this.numbersUsed.push(n);
    return n;
  }

  /**
   * Before requests that must be refused (a case that holds the customer shared): a valid phone
   * update that changes nothing (the number on record, with its country code, as old and new) is
   * served at the same path, so the refusals that follow are the target applying the rule, not an
   * operation that serves nothing. Where another case's request that should have been refused was
   * accepted meanwhile (a faulty target), the numbers it may have put on record are tried too.
   * Returns the number on record.
   */
  async control(t: CaseContext): Promise<string> {
    const tried: Phone[] = [];
    for (;;) {
      const p = [this.s.phone, ...[...this.s.mayBe].reverse()].find((q) => !tried.some((r) => samePhone(q, r)));
      if (!p || tried.length >= 4) break;
      tried.push(p);
      const res = await t.step(
        tried.length === 1
          ? `control: a valid phone update (${p.number} to ` + `the same number) is served`
          : `control again, naming ${this.describe(p)} (another test's ` +
              `accepted request may have put it on record)`,
        () =>
          this.update(
            {
              phone: {
                oldPhoneNumber: p.number,
                oldCountryCode: p.countryCode,
                newPhoneNumber: p.number,
                newCountryCode: p.countryCode,
              },
            },
            'control: valid phone update that keeps the number',
          ),
      );
      if (is2xx(res.status)) return p.number;
      if (phoneBelieved(this.s)) {
        if (!this.s.proven) {
          // Left by an earlier case's accepted update and not confirmed since: the last case out reconciles.
          this.s.uncertain = true;
          t.couldNotTest(
            `${this.describe(p)}, which an earlier test's accepted update put on record, was refused as ` +
              `oldPhoneNumber (status ${res.status}), so the number on record is not known; the clean-up reconciles it`,
          );
        }
        // The configured number refused as old and new (not a 404 or 405: the operation is served): it
        // may not be on record. Not for a customer addressed by its login id: a target may refuse
        // LOGIN_ID itself (OP10-USERIDTYPE-LOGIN-ID reports that), so the number is not to blame.
        const served = res.status !== 404 && res.status !== 405 && res.status < 500;
        if (samePhone(p, this.start) && served && this.datum.userIdType !== 'LOGIN_ID') {
          t.couldNotTest(
            `a valid phone update naming the configured ${this.describe(p)} as old and new number was refused ` +
              `(status ${res.status}), so a refusal would show nothing: the configured number may not be the one on ` +
              `record; check ${this.configKey('phoneNumber')}`,
            this.configKey('phoneNumber'),
          );
        }
        t.notApplicable(
          `a valid phone update was not served either ` +
            `(${this.notServed(res.status, 'OP10-PATH or OP10-RULE1-SUPPLIED-OBJECTS')}), so a ` +
            `refusal would show nothing`,
        );
      }
    }
    t.couldNotTest(
      'the number on record was changed meanwhile by a request of another test that the target should have ' +
        'refused (see the tests that failed), and no number that request may have put on record was accepted ' +
        'as oldPhoneNumber',
    );
  }

  /**
   * A phone update that names the phone the run believes is on record as oldPhoneNumber (`build`
   * gets it); see fromOnRecord. Returns the answer and the phone named.
   */
  changeFromOnRecord(
    step: string,
    build: (from: Phone) => ContactUpdate,
    label: string,
  ): Promise<{ res: HttpResult; from: Phone }> {
    return this.fromOnRecord((from, again) =>
      this.t.step(again ? `${step} (again, from the configured number)` : step, () =>
        this.update(build(from), again ? `${label} (from the configured number)` : label),
      ),
    );
  }

  /**
   * Steps that rely on the phone the run believes is on record (`run` gets it), ending with an
   * update that names it as oldPhoneNumber, whose answer `run` returns. Where an earlier case left
   * that phone and no update has confirmed it since, a refusal may mean that case's accepted update
   * did not store it (a fault of another rule): the number is then set back to the configured one
   * and confirmed, and the steps are run again from there, so this case's verdict never rests on
   * another case's fault. A conformant target never costs the second round. Returns the answer and
   * the phone the steps started from.
   */
  async fromOnRecord(
    run: (from: Phone, again: boolean) => Promise<HttpResult>,
  ): Promise<{ res: HttpResult; from: Phone }> {
    const from = this.s.phone;
    const unconfirmed = !this.s.proven;
    const res = await run(from, false);
    if (is2xx(res.status) || res.status >= 500 || !unconfirmed) return { res, from };
    let confirmed = false;
    let why = REFUSED_AFTER_SETTING_BACK;
    try {
      confirmed = await this.t.step(
        `${this.describe(from)}, left on record by an earlier test, was refused as ` +
          `oldPhoneNumber: set the configured number back and confirm it`,
        () => this.reconcilePhone(),
      );
      // The steps run again from the confirmed number: the log the rules read starts at the confirmation.
      if (confirmed) this.logFrom = this.log.length - 1;
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
      why = e.message;
    }
    if (!confirmed) {
      const answered = why === REFUSED_AFTER_SETTING_BACK;
      this.s.unknown = why;
      this.s.uncertain = true;
      const back = `setting it back to ${this.describe(this.start)} could not be confirmed (${why})`;
      const refused = `${this.describe(from)} was refused as oldPhoneNumber`;
      this.notConfirmed(`${UNKNOWN_AFTER_EARLIER_CASE}: ${refused}, and ${back}`, answered);
    }
    const again = this.s.phone;
    return { res: await run(again, true), from: again };
  }

  /**
   * The same objects as `u`, with the values the run knows are on record (the phone as old and new,
   * the configured e-mail and postal address), sent to another path than the documented one: a
   * request that changes nothing wherever it is served.
   */
  async sendUnchangedAt(path: string, u: ContactUpdate, label: string): Promise<HttpResult> {
    const p = this.s.phone;
    const unchanged: ContactUpdate = {
      ...(u.phone
        ? {
            phone: {
              oldPhoneNumber: p.number,
              oldCountryCode: p.countryCode,
              newPhoneNumber: p.number,
              newCountryCode: p.countryCode,
            },
          }
        : {}),
      ...(u.emailAddress !== undefined ? { emailAddress: this.original.emailAddress } : {}),
      ...(u.postalAddress !== undefined ? { postalAddress: this.original.postalAddress } : {}),
    };
    if (carriesEmailOrPostal(unchanged)) this.requireConfirmed();
    // Served elsewhere, it proves the configured customer and number all the same.
    const relies = this.relies(unchanged);
    const res = await this.t.send({
      operation: 'updateContactInfo',
      path,
      pathParams: { customerId: this.customerId },
      headers: contactHeaders(this.t.config),
      body: contactUpdateBody(this.datum, unchanged),
      label,
      relies,
    });
    this.log.push(res);
    return res;
  }

  /** The number on record may have been changed by an update that did not supply it (e.g. cleared): the restore also
   * tries "". */
  phoneMayHaveChanged(): void {
    this.s.cleared = true;
  }

  /**
   * Send one contact update for this customer; what an accepted one put on record is remembered for
   * the restore, and so is what one with an unknown outcome may have put there (then rethrown).
   */
  async update(u: ContactUpdate, label: string, credentials: ContactCredentials = 'configured'): Promise<HttpResult> {
    if (carriesEmailOrPostal(u)) this.requireConfirmed();
    if (credentials === 'configured') await this.proveBeforeWrite();
    let res: HttpResult;
    try {
      res = await this.t.send({
        operation: 'updateContactInfo',
        pathParams: { customerId: this.customerId },
        headers: contactHeaders(this.t.config, credentials),
        body: contactUpdateBody(this.datum, u),
        label,
        relies: this.relies(u),
      });
    } catch (e) {
      // A timeout, a cut-off answer, a reset, a 502/503/504 or 429: the update may have landed. Not
      // one that never left the machine (refused connection, name not resolved, TLS handshake failed).
      if (e instanceof TransportError && !nothingSent(e)) this.mayHaveLanded(u, true);
      throw e;
    }
    this.log.push(res);
    if (is2xx(res.status)) this.s.served = true;
    else if (res.status >= 400 && res.status < 500 && res.status !== 429) await this.proveConfigured(u, credentials);
    if (is2xx(res.status)) this.mayHaveLanded(u, false, res);
    // A 500 (or another 5xx) on an update: it may have been applied before the target failed.
    else if (res.status >= 500) this.mayHaveLanded(u, true);
    return res;
  }

  /**
   * Several updates at once, in one step (requests a conformant target refuses, which cannot affect
   * one another): every answer is awaited before the first failure, if any, is thrown, so that none
   * is still in flight when the case moves on. Where more than one changed the phone (a faulty
   * target), the run no longer knows which is on record. The answers, in the order given.
   */
  async updatesSideBySide(step: string, updates: Array<{ u: ContactUpdate; label: string }>): Promise<HttpResult[]> {
    const settled = await this.t.step(step, () =>
      Promise.allSettled(updates.map(({ u, label }) => this.update(u, label))),
    );
    // Two phone changes accepted side by side: which landed last is unknown.
    if (settled.filter((r, i) => updates[i]!.u.phone && r.status === 'fulfilled' && is2xx(r.value.status)).length > 1)
      this.s.uncertain = true;
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    return settled.map((r) => (r as PromiseFulfilledResult<HttpResult>).value);
  }

  private mayHaveLanded(u: ContactUpdate, unknownOutcome: boolean, res?: HttpResult): void {
    const s = this.s;
    if (u.phone) {
      const set: Phone = {
        number: u.phone.newPhoneNumber,
        countryCode: u.phone.newCountryCode ?? this.original.countryCode,
      };
      const old: Phone | undefined =
        u.phone.oldPhoneNumber === undefined
          ? undefined
          : { number: u.phone.oldPhoneNumber, countryCode: u.phone.oldCountryCode ?? this.original.countryCode };
      if (!samePhone(set, this.start) && !s.mayBe.some((p) => samePhone(p, set))) s.mayBe.push(set);
      const keeps = old !== undefined && samePhone(old, set);
      if (!unknownOutcome && old !== undefined && samePhone(old, this.start)) s.startProven = true;
      if (unknownOutcome) {
        if (!(keeps && samePhone(set, s.phone))) s.uncertain = true;
      } else if (this.sole) {
        s.phone = set;
        s.proven = keeps;
        s.shownBy = res;
      } else if (keeps && samePhone(set, s.phone)) {
        s.proven = true;
        s.shownBy = res;
      }
      // A request that a conformant target refuses was accepted, beside other cases: the number may have moved.
      else s.uncertain = true;
      if (s.uncertain) s.shownBy = undefined;
    }
    if (u.emailAddress !== undefined) s.emailChanged = true;
    if (u.postalAddress !== undefined) s.postalChanged = true;
  }

  private describe(p: Phone): string {
    return `${JSON.stringify(p.number)}${p.countryCode ? ` (country code ${p.countryCode})` : ''}`;
  }

  /**
   * Could not test: the phone number could not be set back to the configured one and confirmed.
   * Where the target answered (refused the update naming the configured number as oldPhoneNumber),
   * the configured number may not be on record: its key is named.
   */
  private notConfirmed(why: string, answered: boolean): never {
    if (!answered) this.t.couldNotTest(why);
    const key = this.configKey('phoneNumber');
    this.t.couldNotTest(`${why}; the configured number may not be the one on record: check ${key}`, key);
  }

  /**
   * Set the phone back to the configured one and confirm it (rule 2 as the probe): where the run
   * believes it is the configured one, confirm first; else from the phone the run believes on
   * record, then from every other it may have put there (newest first; a refusal as a mismatch
   * only says "not this one"), then confirm with an update naming the configured number as old and
   * new (accepted only when it is on record). Where the phone-alone
   * form does not get there, the same is tried with the three objects together. A confirmed
   * "already as found" is success: the run then knows the configured phone is on record. Transport
   * failures that outlast the clean-up retry are thrown.
   */
  private async reconcilePhone(): Promise<boolean> {
    const s = this.s;
    const start = this.start;
    const candidates = [
      s.phone,
      ...[...s.mayBe].reverse(),
      ...(s.cleared ? [{ number: '', countryCode: start.countryCode }] : []),
    ].filter((p, i, a) => !samePhone(p, start) && a.findIndex((q) => samePhone(p, q)) === i);
    const together =
      this.original.emailAddress !== undefined &&
      this.original.postalAddress !== undefined &&
      emailAndPostalKnown(this.t, this.datum);
    let confirmedBy: HttpResult | undefined;
    const confirm = async () => {
      const keep = {
        oldPhoneNumber: start.number,
        oldCountryCode: start.countryCode,
        newPhoneNumber: start.number,
        newCountryCode: start.countryCode,
      };
      const res = await this.update({ phone: keep }, 'confirm the phone number on record');
      if (is2xx(res.status)) confirmedBy = res;
      return is2xx(res.status);
    };
    // Where the run believes the configured number is on record (also when an update meanwhile may have
    // moved it, e.g. requests to refuse cut off by an interruption), confirming first is enough if accepted.
    let confirmed = samePhone(s.phone, start) && (await confirm());
    for (const form of together ? (['alone', 'together'] as const) : (['alone'] as const)) {
      if (confirmed) break;
      for (const n of candidates) {
        const phone = {
          oldPhoneNumber: n.number,
          oldCountryCode: n.countryCode,
          newPhoneNumber: start.number,
          newCountryCode: start.countryCode,
        };
        const u: ContactUpdate =
          form === 'alone'
            ? { phone }
            : { phone, emailAddress: this.original.emailAddress, postalAddress: this.original.postalAddress };
        if (
          is2xx(
            (
              await this.update(
                u,
                `restore the phone number from ${this.describe(n)} ` +
                  `(${form === 'alone' ? 'alone' : 'with the e-mail and postal address'})`,
              )
            ).status,
          )
        )
          break;
      }
      confirmed = await confirm();
    }
    if (confirmed)
      Object.assign(s, {
        phone: start,
        proven: true,
        mayBe: [],
        uncertain: false,
        cleared: false,
        unknown: undefined,
        shownBy: confirmedBy,
      });
    return confirmed;
  }

  /**
   * The phone part of the restore: reconcile and confirm where the run may have changed it. What it
   * cannot confirm is listed as a leftover (with every number it may be) and marked unknown, so the
   * next case on the customer reconciles first.
   */
  private async restorePhone(problems: string[]): Promise<void> {
    const s = this.s;
    const start = this.start;
    // Nothing changed, or confirmed since the last change (an accepted update naming it as old and new, e.g. a
    // control): nothing to do.
    if (phoneBelieved(s) && samePhone(s.phone, start) && (s.mayBe.length === 0 || s.proven)) {
      s.mayBe = [];
      return;
    }
    let confirmed = false;
    let why = REFUSED_AFTER_SETTING_BACK;
    try {
      confirmed = await this.reconcilePhone();
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
      why = e.message;
    }
    if (confirmed) {
      this.t.putBack(this.key);
      return;
    }
    const mayBe = [...s.mayBe, ...(s.cleared ? [{ number: '', countryCode: start.countryCode }] : [])];
    // The target answered and refused the configured number, which no update of this run got accepted: maybe stale.
    const known = s.startProven ? 'proven' : why === REFUSED_AFTER_SETTING_BACK ? 'refused' : 'unconfirmed';
    s.unknown = why;
    s.uncertain = true;
    problems.push(`could not confirm that the phone number is back to ${this.describe(start)}: ${why}`);
    this.t.leftBehind({
      key: this.key,
      what: `phone number of ${this.who}`,
      now: `unknown: ${[...mayBe, ...(known === 'refused' ? [] : [start])].map((p) => this.describe(p)).join(' or ')}`,
      restore: phoneAdvice(start, known, this.configKey('phoneNumber'), (p) => this.describe(p)),
      why,
    });
  }

  private get who(): string {
    return `customer ${JSON.stringify(this.customerId)} (userIdType ${this.datum.userIdType})`;
  }

  /**
   * Put back the values on record at the start: the phone number (restorePhone), then the e-mail
   * and postal address, each alone and, where a target refuses that, both together (rule 1 lets a
   * target be served either way; the restore must not depend on one). Each alone first: a target
   * that clears the phone number on an update without it (a fault) would undo the phone's restore.
   * What could not be put back is listed as a leftover with the values to restore by hand.
   */
  private async restore(): Promise<void> {
    const problems: string[] = [];
    const s = this.s;
    await this.restorePhone(problems);
    const email = s.emailChanged && this.original.emailAddress !== undefined;
    const postal = s.postalChanged && this.original.postalAddress !== undefined;
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
    if (postal)
      postalBack = await attempt({ postalAddress: this.original.postalAddress }, 'restore the postal address');
    if (
      (!emailBack || !postalBack) &&
      this.original.emailAddress !== undefined &&
      this.original.postalAddress !== undefined &&
      emailAndPostalKnown(this.t, this.datum)
    ) {
      if (
        await attempt(
          { emailAddress: this.original.emailAddress, postalAddress: this.original.postalAddress },
          'restore the e-mail and postal address together',
        )
      )
        emailBack = postalBack = true;
    }
    const emailKey = `contact-info email|${this.t.config.baseUrl}|${this.customerId}`;
    const postalKey = `contact-info postal|${this.t.config.baseUrl}|${this.customerId}`;
    if (email && emailBack) this.t.putBack(emailKey);
    if (postal && postalBack) this.t.putBack(postalKey);
    const confirmedBy = this.configKey('emailAndPostalConfirmed');
    if (email && emailBack)
      listSetToConfigured(this.t, {
        key: `${emailKey}|set`,
        what: `e-mail address of ${this.who}`,
        value: this.original.emailAddress,
        confirmedBy,
      });
    if (postal && postalBack)
      listSetToConfigured(this.t, {
        key: `${postalKey}|set`,
        what: `postal address of ${this.who}`,
        value: this.original.postalAddress,
        confirmedBy,
      });
    // Back, or listed as a leftover: either way nothing is left for a later case to restore.
    s.emailChanged = false;
    s.postalChanged = false;
    if (!emailBack) {
      problems.push('the e-mail address could not be set back');
      this.t.leftBehind({
        key: emailKey,
        what: `e-mail address of ${this.who}`,
        now: 'a dbsi-conformance test address ' + '(dbsi-conformance.<run>.…@example.com)',
        restore: `emailAddress ${JSON.stringify(this.original.emailAddress)}`,
        why,
      });
    }
    if (!postalBack) {
      problems.push('the postal address could not be set back');
      this.t.leftBehind({
        key: postalKey,
        what: `postal address of ${this.who}`,
        now: 'a dbsi-conformance test address (address2 ' + '"dbsi-conformance <run>")',
        restore: `postalAddress ${JSON.stringify(this.original.postalAddress)}`,
        why,
      });
    }
    if (problems.length) throw new Error(problems.join('; '));
  }
}
