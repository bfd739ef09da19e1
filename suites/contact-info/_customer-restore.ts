import type { ContactUpdate } from '../../data-builders/contact-info';
import type { CaseContext } from '../../harness/case';
import type { CustomerData } from '../../harness/config';
import { TransportError, type HttpResult } from '../../harness/http/client';
import { RUN_LOG } from '../../harness/log/run-log';
import { foldRunLog } from '../../harness/state/contact-info';
import { candidatesOnRecord } from '../../harness/state/contact-candidates';
import type { BelievedOnRecord } from '../../harness/state/contact-believed';
import { believedNow, phoneBelieved, type OnRecord } from './_customer-on-record';
import { samePhone, type Phone } from './_phone-on-record';
import { emailAndPostalKnown, listSetToConfigured, phoneAdvice } from './_unconfirmable';
import { isEmbeddedTarget } from '../../harness/embedded-target';

/**
 * How the case that holds a customer puts it back (customer.ts): the phone number reconciled and confirmed through
 * rule 2 (an update naming the configured number as oldPhoneNumber is accepted only when it is on record), the
 * e-mail and postal address set back to the configured ones. What it cannot confirm is listed as a leftover with
 * the values to restore by hand (docs/what-the-suite-changes.md).
 */

export const is2xx = (status: number): boolean => status >= 200 && status < 300;

/** Why a phone number was not confirmed though every update was answered: the configured one was refused as old. */
export const REFUSED_AFTER_SETTING_BACK = 'an update naming it as oldPhoneNumber was refused after setting it back';

/** What the restore needs of the customer (customer.ts hands it over). */
export interface RestoreScope {
  t: CaseContext;
  s: OnRecord;
  datum: CustomerData;
  /** The configured phone. */
  start: Phone;
  original: { emailAddress?: string; postalAddress?: Record<string, string> };
  /** The run's log proves the number believed on record (CustomerUpdates.proven). */
  proven(): boolean;
  /** The phone believed on record and its doubt (CustomerUpdates.believed); `except`: as if that exchange had not been
   * sent (the one whose refusal the caller weighs). */
  believed(except?: number): BelievedOnRecord;
  /** The key of the customer's phone (its lock, its leftover). */
  key: string;
  who: string;
  update(u: ContactUpdate, label: string): Promise<HttpResult>;
  describe(p: Phone): string;
  configKey(field: 'phoneNumber' | 'emailAndPostalConfirmed' | 'countryCodeConfirmed'): string;
}

/** The phone named as old and `to` as new number. */
const phoneFrom = (from: Phone, to: Phone) => ({
  oldPhoneNumber: from.number,
  oldCountryCode: from.countryCode,
  newPhoneNumber: to.number,
  newCountryCode: to.countryCode,
});

/**
 * Every phone the run may have put on record, newest first, "" last (after a clear): the one the run believes, then
 * the ones the run's log says may be on record (harness/state/contact-candidates.ts: the explorer's updates are in
 * it too), and "" where the phone is in doubt and an update without it was accepted, or may have landed, since the
 * last confirmation (a target that clears the number on such an update). With the configured one where an update
 * may have put it back (candidates filters it out).
 */
export function onRecordNow(c: Pick<RestoreScope, 't' | 's' | 'datum' | 'start' | 'key'>): Phone[] {
  const { s, start } = c;
  const logged = candidatesOnRecord(c.t.run.get(RUN_LOG), c.datum.customerId, start);
  const believed = believedNow(c.t, c.key, c.datum.customerId, start);
  const cleared = !phoneBelieved(s, believed) && logged.otherSinceConfirmed;
  const all = [believed.phone, ...logged.phones, ...(cleared ? [{ number: '', countryCode: start.countryCode }] : [])];
  return [...all.filter((p) => p.number !== ''), ...all.filter((p) => p.number === '')].filter(
    (p, i, a) => a.findIndex((q) => samePhone(p, q)) === i,
  );
}

/** Every phone other than the configured one the run may have put on record, newest first, "" last (onRecordNow). */
function candidates(c: RestoreScope): Phone[] {
  return onRecordNow(c).filter((p) => !samePhone(p, c.start));
}

/**
 * Set the phone back to the configured one and confirm it (rule 2 as the probe): where the run believes it is the
 * configured one, confirm first; else from the phone the run believes on record, then from every other it may have
 * put there (newest first; a refusal as a mismatch only says "not this one"), then confirm with an update naming
 * the configured number as old and new (accepted only when it is on record). Where the phone-alone form does not
 * get there, the same is tried with the three objects together. A confirmed "already as found" is success: the run
 * then knows the configured phone is on record. Transport failures that outlast the clean-up retry are thrown.
 */
export async function reconcilePhone(c: RestoreScope): Promise<boolean> {
  const { s, start, original } = c;
  const together =
    original.emailAddress !== undefined && original.postalAddress !== undefined && emailAndPostalKnown(c.t, c.datum);
  const confirm = async () =>
    is2xx((await c.update({ phone: phoneFrom(start, start) }, 'confirm the phone number on record')).status);
  // Where the run believes the configured number is on record (also when an update meanwhile may have
  // moved it, e.g. requests to refuse cut off by an interruption), confirming first is enough if accepted.
  let confirmed = samePhone(c.believed().phone, start) && (await confirm());
  for (const form of together ? (['alone', 'together'] as const) : (['alone'] as const)) {
    if (confirmed) break;
    for (const n of candidates(c)) {
      const phone = phoneFrom(n, start);
      const u: ContactUpdate =
        form === 'alone'
          ? { phone }
          : { phone, emailAddress: original.emailAddress, postalAddress: original.postalAddress };
      const how = form === 'alone' ? 'alone' : 'with the e-mail and postal address';
      if (is2xx((await c.update(u, `restore the phone number from ${c.describe(n)} (${how})`)).status)) break;
    }
    confirmed = await confirm();
  }
  // Confirmed: the run's log shows it (the confirmation, sent alone), so it is believed and proven
  // (CustomerUpdates.believed, proven).
  if (confirmed) s.unknown = undefined;
  return confirmed;
}

/**
 * The phone part of the restore: reconcile and confirm where the run may have changed it. What it cannot confirm is
 * listed as a leftover (with every number it may be) and marked unknown, so the next case on the customer
 * reconciles first.
 */
export async function restorePhone(c: RestoreScope, problems: string[]): Promise<void> {
  const { s, start } = c;
  // Nothing changed, or confirmed since the last change (an accepted update naming it as old and new, e.g. a
  // control) and the log suspects no clear since (a read-back refused after an update without the phone, which a
  // case that fails on it does not stay to note): nothing to do.
  const logged = candidatesOnRecord(c.t.run.get(RUN_LOG), c.datum.customerId, start);
  const cleared = logged.mayBeCleared;
  if (logged.acceptsAnyOld) unprovenBeforeRun(c);
  const b = c.believed();
  if (phoneBelieved(s, b) && samePhone(b.phone, start) && (candidates(c).length === 0 || (c.proven() && !cleared)))
    return;
  let confirmed = false;
  let why = REFUSED_AFTER_SETTING_BACK;
  try {
    confirmed = await reconcilePhone(c);
  } catch (e) {
    if (!(e instanceof TransportError)) throw e;
    why = e.message;
  }
  if (confirmed) return c.t.putBack(c.key);
  // Oldest first, "" last: what the leftover lists.
  const listed = candidates(c);
  const oldest = [...listed.filter((p) => p.number !== '').reverse(), ...listed.filter((p) => p.number === '')];
  // The target answered and refused the configured number, which no update of this run got accepted: maybe stale.
  const proven = foldRunLog(c.t.run.get(RUN_LOG)).acceptedAsOld(c.datum.customerId, start.number);
  const known = proven ? 'proven' : why === REFUSED_AFTER_SETTING_BACK ? 'refused' : 'unconfirmed';
  s.unknown = why;
  problems.push(`could not confirm that the phone number is back to ${c.describe(start)}: ${why}`);
  c.t.leftBehind({
    key: c.key,
    what: `phone number of ${c.who}`,
    now: `unknown: ${[...oldest, ...(known === 'refused' ? [] : [start])].map((p) => c.describe(p)).join(' or ')}`,
    restore: phoneAdvice(start, known, c.configKey('phoneNumber'), (p) => c.describe(p)),
    why,
  });
}

/**
 * A target the log shows accepting an oldPhoneNumber that is not on record (rule 2 not held) accepts any: no update
 * of the run proved the configured number was on record, so the run's first phone update (its control, naming the
 * configured number as old and new) may have replaced the customer's real number with the configured one, and no
 * restore can tell. Listed, with its own key (no later confirmation puts it back), on a target the suite does not own
 * (session 40's safety hold-out, row C14).
 */
function unprovenBeforeRun(c: RestoreScope): void {
  if (c.t.config.ownTarget) return;
  const configured = c.describe(c.start);
  c.t.leftBehind({
    key: `${c.key}|before the run`,
    what: `phone number of ${c.who}`,
    now: `${configured} or another number the run set, where the target stored it`,
    restore:
      `the number on record before the run is unknown: this target accepted an oldPhoneNumber that was not on ` +
      `record, so no answer proved that ${configured} (${c.configKey('phoneNumber')}) was; if it was not, set ` +
      "back the number the customer had before the run, from the institution's own records",
    why: 'the target accepts any oldPhoneNumber (rule 2 not held): an accepted update proves no number on record',
  });
}

/**
 * Whether an update of the customer that was accepted, or may have landed (no answer, a 5xx), sent a newCountryCode.
 * Rule 2 proves the number, not the country code: a phone update carries one only where the operator states it
 * (countryCodeConfirmed, _country-code.ts; session 41), which no answer can confirm. Listed as set to the configured
 * value, every time, as an e-mail is (session 40's safety hold-out, row C2).
 */
function countryCodeWritten(c: RestoreScope): boolean {
  return c.t.run
    .get(RUN_LOG)
    .withUnanswered()
    .some((s) => {
      if (s.mapped.operation !== 'updateContactInfo' || s.mapped.pathParams.customerId !== c.datum.customerId)
        return false;
      if (s.x.status >= 400 && s.x.status < 500) return false;
      try {
        const cc = (JSON.parse(s.x.requestBody ?? '') as { phoneNumber?: { newCountryCode?: unknown } }).phoneNumber;
        return typeof cc?.newCountryCode === 'string' && cc.newCountryCode !== '';
      } catch {
        return false;
      }
    });
}

/**
 * Put back the values on record at the start: the phone number (restorePhone), then the e-mail and postal address
 * (restoreOther). What could not be put back is listed as a leftover with the values to restore by hand.
 */
export async function restore(c: RestoreScope): Promise<void> {
  const problems: string[] = [];
  await restorePhone(c, problems);
  const other = c.s.emailChanged || c.s.postalChanged;
  await restoreOther(c, problems);
  // A target the log shows clearing the number on an update without it may have cleared it again: the phone once
  // more, where the log suspects that (else restorePhone sends nothing).
  if (other && problems.length === 0) await restorePhone(c, problems);
  if (countryCodeWritten(c)) {
    // Sent only with countryCodeConfirmed (_country-code.ts): set back to the stated value, listed every time.
    const key = c.configKey('countryCodeConfirmed');
    const what = `country code of ${c.who}`;
    const at = `contact-info country code|${c.t.config.baseUrl}|${c.datum.customerId}|set`;
    listSetToConfigured(c.t, { key: at, what, value: c.start.countryCode, confirmedBy: key });
  }
  if (problems.length) throw new Error(problems.join('; '));
}

/**
 * The e-mail and postal address, each alone and, where a target refuses that, both together (rule 1 lets a target
 * be served either way; the restore must not depend on one). Each alone first: a target that clears the phone number
 * on an update without it (a fault) would undo the phone's restore.
 */
async function restoreOther(c: RestoreScope, problems: string[]): Promise<void> {
  const { s, original } = c;
  const email = s.emailChanged && original.emailAddress !== undefined;
  const postal = s.postalChanged && original.postalAddress !== undefined;
  let emailBack = !email;
  let postalBack = !postal;
  let why = 'the target refused the update that sets it back';
  const attempt = async (u: ContactUpdate, label: string) => {
    try {
      return is2xx((await c.update(u, label)).status);
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
      why = e.message;
      return false;
    }
  };
  if (email) emailBack = await attempt({ emailAddress: original.emailAddress }, 'restore the e-mail address');
  if (postal) postalBack = await attempt({ postalAddress: original.postalAddress }, 'restore the postal address');
  const both = { emailAddress: original.emailAddress, postalAddress: original.postalAddress };
  const bothKnown = both.emailAddress !== undefined && both.postalAddress !== undefined;
  if ((!emailBack || !postalBack) && bothKnown && emailAndPostalKnown(c.t, c.datum)) {
    if (await attempt(both, 'restore the e-mail and postal address together')) emailBack = postalBack = true;
  }
  // Back, or listed as a leftover: either way nothing is left for a later case to restore.
  s.emailChanged = false;
  s.postalChanged = false;
  if (email) otherOutcome(c, 'email', emailBack, why, problems);
  if (postal) otherOutcome(c, 'postal', postalBack, why, problems);
}

/** An e-mail or postal address the restore (or a case's read-back) wrote: listed as set to the configured values, or as
 * a leftover. */
export function otherOutcome(
  c: RestoreScope,
  which: 'email' | 'postal',
  back: boolean,
  why: string,
  problems: string[],
) {
  const email = which === 'email';
  const key = `contact-info ${which}|${c.t.config.baseUrl}|${c.datum.customerId}`;
  const what = `${email ? 'e-mail address' : 'postal address'} of ${c.who}`;
  const value = email ? c.original.emailAddress : c.original.postalAddress;
  if (back) {
    c.t.putBack(key);
    listSetToConfigured(c.t, { key: `${key}|set`, what, value, confirmedBy: c.configKey('emailAndPostalConfirmed') });
    return;
  }
  problems.push(`the ${email ? 'e-mail' : 'postal'} address could not be set back`);
  c.t.leftBehind({
    key,
    what,
    // Only the suite's own target gets test values (_values-sent.ts): another one was sent the configured ones.
    now: !isEmbeddedTarget(c.t.config)
      ? `the configured value, the only one the run sent, or the one it had: nothing reads it back`
      : email
        ? 'a dbsi-conformance test address (dbsi-conformance.<run>.…@example.com)'
        : 'a dbsi-conformance test address (address2 "dbsi-conformance <run>")',
    restore: `${email ? 'emailAddress' : 'postalAddress'} ${JSON.stringify(value)}`,
    why,
  });
}
