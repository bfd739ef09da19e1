import type { ContactUpdate } from '../../data-builders/contact-info';
import type { CaseContext } from '../../harness/case';
import type { CustomerData } from '../../harness/config';
import type { HttpResult } from '../../harness/http/client';
import { lockIsFree, lockIsShared, lockLoad, type LockMode } from '../../harness/lock';
import type { Known } from '../../harness/rules/exchange';
import { RUN_LOG } from '../../harness/log/run-log';
import { contactRunLog, shownByOnRecord } from '../../harness/state/contact-on-record';
import { believedNow, holdCustomer, phoneBelieved, type OnRecord, type Settle } from './_customer-on-record';
import { is2xx, otherOutcome, restore, restorePhone } from './_customer-restore';
import { CustomerUpdates } from './_customer-updates';
import { control, fromOnRecord, reconcileAfterEarlierCase, type StepsScope } from './_on-record-steps';
import { phoneKey, samePhone, type Phone } from './_phone-on-record';
import { requireConfirmed } from './_unconfirmable';
import { withKnownCountryCode } from './_country-code';

export { is2xx };

/**
 * A configured customer (testData.customer, or one of testData.moreCustomers), as one case sees it.
 * Every request is built from that customer's own configured data: its userIdType (LOGIN_ID for a
 * customer addressed by its login id) and its countryCode, where it is known (_country-code.ts).
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
export class Customer extends CustomerUpdates {
  /** The accepted update that put the number believed on record there, when this case took the customer. */
  private readonly before: HttpResult | undefined;

  private constructor(t: CaseContext, c: CustomerData, s: OnRecord, mode: LockMode | 'own') {
    super(t, c, s, mode);
    this.before = phoneBelieved(s, this.believed) ? this.shownBy() : undefined;
  }

  /** The accepted update the run's log shows put the number believed on record (harness/state/contact-on-record.ts). */
  private shownBy(): HttpResult | undefined {
    const { state, seen } = contactRunLog(this.t.run.get(RUN_LOG));
    const s = shownByOnRecord(state, seen, this.customerId, this.believed.phone);
    if (!s || s.x.status === 0) return undefined;
    return s.res.logged ? s.res : Object.defineProperty({ ...s.res }, 'logged', { value: s });
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

  /** The phone the run believes is on record now (left by the cases before this one, and this case's updates). */
  get onRecord(): Phone {
    return this.believed.phone;
  }

  /** The number on record, where the run knows it (not after a request that should have been refused was accepted). */
  get knownNumber(): string | undefined {
    const b = this.believed;
    return phoneBelieved(this.s, b) ? b.phone.number : undefined;
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
    // Its country code only where it is known (_country-code.ts): else no update of the run carries one.
    const sent = withKnownCountryCode(t, chosen);
    const start = { number: sent.phoneNumber, countryCode: sent.countryCode };
    let c: Customer | undefined;
    // No await before the lock is asked for: the choice above stays true.
    const s = await holdCustomer(t, key(chosen), chosen.customerId, start, mode, (s) =>
      (c ??= new Customer(t, sent, s, mode)).settle(),
    );
    if (all.length > 1) await t.parameter('customerId', chosen.customerId);
    return (c ??= new Customer(t, sent, s, mode));
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
      reconcileFirst: () => alone(() => reconcileAfterEarlierCase(this.scope)),
      reconcile: () =>
        alone(async () => {
          const problems: string[] = [];
          await this.restorePhone(problems);
          if (problems.length) throw new Error(problems.join('; '));
        }),
      restore: () => alone(() => this.restore()),
    };
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
   * Before requests that must be refused: a valid update that changes nothing is served at the same path
   * (_on-record-steps.ts control). Returns the number on record.
   */
  control(t: CaseContext): Promise<string> {
    return control(this.scope, t);
  }

  /** Steps that rely on the phone the run believes is on record (_on-record-steps.ts fromOnRecord). */
  fromOnRecord(run: (from: Phone, again: boolean) => Promise<HttpResult>): Promise<{ res: HttpResult; from: Phone }> {
    return fromOnRecord(this.scope, run);
  }

  /** An accepted update of this case set the e-mail or postal address back to the configured one: nothing is left to
   * restore of it (listed as set to the configured value, as the restore lists it). */
  setBack(which: 'email' | 'postal'): void {
    if (which === 'email') this.s.emailChanged = false;
    else this.s.postalChanged = false;
    otherOutcome(this.scope, which, true, '', []);
  }

  private get who(): string {
    return `customer ${JSON.stringify(this.customerId)} (userIdType ${this.datum.userIdType})`;
  }

  /** What the restore and the steps on the number on record need of this customer. */
  private get scope(): StepsScope {
    return {
      t: this.t,
      s: this.s,
      datum: this.datum,
      start: this.start,
      original: this.original,
      key: this.key,
      who: this.who,
      update: (u, label) => this.update(u, label),
      describe: (p) => this.describe(p),
      configKey: (field) => this.configKey(field),
      proven: () => this.proven,
      believed: (except) => believedNow(this.t, this.key, this.customerId, this.start, except),
      notServed: (status, rules) => this.notServed(status, rules),
      logFromLast: () => {
        this.logFrom = this.log.length - 1;
      },
      answered: this.log,
    };
  }

  private restorePhone(problems: string[]): Promise<void> {
    return restorePhone(this.scope, problems);
  }

  private restore(): Promise<void> {
    return restore(this.scope);
  }
}
