import type { Exchange } from '../model';

/**
 * The configured values behind a key a request relies on (session 41). A driver names what a request relies on in
 * groups (testData.transfer, testData.revocation) or by one value (a customer's id, its phone number); the request
 * carries several configured values under it, each as one member. Where the target's error names a member (its full
 * name) or quotes the very value the request carried for it, that member's key is what to check, not the group
 * (docs/diagnosis.md, "A hold-out set (session 41)": a currency code in lower case, two accounts swapped, a revocation
 * institutionId with a leading zero, a country code not on record).
 */
export interface Member {
  /** The member's configuration key (testData.transfer.currencyCode), with its variable where one stands for it. */
  key: string;
  /** The names an error may call it by (lower case, whole). */
  names: string[];
  /** The values the request carried for it, in clear (a secret is redacted: never quoted). */
  values: (e: Exchange) => string[];
}

const body = (e: Exchange): Record<string, unknown> => {
  try {
    const b = JSON.parse(e.request.body ?? '') as unknown;
    return b && typeof b === 'object' ? (b as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};
const header = (e: Exchange, name: string): unknown =>
  Object.entries(e.request.headers ?? {}).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
const texts = (...v: unknown[]): string[] => v.flatMap((x) => (typeof x === 'string' ? [x] : []));
const member = (key: string, names: string[], values: (e: Exchange) => string[]): Member => ({ key, names, values });
const inBody = (prefix: string, name: string, also: string[] = []): Member =>
  member(`${prefix}.${name}`, [name.toLowerCase(), ...also], (e) => texts(body(e)[name]));
const amountOf = (e: Exchange) => (body(e).amount ?? {}) as Record<string, unknown>;
const phoneOf = (e: Exchange) => (body(e).phoneNumber ?? {}) as Record<string, unknown>;

/** A transfer's configured members: the accounts and holders, the currency and the amount. */
function transferMembers(): Member[] {
  const p = 'testData.transfer';
  return [
    ...['fromAccountId', 'toAccountId', 'fromAccountHolderId', 'toAccountHolderId'].map((n) => inBody(p, n)),
    member(`${p}.currencyCode`, ['currencycode', 'currency code'], (e) => texts(amountOf(e).currencyCode)),
    // The amount by its value only: "amount" names the Money object too.
    member(`${p}.amount`, [], (e) => {
      const a = amountOf(e).amount;
      return typeof a === 'number' && String(a).length >= 3 ? [String(a)] : [];
    }),
  ];
}

/** The Token request body's configured members, and the institutionId header revocation carries. */
function revocationMembers(): Member[] {
  const p = 'testData.revocation';
  return [
    member(`${p}.institutionId`, ['institutionid'], (e) => texts(header(e, 'institutionId'))),
    inBody(p, 'grant_type', ['grant type', 'granttype']),
    inBody(p, 'username', ['user name']),
    member(`${p}.password (DBSI_REVOCATION_PASSWORD)`, ['password'], () => []),
    inBody(p, 'scopes', ['scope']),
    member(
      `${p}.refresh_token (DBSI_REVOCATION_REFRESH_TOKEN)`,
      ['refresh_token', 'refresh token', 'refreshtoken'],
      () => [],
    ),
  ];
}

/**
 * A customer's configured members an update carries beside its id: the phone number and its country code (behind the
 * customer id and the phone number), userIdType (behind the customer id only: it says how the id is read).
 */
function customerMembers(customer: string, ofId: boolean): Member[] {
  return [
    member(`${customer}.phoneNumber`, ['oldphonenumber'], (e) => texts(phoneOf(e).oldPhoneNumber)),
    member(`${customer}.countryCode`, ['oldcountrycode', 'countrycode', 'country code'], (e) =>
      texts(phoneOf(e).oldCountryCode).filter((v) => v.length >= 2),
    ),
    ...(ofId ? [member(`${customer}.userIdType`, ['useridtype'], (e) => texts(body(e).userIdType))] : []),
  ];
}

/** The members behind a relied key; [] for a key that stands for one value only. */
export function membersOf(key: string): Member[] {
  if (/^testData\.transfer\b/.test(key)) return transferMembers();
  if (/^testData\.revocation\b/.test(key)) return revocationMembers();
  const customer = /^(testData\.(?:customer|moreCustomers\[\d+\]))\.(customerId|phoneNumber)$/.exec(key);
  return customer ? customerMembers(customer[1]!, customer[2] === 'customerId') : [];
}

/** A key that stands for a group of configured values (no value of its own). */
export const isGroup = (key: string): boolean => /^testData\.(transfer|revocation)\b/.test(key);

/** Where a group's key and keys of its members are named together, the group left out: the members are finer. */
export function finestKeys(keys: readonly string[]): string[] {
  return keys.filter((k) => !isGroup(k) || !keys.some((x) => x !== k && x.startsWith(`${k.split(' ')[0]}.`)));
}

/** Whether a member name is one of the members behind any of these keys. */
export function isMemberName(name: string, keys: readonly string[]): boolean {
  return keys.some((k) => membersOf(k).some((m) => m.names.includes(name.toLowerCase())));
}

/**
 * The members behind `keys` whose value the request carried the error quotes (`error`: the target's error, without the
 * request's path): the target's own word on that value. Where it quotes none, those it names by their full name, among
 * the members the request carried a value for (an error about a member the suite broke on purpose, a number where a
 * string is documented, names no configured value). None where it quotes them all (an echo of the request). Each once.
 */
export function membersNamed(e: Exchange, keys: readonly string[], error: string): Member[] {
  const text = error.toLowerCase();
  const word = (n: string) => new RegExp(`(^|[^a-z0-9_.])${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^a-z0-9_])`);
  const members = [...new Map(keys.flatMap(membersOf).map((m) => [m.key, m])).values()];
  const carried = members.filter((m) => m.values(e).length > 0);
  const quoted = carried.filter((m) => m.values(e).some((v) => v.length >= 2 && error.includes(v)));
  // An error that quotes every value the request carried echoes the request: it points at none of them.
  const echo = quoted.length > 2 && quoted.length === carried.length;
  if (echo) return [];
  if (quoted.length) return quoted;
  const secret = (m: Member) => m.key.includes('(DBSI_');
  return members.filter((m) => (secret(m) || m.values(e).length > 0) && m.names.some((n) => word(n).test(text)));
}
