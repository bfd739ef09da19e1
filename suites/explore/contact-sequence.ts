import {
  contactHeaders,
  contactUpdateBody,
  otherPhoneNumber,
  testEmailAddress,
  testPostalAddress,
  type ContactUpdate,
  type PhoneChange,
} from '../../data-builders/contact-info';
import type { CaseContext } from '../../harness/case';
import type { CustomerData } from '../../harness/config';
import { TransportError, type HttpResult } from '../../harness/http/client';
import { RUN_LOG } from '../../harness/log/run-log';
import type { Seen } from '../../harness/rules/exchange';
import { ContactInfoState, foldContactInfo, type PhoneOnRecord } from '../../harness/state/contact-info';
import { sameNumber } from '../../harness/phone-number';
import type { Sender } from './sequence';
import { StopSequence } from './sequence';

/**
 * One explored sequence of contact updates (operation 10): the requests the commands send, the log the rules
 * judge, the numbered lines a report shows, and the state fold (harness/state/contact-info.ts) the commands
 * choose from. There is no read operation: rule 2 is the read-back. Every sequence starts by naming the number
 * found as old and new number (accepted only if it is on record), and ends by setting back what it changed and
 * naming the number found once more: that last update, which changes nothing, proves the restore.
 */

export interface ExploredCustomer {
  datum: CustomerData;
  /** The phone on record when the exploration began (confirmed by the case's control update). */
  found: PhoneOnRecord;
}

export interface ContactGround {
  t: CaseContext;
  customers: ExploredCustomer[];
  /** Whether the e-mail and postal address may be written (the embedded target, each configured to restore). */
  other: boolean;
}

export type To = 'new' | 'same';
/** Country codes: the ones on record, none sent, or a new number with another country code. */
export type Codes = 'with' | 'without' | 'other';
/** An oldPhoneNumber that is not on record: the previous one, near variants of it, another customer's, blank. */
export const STALE = ['previous', 'last-digit', 'shorter', 'longer', 'other-customer', 'blank'] as const;
export type Stale = (typeof STALE)[number];
export type Other = 'email' | 'postal' | 'both';

/** What a clean-up could not set back for customer k: the number found not confirmed (why; which numbers may be on
 * record is the run log's, harness/state/contact-candidates.ts), the e-mail or postal address not set back. */
export interface Unconfirmed {
  k: number;
  phone?: string;
  emailChanged?: boolean;
  postalChanged?: boolean;
}

const ok2xx = (status: number) => status >= 200 && status < 300;

export const customerName = (k: number): string => `customer ${String.fromCharCode(65 + k)}`;

/** Another country code than `cc` (a second one a target may know). */
const otherCode = (cc: string): string => (cc === '44' ? '1' : '44');

export class ContactSequence {
  readonly log: Seen[] = [];
  readonly results: HttpResult[] = [];
  readonly lines: string[] = [];
  readonly state = new ContactInfoState();
  /** Answers to requests whose outcome the spec leaves open (no country codes sent: required fields not shown). */
  readonly openAnswers: HttpResult[] = [];
  /** What the clean-up could not set back, per customer. */
  readonly unconfirmed: Unconfirmed[] = [];
  private readonly used: Array<Set<string>>;
  private readonly touched = new Set<number>();
  /** The last exchange of the run's log before this sequence began: what its customers got after it is this
   * sequence's (it holds them alone), the requests without an answer included. */
  private readonly before: number;
  private cleaning = false;
  /** The target answered 429 or 5xx (why): the sequence ends, and no other starts. */
  unsteady?: string;

  constructor(
    readonly ground: ContactGround,
    private readonly sender: Sender,
    private readonly fails: (log: readonly Seen[]) => boolean = () => false,
  ) {
    this.used = ground.customers.map((c) => new Set([c.found.number, c.datum.phoneNumber]));
    for (const c of ground.customers) this.state.found(c.datum.customerId, c.found);
    this.before = this.runLog().reduce((m, e) => Math.max(m, e.x.index), -1);
  }

  /** The run's whole log, the requests that got no answer included (harness/log/run-log.ts). */
  private runLog(): Seen[] {
    return this.ground.t.run.get(RUN_LOG).withUnanswered();
  }

  private id = (k: number) => this.ground.customers[k]!.datum.customerId;

  /** The phone the log says is on record for customer k. */
  phone(k: number): Readonly<PhoneOnRecord> | undefined {
    return this.state.phone(this.id(k));
  }

  private async send(k: number, line: string, u: ContactUpdate, open = false): Promise<HttpResult> {
    const { t, customers } = this.ground;
    // Sent and not answered (a timeout, a 503 after it was applied): the sequence's log holds no entry, the run's
    // holds it apart (it may have landed: otherWritten reads it).
    const res = await this.sender({
      operation: 'updateContactInfo',
      pathParams: { customerId: this.id(k) },
      headers: contactHeaders(t.config),
      body: contactUpdateBody(customers[k]!.datum, u),
      label: `explore: ${line}`,
    });
    this.results.push(res);
    if (open) this.openAnswers.push(res);
    if (res.logged) {
      const s: Seen = { ...res.logged, keepsAuthorization: true, ...(open ? { authority: undefined } : {}) };
      this.log.push(s);
      this.state.add(s);
    }
    this.lines.push(`${this.lines.length + 1}. ${customerName(k)}: ${line} → ${res.status}`);
    // A 429 or 5xx: what happened is unknown, and an unsteady target ends the exploration (after the clean-up).
    if (res.status === 429 || res.status >= 500) this.unsteady ??= `answered ${res.status}`;
    if (this.cleaning) return res;
    if (this.unsteady !== undefined || this.fails(this.log)) throw new StopSequence();
    return res;
  }

  private newNumber(k: number): string {
    const n = otherPhoneNumber(this.ground.t.faker, this.ground.customers[k]!.found.number, [...this.used[k]!]);
    this.used[k]!.add(n);
    return n;
  }

  /** The number found, named as old and new number: accepted only where it is on record (changes nothing). */
  async begin(): Promise<boolean> {
    let ok = true;
    for (const [k, c] of this.ground.customers.entries()) {
      const res = await this.send(k, `start: the number found ${c.found.number} as old and new`, {
        phone: this.keep(c.found),
      });
      ok &&= res.status >= 200 && res.status < 300;
    }
    return ok;
  }

  private keep = (p: PhoneOnRecord): PhoneChange => ({
    oldPhoneNumber: p.number,
    oldCountryCode: p.countryCode,
    newPhoneNumber: p.number,
    newCountryCode: p.countryCode,
  });

  /** A phone change from the number on record (to a new number or the same), with or without country codes. */
  private change(k: number, to: To, codes: Codes): { p: PhoneChange; shown: string } {
    const on = this.phone(k)!;
    const number = to === 'new' ? this.newNumber(k) : on.number;
    const cc = codes === 'other' ? otherCode(on.countryCode) : codes === 'without' ? '' : on.countryCode;
    const p: PhoneChange = {
      oldPhoneNumber: on.number,
      oldCountryCode: codes === 'without' ? '' : on.countryCode,
      newPhoneNumber: number,
      newCountryCode: cc,
    };
    const ccShown = codes === 'without' ? ' (no country codes)' : codes === 'other' ? ` (country code ${cc})` : '';
    return { p, shown: `${on.number} to ${to === 'new' ? number : 'the same number'}${ccShown}` };
  }

  async phoneAlone(k: number, to: To, codes: Codes): Promise<void> {
    this.touched.add(k);
    const { p, shown } = this.change(k, to, codes);
    await this.send(k, `phone ${shown}`, { phone: p }, codes === 'without');
  }

  /**
   * The phone number with the e-mail address, the postal address, or both (rule 3: all three together), with the
   * country code on record or (`codes` 'other') another one. Rule 1 updates what is supplied: each pair is a request
   * of its own, read back like any phone change (the next update names it, with its country code).
   */
  async phoneWith(k: number, to: To, with_: Other, codes: 'with' | 'other' = 'with'): Promise<void> {
    this.touched.add(k);
    const { p, shown } = this.change(k, to, codes);
    const { t } = this.ground;
    const what = with_ === 'both' ? 'all three: phone' : 'phone';
    const others = with_ === 'both' ? 'e-mail, postal address' : with_ === 'email' ? 'e-mail' : 'postal address';
    await this.send(k, `${what} ${shown}, ${others}`, {
      phone: p,
      ...(with_ !== 'postal' ? { emailAddress: testEmailAddress(t.faker, t.settings.runId) } : {}),
      ...(with_ !== 'email' ? { postalAddress: testPostalAddress(t.faker, t.settings.runId) } : {}),
    });
  }

  /** The e-mail or postal address may have been written by this sequence: the run's log shows an update of it that was
   * not refused since the sequence began (one without an answer included). */
  private otherWritten(k: number): boolean {
    return foldContactInfo(this.runLog().filter((e) => e.x.index > this.before)).otherWritten(this.id(k));
  }

  /** The e-mail address, the postal address, or both, without a phoneNumber object (the number must stay). */
  async other(k: number, what: Other): Promise<void> {
    this.touched.add(k);
    const { t } = this.ground;
    await this.send(k, what === 'both' ? 'e-mail and postal address' : `${what === 'email' ? 'e-mail' : 'postal'}`, {
      ...(what !== 'postal' ? { emailAddress: testEmailAddress(t.faker, t.settings.runId) } : {}),
      ...(what !== 'email' ? { postalAddress: testPostalAddress(t.faker, t.settings.runId) } : {}),
    });
  }

  /** The oldPhoneNumber a stale command names, where there is one. */
  staleNumber(k: number, how: Stale): string | undefined {
    const on = this.phone(k)?.number;
    if (on === undefined) return undefined;
    const bump = (d: string) => String((Number(d) + 1) % 10);
    const near =
      how === 'previous'
        ? this.state.previous(this.id(k))
        : how === 'last-digit'
          ? on.slice(0, -1) + bump(on.slice(-1).replace(/\D/, '0'))
          : how === 'shorter'
            ? on.slice(0, -1)
            : how === 'longer'
              ? `${on}0`
              : how === 'other-customer'
                ? this.ground.customers.map((_, j) => (j === k ? undefined : this.phone(j)?.number)).find(Boolean)
                : '';
    return near === undefined || sameNumber(near, on) ? undefined : near;
  }

  /** A phone change naming a number not on record as oldPhoneNumber: refused, and nothing changes. */
  async stale(k: number, how: Stale, otherCountry = false): Promise<void> {
    this.touched.add(k);
    const on = this.phone(k)!;
    const old = this.staleNumber(k, how)!;
    // With another new country code too: a check of oldPhoneNumber skipped on that branch lets it through.
    const p: PhoneChange = {
      oldPhoneNumber: old,
      oldCountryCode: on.countryCode,
      newPhoneNumber: this.newNumber(k),
      newCountryCode: otherCountry ? otherCode(on.countryCode) : on.countryCode,
    };
    const cc = otherCountry ? ` (country code ${p.newCountryCode})` : '';
    await this.send(k, `phone from ${JSON.stringify(old)} (${how}, not on record) to ${p.newPhoneNumber}${cc}`, {
      phone: p,
    });
  }

  /**
   * The end of every sequence, per customer it touched: the e-mail and postal address set back (each alone, else
   * both together), the number found set back from the one on record (where that is refused: from every number the
   * sequence used, and "" after an update without the phone, which a faulty target may clear it with), and the
   * number found named as old and new number: accepted, it proves the restore. What no update confirmed is listed
   * in `unconfirmed`.
   */
  async cleanUp(): Promise<void> {
    this.cleaning = true;
    for (const k of [...this.touched].sort()) {
      try {
        await this.cleanUpCustomer(k);
      } catch (e) {
        if (!(e instanceof TransportError)) throw e;
        // No answer: anything the sequence wrote may be on record.
        const other = this.otherWritten(k);
        const phone = `the clean-up got no answer (${e.message})`;
        this.unconfirmed.push({ k, phone, emailChanged: other, postalChanged: other });
        this.unsteady ??= `gave no answer (${e.message})`;
      }
    }
  }

  private async cleanUpCustomer(k: number): Promise<void> {
    const ok = (r: HttpResult) => ok2xx(r.status);
    const c = this.ground.customers[k]!;
    const other = this.otherWritten(k);
    const left: Unconfirmed = { k };
    if (other) Object.assign(left, await this.otherBack(k));
    const back = (from: PhoneOnRecord, why: string) =>
      this.send(k, `clean-up: phone ${JSON.stringify(from.number)} back to ${c.found.number}${why}`, {
        phone: { ...this.keep(c.found), oldPhoneNumber: from.number, oldCountryCode: from.countryCode },
      });
    // Confirmed, or refused; a 429 or 5xx is asked again (a few times: the clean-up is bounded).
    const confirm = async () => {
      for (let n = 0; n < 3; n++) {
        const res = await this.send(k, `clean-up: confirm ${c.found.number} (as old and new)`, {
          phone: this.keep(c.found),
        });
        if (res.status !== 429 && res.status < 500) return ok(res);
      }
      return false;
    };
    const on = this.phone(k);
    if (on && !sameNumber(on.number, c.found.number)) await back(on, '');
    let confirmed = await confirm();
    if (!confirmed) {
      // Not where the log says (a faulty target): from each number the sequence used, then confirm again.
      const codes = [...new Set([c.found.countryCode, on?.countryCode ?? c.found.countryCode])];
      const numbers = [...this.used[k]!, ...(other ? [''] : [])].filter((n) => !sameNumber(n, c.found.number));
      for (const [number, countryCode] of numbers.flatMap((n) => codes.map((cc) => [n, cc])))
        if (ok(await back({ number: number!, countryCode: countryCode! }, ' (not where the log says)'))) break;
      confirmed = await confirm();
    }
    if (!confirmed) left.phone = `the clean-up could not confirm ${c.found.number} as old and new number`;
    if (!confirmed || left.emailChanged || left.postalChanged) this.unconfirmed.push(left);
  }

  /** The configured e-mail and postal address set back, each alone, else together; what was not set back. */
  private async otherBack(k: number): Promise<Pick<Unconfirmed, 'emailChanged' | 'postalChanged'>> {
    const d = this.ground.customers[k]!.datum;
    const ok = async (line: string, u: ContactUpdate) =>
      ok2xx((await this.send(k, `clean-up: set the ${line} back`, u)).status);
    let email = d.emailAddress === undefined || (await ok('e-mail', { emailAddress: d.emailAddress }));
    let postal = d.postalAddress === undefined || (await ok('postal address', { postalAddress: d.postalAddress }));
    if (!(email && postal) && d.emailAddress !== undefined && d.postalAddress !== undefined)
      email = postal = await ok('e-mail and postal address', {
        emailAddress: d.emailAddress,
        postalAddress: d.postalAddress,
      });
    return { emailChanged: !email, postalChanged: !postal };
  }
}
