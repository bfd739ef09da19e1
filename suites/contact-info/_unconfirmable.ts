import type { CaseContext } from '../../harness/case';
import type { CustomerData } from '../../harness/config';
import { NotAllowedError } from '../../harness/http/client';
import type { ContactUpdate } from '../../data-builders/contact-info';
import type { Phone } from './_phone-on-record';

/**
 * What the interface cannot read back (issue 30). Operation 11, which would retrieve the contact data on record,
 * is "not shown", and rule 2 proves only a phone number (an update naming it as oldPhoneNumber is accepted only
 * when it is on record). An e-mail or postal address update therefore overwrites what was there with no way to
 * know it, nor to put it back, except from the operator's own statement of the values on record.
 */

/** The words every report uses for an e-mail or postal address the run set back to the configured values. */
export const SET_TO_CONFIGURED = 'set to the configured values; the interface cannot confirm what was there before';

/** The configured values are on record: the operator said so (emailAndPostalConfirmed), or the target is the suite's
 * own. */
export function emailAndPostalKnown(t: CaseContext, datum: CustomerData): boolean {
  return t.config.ownTarget === true || datum.emailAndPostalConfirmed === true;
}

/**
 * A case (or a request) that would send an e-mail or postal address to a customer whose values on record nobody
 * confirmed is skipped before anything leaves the machine, naming the key to set.
 */
export function requireConfirmed(t: CaseContext, datum: CustomerData, key: string, path: string): void {
  // With the switch off the harness refuses every update anyway, naming the switch (harness/http/client.ts).
  if (emailAndPostalKnown(t, datum) || !t.config.allow.contactUpdate) return;
  throw new NotAllowedError(
    'contactUpdate',
    'PUT',
    path,
    'an e-mail or postal address update cannot be undone on a guess: the interface cannot read either back, so ' +
      'the suite could only set them to the configured values; set ' +
      `${key} to true once emailAddress and postalAddress are confirmed to be the values on record`,
  );
}

/**
 * For a case that sends an e-mail or postal address: the configured customers whose values are known, where there
 * are any (so that the case does not land on another customer and skip); else every customer (the case then skips,
 * naming the key).
 */
export function knownContactData(t: CaseContext): { which?: (c: CustomerData) => boolean } {
  const known = (c: CustomerData) =>
    emailAndPostalKnown(t, c) && c.emailAddress !== undefined && c.postalAddress !== undefined;
  const all = [t.config.testData.customer, ...t.config.testData.moreCustomers];
  return all.some(known) ? { which: known } : {};
}

/** Whether an update carries an e-mail or postal address. */
export const carriesEmailOrPostal = (u: ContactUpdate): boolean =>
  u.emailAddress !== undefined || u.postalAddress !== undefined;

/**
 * Listed with the leftovers, every time, on a target other than the suite's own: the e-mail or postal address
 * was set to the configured values, which only the operator's statement says were there before.
 */
export function listSetToConfigured(
  t: CaseContext,
  o: { key: string; what: string; value: unknown; confirmedBy: string },
): void {
  if (t.config.ownTarget) return;
  t.leftBehind({
    key: o.key,
    what: o.what,
    now: SET_TO_CONFIGURED,
    restore:
      `nothing if ${JSON.stringify(o.value)} was on record before the run (${o.confirmedBy} says so); ` +
      'else the value that was',
    why: 'the interface has no operation that reads it back (11. Retrieve existing contact data: not shown)',
    unconfirmable: true,
  });
}

/**
 * What the run knows of the configured phone number, for the restore advice: proven on record (an accepted update
 * named it as oldPhoneNumber in this run, rule 2), refused (never accepted, and the target refused it as
 * oldPhoneNumber when the run set it back: it may be stale), or unconfirmed (no answer said either way).
 */
export type ConfiguredPhone = 'proven' | 'refused' | 'unconfirmed';

/**
 * The advice for a phone number the restore could not confirm. Where the target refused the configured number and
 * never accepted it, setting it would overwrite the customer's real number with a stale one: the number on record
 * before the run is said to be unknown, and none is named. Where no answer said either way, the configured number
 * is named as configured, to check first.
 */
export function phoneAdvice(start: Phone, known: ConfiguredPhone, key: string, describe: (p: Phone) => string): string {
  if (known === 'proven') return `phoneNumber ${describe(start)}`;
  if (known === 'unconfirmed')
    return `phoneNumber ${describe(start)}, as configured in ${key}: no answer of this run confirmed it was on record`;
  return (
    `the number on record before the run is unknown: no update naming the configured number as oldPhoneNumber ` +
    `was accepted, so it may not be the one on record (check ${key}); set back the number the customer had ` +
    "before the run, from the institution's own records"
  );
}
