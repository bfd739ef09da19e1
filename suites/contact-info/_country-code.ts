import type { CaseContext } from '../../harness/case';
import type { CustomerData } from '../../harness/config';
import { NotAllowedError } from '../../harness/http/client';
import { countryCodeKey, countryCodeSkipReason } from '../../harness/http/country-code-guard';

/**
 * The country code on record cannot be read back (session 41). Rule 2 proves the phone number ("oldPhoneNumber is
 * required and must match the phone number on record"), not its country code, and operation 11 is "not shown". A
 * phone update that carries newCountryCode writes it: on a target other than the suite's own, the suite sends a
 * country code only where the operator states the configured one is on record (`countryCodeConfirmed`, like
 * emailAndPostalConfirmed). Without it, a phone update names the numbers only ("Fields required beyond
 * oldPhoneNumber: not shown"), and a case that changes the country code is skipped, naming the key.
 */

/** The configured country code is the one on record: the operator said so, or the target is the suite's own. */
export function countryCodeKnown(t: Pick<CaseContext, 'config'>, datum: CustomerData): boolean {
  return t.config.ownTarget === true || datum.countryCodeConfirmed === true;
}

/**
 * The customer as the cases send for it: its configured country code where it is known, else none (every phone
 * update then carries no oldCountryCode and no newCountryCode: harness/data-builders' "" sends none).
 */
export function withKnownCountryCode(t: Pick<CaseContext, 'config'>, datum: CustomerData): CustomerData {
  return countryCodeKnown(t, datum) || datum.countryCode === '' ? datum : { ...datum, countryCode: '' };
}

/**
 * The customer has a configured country code the suite does not send (nobody stated it is on record): its phone updates
 * carry none, which a target that requires one refuses (the refusal then names the statement's key).
 */
export function countryCodeWithheld(t: Pick<CaseContext, 'config'>, sent: CustomerData): boolean {
  if (t.config.ownTarget === true || sent.countryCodeConfirmed === true) return false;
  const configured = countryCodeKey(t.config, sent.customerId)?.datum.countryCode ?? sent.countryCode;
  return configured !== '';
}

/** A case that would change the country code of a customer whose country code nobody confirmed is skipped. */
export function requireCountryCode(t: CaseContext, datum: CustomerData, key: string, path: string): void {
  // With the switch off the harness refuses every update anyway, naming the switch (harness/http/client.ts).
  if (countryCodeKnown(t, datum) || !t.config.allow.contactUpdate) return;
  throw new NotAllowedError('contactUpdate', 'PUT', path, countryCodeSkipReason(key));
}

/**
 * The country-code case needs a customer whose configured country code is known: where every configured one with a
 * country code is unconfirmed, it is skipped before anything leaves the machine, naming the first one's key.
 */
export function requireSomeCountryCode(t: CaseContext): void {
  const { customer, moreCustomers } = t.config.testData;
  const all = [customer, ...moreCustomers];
  if (all.some((d) => d.countryCode !== '' && countryCodeKnown(t, d))) return;
  const first = all.find((d) => d.countryCode !== '');
  if (!first) return;
  const key = countryCodeKey(t.config, first.customerId)?.key ?? 'testData.customer.countryCodeConfirmed';
  requireCountryCode(t, first, key, `/customers/${encodeURIComponent(first.customerId)}:contact-info`);
}
