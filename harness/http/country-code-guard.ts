import type { CustomerData, TargetConfig } from '../config';
import type { SendOptions } from './send-options';

/**
 * No request sets a country code the run cannot read back (session 41). Rule 2 of operation 10 proves a phone number,
 * never its country code, and operation 11 (retrieval) is "not shown": a phoneNumber.newCountryCode sent to a target
 * other than the suite's own overwrites what is on record with the configuration's value. The drivers send one only
 * where the operator states the configured country code is on record (`countryCodeConfirmed` on that customer,
 * suites/contact-info/_country-code.ts); this is the client's last check, before the request leaves the machine.
 */

/** The words every skip and refusal of a country code uses; `key` is the statement that lets the suite send one. */
export function countryCodeSkipReason(key: string): string {
  return (
    'a country code change cannot be undone on a guess: rule 2 proves the phone number, not its country code, ' +
    'and the interface cannot read it back, so the suite sends no country code (a phone update names the ' +
    `numbers only); set ${key} to true once countryCode is confirmed to be the country code on record`
  );
}

/** The configuration key of the statement for the configured customer addressed by `id`, or undefined. */
export function countryCodeKey(config: TargetConfig, id: string): { key: string; datum: CustomerData } | undefined {
  const { customer, moreCustomers } = config.testData;
  if (customer?.customerId === id) return { key: 'testData.customer.countryCodeConfirmed', datum: customer };
  const i = (moreCustomers ?? []).findIndex((c) => c.customerId === id);
  return i < 0 ? undefined : { key: `testData.moreCustomers[${i}].countryCodeConfirmed`, datum: moreCustomers[i]! };
}

/** The newCountryCode a contact update carries (an object body, or one given as JSON text), if any. */
function newCountryCode(body: unknown): string | undefined {
  let b = body;
  if (typeof b === 'string') {
    try {
      b = JSON.parse(b);
    } catch {
      return undefined;
    }
  }
  const phone = b && typeof b === 'object' ? (b as { phoneNumber?: unknown }).phoneNumber : undefined;
  const cc = phone && typeof phone === 'object' ? (phone as { newCountryCode?: unknown }).newCountryCode : undefined;
  return typeof cc === 'string' && cc !== '' ? cc : undefined;
}

/**
 * Why this request may not leave the machine: a contact update that sets a country code on a target other than the
 * suite's own, for a customer whose configured country code nobody stated is on record. Undefined: it may.
 */
export function countryCodeRefusal(config: TargetConfig, o: SendOptions): string | undefined {
  if (config.ownTarget === true) return undefined;
  const contact = o.operation === 'updateContactInfo' || (o.operation === 'raw' && /contact-info/.test(o.path ?? ''));
  if (!contact || newCountryCode(o.body) === undefined) return undefined;
  const id = o.pathParams?.customerId ?? '';
  const found = countryCodeKey(config, id);
  if (found?.datum.countryCodeConfirmed === true) return undefined;
  return countryCodeSkipReason(found?.key ?? 'testData.customer.countryCodeConfirmed');
}
