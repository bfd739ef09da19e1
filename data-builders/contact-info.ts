import type { Faker } from '@faker-js/faker';
import { contactInfoAuthHeaders, type CustomerData, type TargetConfig } from '../harness/config';
import { certainlyDifferent } from '../harness/phone-number';

export type ContactCredentials = 'configured' | 'none';

/**
 * Headers of a contact update. The spec shows none ("Authentication of the contact-info operations:
 * not shown"): the suite sends what the configuration names (credentials.contactInfoHeaders, else
 * the bearer token), and a JSON content type ("Bodies are JSON objects").
 */
export function contactHeaders(
  cfg: TargetConfig,
  credentials: ContactCredentials = 'configured',
): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    ...(credentials === 'configured' ? contactInfoAuthHeaders(cfg) : {}),
  };
}

export interface PhoneChange {
  /** Omitted only by the case that proves rule 2 ("oldPhoneNumber is required"). */
  oldPhoneNumber?: string;
  newPhoneNumber: string;
  /** The country code sent with each number; default the customer's configured countryCode ("" sends none). */
  oldCountryCode?: string;
  newCountryCode?: string;
}

/** What a contact update takes from the configured customer it is sent for. */
export type CustomerDatum = Pick<CustomerData, 'userIdType' | 'countryCode'>;

/** The phoneNumber object: old and new number, each with its country code (the customer's unless given) when there is
 * one. */
export function phoneNumberObject(customer: CustomerDatum, p: PhoneChange): Record<string, string> {
  const oldCc = p.oldCountryCode ?? customer.countryCode;
  const newCc = p.newCountryCode ?? customer.countryCode;
  const o: Record<string, string> = {};
  if (p.oldPhoneNumber !== undefined) {
    o.oldPhoneNumber = p.oldPhoneNumber;
    if (oldCc) o.oldCountryCode = oldCc;
  }
  o.newPhoneNumber = p.newPhoneNumber;
  if (newCc) o.newCountryCode = newCc;
  return o;
}

export interface ContactUpdate {
  phone?: PhoneChange;
  emailAddress?: string;
  postalAddress?: Record<string, string>;
}

/** A Contact update request for a configured customer: its userIdType (LOGIN_ID for one addressed by login id), and the
 * objects supplied. */
export function contactUpdateBody(customer: CustomerDatum, u: ContactUpdate): Record<string, unknown> {
  const body: Record<string, unknown> = { userIdType: customer.userIdType };
  if (u.phone) body.phoneNumber = phoneNumberObject(customer, u.phone);
  if (u.emailAddress !== undefined) body.email = { emailAddress: u.emailAddress };
  if (u.postalAddress) body.postalAddress = { ...u.postalAddress };
  return body;
}

/**
 * Another phone number shaped like the one on record (same length, same separators, same leading
 * "+"): every digit after the first three is drawn again, so a target that validates the format of
 * its numbers accepts it. Never one that `like` or a number in `avoid` may match
 * (harness/phone-number.ts: not the same digits written otherwise), so a target that compares only
 * digits refuses it as oldPhoneNumber too.
 */
export function otherPhoneNumber(f: Faker, like: string, avoid: readonly string[] = []): string {
  const digits = [...like].filter((c) => /\d/.test(c)).length;
  for (let attempt = 0; attempt < 50; attempt++) {
    let seen = 0;
    const candidate = [...like]
      .map((c) => {
        if (!/\d/.test(c)) return c;
        seen++;
        return seen <= Math.min(3, digits - 4) ? c : f.string.numeric(1);
      })
      .join('');
    if ([like, ...avoid].every((n) => certainlyDifferent(candidate, n))) return candidate;
  }
  return `${like}${f.string.numeric(2)}`;
}

/** An e-mail address a person recognises as the suite's (it names the run). */
export function testEmailAddress(f: Faker, runId: string): string {
  return `dbsi-conformance.${runId}.${f.string.alphanumeric({ length: 6, casing: 'lower' })}@example.com`;
}

/** A postal address with all six documented members. */
export function testPostalAddress(f: Faker, runId: string): Record<string, string> {
  return {
    address1: f.location.streetAddress(),
    address2: `dbsi-conformance ${runId}`,
    city: f.location.city(),
    state: f.location.state({ abbreviated: true }),
    postalCode: f.location.zipCode('#####'),
    country: 'US',
  };
}
