/**
 * A configured customer's phone (number and country code), and the key under which the run knows it
 * (its lock, its state in _customer-on-record.ts, its leftover when a restore cannot confirm it).
 */

/** The one equality of phone numbers (harness/phone-number.ts); a configured countryCode "" is sent as none. */
export { samePhone, sameNumber, type Phone } from '../../harness/phone-number';

/** Why a case that finds the number unknown, and cannot confirm it, is could not test (never a MUST failure). */
export const UNKNOWN_AFTER_EARLIER_CASE = "the customer's phone number on record is unknown after an earlier case";

/** The key of a customer's phone number on one target (also the key of its leftover). */
export const phoneKey = (baseUrl: string, customerId: string): string => `contact-info phone|${baseUrl}|${customerId}`;
