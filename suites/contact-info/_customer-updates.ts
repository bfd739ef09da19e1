import {
  contactHeaders,
  contactUpdateBody,
  otherPhoneNumber,
  type ContactCredentials,
  type ContactUpdate,
} from '../../data-builders/contact-info';
import type { CaseContext } from '../../harness/case';
import type { CustomerData } from '../../harness/config';
import { nothingSent, TransportError, type HttpResult } from '../../harness/http/client';
import type { LockMode } from '../../harness/lock';
import { RUN_LOG } from '../../harness/log/run-log';
import { foldRunLog } from '../../harness/state/contact-info';
import type { BelievedOnRecord } from '../../harness/state/contact-believed';
import { contactRunLog, provenOnRecord } from '../../harness/state/contact-on-record';
import { believedNow, phoneBelieved, sentAlone, type OnRecord } from './_customer-on-record';
import { is2xx, onRecordNow } from './_customer-restore';
import { phoneKey, sameNumber, samePhone, type Phone } from './_phone-on-record';
import { provedBeforeFirstWrite } from './_prove-before-write';
import { carriesEmailOrPostal, requireConfirmed } from './_unconfirmable';
import { countryCodeWithheld } from './_country-code';

/** A configured customer's key a case may name (CustomerUpdates.configKey). */
export type ConfigField = 'customerId' | 'phoneNumber' | 'emailAndPostalConfirmed' | 'countryCodeConfirmed';

const CHANGES_NOTHING = '(the number as old and new: changes nothing)';

/**
 * What a case sends to a configured customer (customer.ts): every contact update, built from that customer's own
 * configured data, with the proof before the first write, the configured values it relies on, and what an
 * accepted update (or one whose outcome is unknown) may have put on record, for the restore.
 */
export class CustomerUpdates {
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

  /** This case alone acts on the customer (it holds it exclusively, or settles it for the others): its accepted updates
   * move the phone the run believes. */
  protected sole: boolean;

  protected constructor(
    protected readonly t: CaseContext,
    c: CustomerData,
    /** What the run knows is on record (shared by the cases on this customer; this case's own for an e-mail or address
     * case). */
    protected readonly s: OnRecord,
    protected readonly mode: LockMode | 'own',
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
  }

  /**
   * The run's log proves the number believed on record (harness/state/contact-on-record.ts): an accepted update named
   * it as old and new and nothing moved it since, or it is the configured number and no update moved it.
   */
  get proven(): boolean {
    const { state } = contactRunLog(this.t.run.get(RUN_LOG));
    return provenOnRecord(state, this.customerId, this.believed.phone, this.start);
  }

  /**
   * The phone the run believes is on record and whether it is in doubt, asked of the run's log now
   * (harness/state/contact-believed.ts): what the updates sent alone put there, and what puts it in doubt.
   */
  get believed(): BelievedOnRecord {
    return believedNow(this.t, this.key, this.customerId, this.start);
  }

  /** The configured phone: the one on record at the start of the run, and after it. */
  get start(): Phone {
    return { number: this.original.phoneNumber, countryCode: this.original.countryCode };
  }

  protected get key(): string {
    return phoneKey(this.t.config.baseUrl, this.customerId);
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
  configKey(field: ConfigField): string {
    const { customer, moreCustomers: more } = this.t.config.testData;
    // By identity; else (a copy of the configured datum, e.g. without its country code) by its customerId and type.
    const same = (m: CustomerData) =>
      m === this.datum || (m.customerId === this.customerId && m.userIdType === this.datum.userIdType);
    let i = more.indexOf(this.datum);
    if (i < 0 && !same(customer)) i = more.findIndex(same);
    if (i < 0 && this.datum !== customer && !same(customer))
      i = more.findIndex((m) => m.customerId === this.customerId);
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
    const b = this.believed;
    if (this.served || !phoneBelieved(this.s, b) || !samePhone(b.phone, this.start)) return;
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
    this.logged(res);
  }

  /** Prove before you write (_prove-before-write.ts): once per customer per run, before its first update. */
  private async proveBeforeWrite(): Promise<void> {
    if (this.served || this.datum.userIdType === 'LOGIN_ID') return;
    const prove = () => this.proveConfigured(undefined, 'configured', 'prove before the first write: ');
    await provedBeforeFirstWrite(this.t, this.customerId, prove);
  }

  /** An answered update of this customer, in the case's log (the run's log holds it too, harness/log/run-log.ts). */
  private logged(res: HttpResult): void {
    this.log.push(res);
  }

  /**
   * An update of this customer was served in this run, as the contact fold of the run's log says
   * (harness/state/contact-info.ts): its configured id (and number) are on record.
   */
  private get served(): boolean {
    return foldRunLog(this.t.run.get(RUN_LOG)).served(this.customerId);
  }

  /**
   * The configured values an update relies on being right: the customer id, and the configured
   * phone number when the update names it as oldPhoneNumber (harness/setup/proof.ts). None for a
   * customer addressed by its login id: a refusal of it is what OP10-USERIDTYPE-LOGIN-ID judges.
   */
  private relies(u: ContactUpdate): string[] {
    if (this.datum.userIdType === 'LOGIN_ID') return [];
    const out = [this.configKey('customerId')];
    // A phone update sent without the configured country code (not stated): a target that requires one refuses it.
    if (u.phone && countryCodeWithheld(this.t, this.datum)) out.push(this.configKey('countryCodeConfirmed'));
    const old = u.phone?.oldPhoneNumber;
    if (old !== undefined && sameNumber(old, this.original.phoneNumber) && samePhone(this.believed.phone, this.start))
      out.push(this.configKey('phoneNumber'));
    return out;
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
      ...onRecordNow({ t: this.t, s: this.s, datum: this.datum, start: this.start, key: this.key }).map(
        (p) => p.number,
      ),
    ]);
    this.numbersUsed.push(n);
    return n;
  }

  /**
   * The same objects as `u`, with the values the run knows are on record (the phone as old and new,
   * the configured e-mail and postal address), sent to another path than the documented one: a
   * request that changes nothing wherever it is served.
   */
  async sendUnchangedAt(path: string, u: ContactUpdate, label: string): Promise<HttpResult> {
    const p = this.believed.phone;
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
    this.logged(res);
    return res;
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
      if (e instanceof TransportError && !nothingSent(e)) this.mayHaveLanded(u);
      throw e;
    }
    this.logged(res);
    // The phone believed follows the updates the case holding the customer sent alone
    // (harness/state/contact-believed.ts).
    if (this.sole && res.logged) sentAlone(this.t, this.key, res.logged.x.index);
    if (res.status >= 400 && res.status < 500 && res.status !== 429) await this.proveConfigured(u, credentials);
    // A 500 (or another 5xx) on an update: it may have been applied before the target failed.
    if (is2xx(res.status) || res.status >= 500) this.mayHaveLanded(u);
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
    // Two phone changes accepted side by side: which landed last is unknown (the run's log says so:
    // harness/state/contact-believed.ts).
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    return settled.map((r) => (r as PromiseFulfilledResult<HttpResult>).value);
  }

  /** An update that was accepted, or may have landed, may have written the e-mail or postal address: the restore sets
   * it back. What it may have put on record of the phone is the run log's (harness/state/contact-believed.ts,
   * contact-candidates.ts). */
  private mayHaveLanded(u: ContactUpdate): void {
    if (u.emailAddress !== undefined) this.s.emailChanged = true;
    if (u.postalAddress !== undefined) this.s.postalChanged = true;
  }

  protected describe(p: Phone): string {
    return `${JSON.stringify(p.number)}${p.countryCode ? ` (country code ${p.countryCode})` : ''}`;
  }
}
