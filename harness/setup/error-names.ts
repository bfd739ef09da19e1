import { CREDENTIAL_SOURCES, type CredentialId } from '../credentials';
import type { Exchange } from '../model';
import { isMemberName } from './group-members';

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
  [/countryCodeConfirmed$/, /country.?code/i],
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

/** Whether the target's error names the configured value `key` stands for: by its words, or quoting the value. */
export function errorNamesValue(e: Exchange, key: string): boolean {
  return namesByWords(e, key) || namesOwnMember(e, key) || quotesValue(e, key);
}

/** The error says the words of the value `key` stands for (a refresh token, an account, a customer, a phone). */
function namesByWords(e: Exchange, key: string): boolean {
  return VALUE_WORDS.find(([k]) => k.test(key))?.[1].test(errorExcerpt(e)) ?? false;
}

/** The error names the member the key stands for by its full name (testData.accountType: AccountType; session 41). */
function namesOwnMember(e: Exchange, key: string): boolean {
  const own = key.split(' ')[0]!.split('.').pop()!.toLowerCase();
  return own.length >= 6 && new RegExp(`(^|[^a-z0-9_.])${own}($|[^a-z0-9_])`).test(errorExcerpt(e).toLowerCase());
}

/**
 * Whether the target's error quotes the very value the request carried for `key` (an account id, a customer id), apart
 * from an echo of the request's path: the target's own word on that value (session 40).
 */
export function quotesValue(e: Exchange, key: string): boolean {
  const error = withoutPath(e);
  return valuesOf(e, key).some((v) => v.length >= 3 && error.includes(v));
}

/** Whether the refusal is the target's by its own words (the request's form, or a member none of `keys` stands for). */
export function refusesTheForm(e: Exchange, keys: readonly string[]): boolean {
  return ownWords(e, keys) !== undefined;
}

/**
 * What the target's error names instead of the configured values `keys` stand for: the form of the request the suite
 * built from the spec (its media type, its JSON), or a member of the request that none of them stands for (a
 * paymentOption, a disclosure): the refusal is the target's. Undefined where it names one of the values, or neither.
 */
export function ownWords(e: Exchange, keys: readonly string[]): string | undefined {
  if (keys.some((k) => namesByWords(e, k) || quotesValue(e, k))) return undefined;
  const status = e.response?.status ?? 0;
  if (FORM_STATUSES.has(status) && FORM_WORDS.test(errorExcerpt(e))) return "the request's form";
  // Another member by its full name (a list of required members naming the key's too is about the form); then, where
  // the error names none of the keys' own members, another member by a telling word of its name.
  const member =
    otherMember(e, keys, true) ?? (keys.some((k) => namesOwnMember(e, k)) ? undefined : otherMember(e, keys));
  return member === undefined ? undefined : `"${member}", a member of the request`;
}

/** Header names every request carries, which name no value of the operation's own. */
const CARRIED = /^(authorization|accept|content-type|content-length|host|user-agent|connection|transactionid)$/i;
/**
 * Words of member names too common to say which member an error is about: a generic refusal ("payment declined", "the
 * transaction could not be processed") may be about any configured value, so only the member's full name counts.
 */
const COMMON = new RegExp(
  '^(institution|value|valid|invalid|request|status|number|string|update|datetime|' +
    'payment|transfer|transaction|option|message|process)$',
  'i',
);

/** The members of a request that carry each configured value. */
const KEY_MEMBERS: Array<[RegExp, RegExp]> = [
  [/^testData\.accountId$/, /^accountid$/i],
  [/customerId$/, /customerid|userid/i],
  [/phoneNumber$/, /phonenumber|countrycode/i],
];

/** A member of the request (body, query or a documented header) the error names, that none of `keys` stands for. */
function otherMember(e: Exchange, keys: readonly string[], fullName = false): string | undefined {
  const error = errorExcerpt(e).toLowerCase();
  const wordOfKey = (word: string) => keys.some((k) => VALUE_WORDS.find(([r]) => r.test(k))?.[1].test(word));
  // A key's own member: the last segment of its name (testData.institutionCustomerId: InstitutionCustomerId).
  const last = (k: string) => (k.split(' ')[0]!.split('.').pop() ?? '').toLowerCase();
  const memberOfKey = (name: string) =>
    isMemberName(name, keys) ||
    keys.some((k) => last(k) === name.toLowerCase() || KEY_MEMBERS.find(([r]) => r.test(k))?.[1].test(name));
  for (const name of memberNames(e)) {
    const words = name.split(/(?<=[a-z])(?=[A-Z])|[_\-.]/).map((w) => w.toLowerCase());
    if (memberOfKey(name) || words.some(wordOfKey)) continue;
    const telling = words.filter((w) => w.length >= 5 && !COMMON.test(w));
    if (error.includes(name.toLowerCase()) || (!fullName && telling.some((w) => error.includes(w)))) return name;
  }
  return undefined;
}

/** The names of the request's body members (at any depth), query parameters and headers of its own. */
function memberNames(e: Exchange): string[] {
  const names = new Set<string>();
  const walk = (v: unknown, depth: number) => {
    if (depth > 4 || v === null || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (!Array.isArray(v)) names.add(k);
      walk(x, depth + 1);
    }
  };
  try {
    walk(JSON.parse(e.request.body ?? ''), 0);
  } catch {
    // no JSON body
  }
  try {
    for (const k of new URL(e.request.url).searchParams.keys()) names.add(k);
  } catch {
    // keep what the body gave
  }
  for (const h of Object.keys(e.request.headers ?? {})) if (!CARRIED.test(h)) names.add(h);
  return [...names];
}

/** The values the request carried for a configured key, where the request shows them in clear. */
function valuesOf(e: Exchange, key: string): string[] {
  const body = parsedBody(e);
  const header = (name: string) =>
    Object.entries(e.request.headers ?? {}).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
  if (key === 'testData.accountId') return strings(header('AccountId'), body.accountId);
  if (key === 'testData.accountType') return strings(queryOf(e, 'AccountType'));
  if (key === 'testData.institutionCustomerId') return strings(queryOf(e, 'InstitutionCustomerId'));
  if (key.startsWith('testData.transfer')) return strings(body.fromAccountId, body.toAccountId);
  if (/customerId$/.test(key)) {
    const m = /\/customers\/([^/:]+)/.exec(pathOf(e));
    return m ? strings(m[1], safeDecode(m[1]!)) : [];
  }
  if (/phoneNumber$/.test(key))
    return strings((body.phoneNumber as Record<string, unknown> | undefined)?.oldPhoneNumber);
  return [];
}

function queryOf(e: Exchange, name: string): string | undefined {
  try {
    return new URL(e.request.url).searchParams.get(name) ?? undefined;
  } catch {
    return undefined;
  }
}

function strings(...v: unknown[]): string[] {
  return v.filter((x): x is string => typeof x === 'string');
}

function parsedBody(e: Exchange): Record<string, unknown> {
  try {
    const b = JSON.parse(e.request.body ?? '') as unknown;
    return b && typeof b === 'object' ? (b as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function pathOf(e: Exchange): string {
  try {
    return new URL(e.request.url).pathname;
  } catch {
    return e.request.url;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The error body without the request's URL or path (raw or decoded): a 404 page that echoes the path names nothing. */
export function withoutPath(e: Exchange): string {
  let text = e.response?.body ?? '';
  for (const p of [e.request.url, pathOf(e), safeDecode(pathOf(e))]) text = text.split(p).join(' ');
  return text;
}

/**
 * "setup: this rests on …": every configured value the exchange rests on, for a failure that stands. `why`: why it is
 * judged as the target's, where not by the error's own words (a value the run proved).
 */
export function restsOn(e: Exchange, why?: string): string {
  const words = ownWords(e, e.relies ?? []) ?? 'what another request of the operation got the same error for';
  const values = [
    ...(e.relies ?? []),
    ...(e.credentials ?? []).map((c) => CREDENTIAL_SOURCES[c as CredentialId]),
    ...(e.base ? [e.base] : []),
  ];
  return (
    `setup: judged as the target's (${why ?? `its error names ${words}, not a configured value`}); ` +
    `it rests on ${values.join(', ')}`
  );
}
