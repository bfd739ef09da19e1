/**
 * What the run knows about a configured customer's phone number between cases. A case that could
 * not confirm, in its clean-up, that the number is back to the configured one leaves the customer
 * here, with every number it may have put on record; the next case on that customer must not start
 * from the configured number: it reconciles first (harness: Customer.forPhoneChanges), or is
 * "could not test" with the reason UNKNOWN_AFTER_EARLIER_CASE. Never a MUST failure.
 * The state lives in the process (every case of a run runs in one worker).
 */

export interface Phone {
  number: string;
  /** "" where the configuration gives none (then none is sent). */
  countryCode: string;
}

export const samePhone = (a: Phone, b: Phone): boolean => a.number === b.number && a.countryCode === b.countryCode;

export const UNKNOWN_AFTER_EARLIER_CASE = "the customer's phone number on record is unknown after an earlier case";

const unknown = new Map<string, { mayBe: Phone[]; why: string }>();

/** The key of a customer's phone number on one target (also the key of its leftover). */
export const phoneKey = (baseUrl: string, customerId: string): string => `contact-info phone|${baseUrl}|${customerId}`;

/** A case could not confirm the number: it may be any of `mayBe`. */
export function markPhoneUnknown(key: string, mayBe: Phone[], why: string): void {
  const before = unknown.get(key)?.mayBe ?? [];
  const all = [...mayBe, ...before].filter((p, i, a) => a.findIndex((q) => samePhone(p, q)) === i);
  unknown.set(key, { mayBe: all, why });
}

/** The number is confirmed to be the configured one. */
export function markPhoneKnown(key: string): void {
  unknown.delete(key);
}

/** Set when an earlier case left the number unknown: what it may be. */
export function phoneUnknownAfterEarlierCase(key: string): { mayBe: Phone[]; why: string } | undefined {
  return unknown.get(key);
}
