import { CREDENTIAL_SOURCES, type CredentialId } from '../credentials';
import type { Exchange } from '../model';

/**
 * Vary one thing (issue 31): a refusal of a request that relies on configured test data is blamed on
 * that data only where the evidence points at it. The target's error body is evidence: where it names
 * the value (a refresh token, an account, a customer, a phone number), the refusal is the setup's;
 * where it names only the form of the request the suite built from the spec (its media type, the JSON
 * body), and none of the values, the refusal is the target's: the failure stands, with a
 * `setup:` note naming every configured value it rests on. Where the body says neither, the evidence
 * cannot separate them: could not test, naming the key, the target's error first.
 */

/** What a target's error says when it names each configured value a request relies on. */
const VALUE_WORDS: Array<[RegExp, RegExp]> = [
  [/^testData\.revocation/, /refresh|grant|token|password|user.?name|credential|scope|revoked|expired/i],
  [/^testData\.transfer/, /account|amount|fund|balance|limit|holder|currency|insufficient/i],
  [/customerId$/, /customer|user|not.?found|unknown|no such/i],
  [/phoneNumber$/, /phone|number|on record|match/i],
];

/**
 * What a target's error says when it names the form of the request: its media type, its JSON. Not "a
 * header": a missing or wrong header may be a configured one (DBSI_CONTACT_INFO_HEADERS).
 */
const FORM_WORDS = /media.?type|content.?type|mime|form-urlencoded|\bjson\b|\bparse\b|syntax/i;

/** The statuses whose error body may tell a refusal of the request's form from one of its data. */
const FORM_STATUSES = new Set([400, 406, 415, 422]);

/** The target's error body, on one line, cut short: what the diagnosis shows first. */
export function errorExcerpt(e: Exchange): string {
  const body = (e.response?.body ?? '').replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ');
  return body.length > 160 ? `${body.slice(0, 159)}…` : body.trim();
}

/** Whether the target's error names the configured value `key` stands for. */
export function errorNamesValue(e: Exchange, key: string): boolean {
  const words = VALUE_WORDS.find(([k]) => k.test(key))?.[1];
  return words !== undefined && words.test(errorExcerpt(e));
}

/**
 * Whether the refusal is the target's by its own words: a status that judges the request's form, an
 * error that names that form and none of the values `keys` stand for.
 */
export function refusesTheForm(e: Exchange, keys: readonly string[]): boolean {
  const status = e.response?.status ?? 0;
  if (!FORM_STATUSES.has(status) || !FORM_WORDS.test(errorExcerpt(e))) return false;
  return !keys.some((k) => errorNamesValue(e, k));
}

/** "setup: this rests on …": every configured value the exchange rests on, for a failure that stands. */
export function restsOn(e: Exchange): string {
  const values = [
    ...(e.relies ?? []),
    ...(e.credentials ?? []).map((c) => CREDENTIAL_SOURCES[c as CredentialId]),
    ...(e.base ? [e.base] : []),
  ];
  return (
    `setup: judged as the target's (its error names the request's form, not a configured value); ` +
    `it rests on ${values.join(', ')}`
  );
}
