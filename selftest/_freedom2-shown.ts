import type { Exchange } from '../harness/model';

/**
 * What the exchanges of each variant of the second hold-out set of conformant choices (session 41,
 * reference-target/faults/freedom2-variants.ts) show of the choice it makes, for selftest/legitimate-variants.test.ts.
 */

const json = (x: Exchange): any => {
  try {
    return JSON.parse(x.response?.body ?? '');
  } catch {
    return undefined;
  }
};
const body = (x: Exchange) => x.response?.body ?? '';
const answered = (x: Exchange, op: string, status?: number) =>
  x.operation.startsWith(op) && x.response !== undefined && (status === undefined || x.response.status === status);
const DISCLOSURES = /(Institution|User)Disclosure/;
const some = (xs: Exchange[], op: RegExp, status: number, text?: RegExp) =>
  xs.some((x) => op.test(x.operation) && x.response?.status === status && (!text || text.test(body(x))));
const header = (x: Exchange, name: string) =>
  Object.entries(x.request.headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];

/** A record listed under a name other than the one its create sent for the same disclosure. */
function renamedInTheList(xs: Exchange[]): boolean {
  const sent = new Map<string, string>();
  for (const x of xs)
    if (answered(x, 'createUserDisclosure', 204)) {
      const id = header(x, 'institutiondisclosureid');
      const name = header(x, 'institutiondisclosurename');
      if (id && name) sent.set(String(id), String(name));
    }
  return xs.some(
    (x) =>
      answered(x, 'listUserDisclosures', 200) &&
      json(x)?.institutionUserDisclosures?.some(
        (r: any) =>
          sent.has(r.institutionDisclosureId) && sent.get(r.institutionDisclosureId) !== r.institutionDisclosureName,
      ),
  );
}

const lists = (xs: Exchange[]) =>
  xs.filter((x) => answered(x, 'listUserDisclosures', 200)).map((x) => json(x)?.institutionUserDisclosures ?? []);
const pretty = (xs: Exchange[]) => xs.some((x) => body(x).startsWith('{\n  ') && body(x).endsWith('}\n'));
const rateLimited = (xs: Exchange[], op: RegExp) => xs.some((x) => op.test(x.operation) && x.response?.status === 429);

export const SHOWN2: Record<string, (xs: Exchange[]) => boolean> = {
  'fr2-op5-record-cap': (xs) => some(xs, /^createUserDisclosure/, 422, /records per user/),
  'fr2-op4-canonical-names': renamedInTheList,
  'fr2-op4-accepted-only': (xs) =>
    lists(xs).some((l) => l.length > 0) &&
    lists(xs).every((l: any[]) => l.every((r) => r.institutionUserDisclosureStatus === 'ACCEPTED')),
  'fr2-op4-unknown-consumer-404': (xs) => some(xs, /^listUserDisclosures/, 404),
  'fr2-op6-cas-requires-id': (xs) => some(xs, /^changeUserDisclosure/, 400, /CAS_ID_REQUIRED/),
  'fr2-op5-timestamp-window': (xs) => some(xs, /^createUserDisclosure/, 400, /BAD_TIMESTAMP/),
  'fr2-disc-txid-reuse-409': (xs) => some(xs, DISCLOSURES, 409, /DUPLICATE_TRANSACTION/),
  'fr2-strict-query': (xs) => some(xs, DISCLOSURES, 400, /UNSUPPORTED_PARAMETER/),
  'fr2-name-cut-64': (xs) =>
    xs.some(
      (x) =>
        answered(x, 'createInstitutionDisclosure') &&
        /"institutionDisclosureName":"[^"]{65,}"/.test(x.request.body ?? '') &&
        json(x)?.institutionDisclosureName?.length === 64,
    ),
  'fr2-op3-name-collision-409': (xs) => some(xs, /InstitutionDisclosure/, 409, /DUPLICATE_NAME/),
  'fr2-rate-limit-429': (xs) => rateLimited(xs, DISCLOSURES),
  'fr2-read-503': (xs) => xs.some((x) => x.request.method === 'GET' && x.response?.status === 503),
  'fr2-json-pretty-unicode': pretty,
  'fr2-gateway-429': (xs) => rateLimited(xs, /^(revokeToken|createTransfer)/),
  'fr2-op8-iso-durations': (xs) => xs.some((x) => answered(x, 'revokeToken', 200) && json(x)?.expires_in === 'PT1H'),
  'fr2-op9-daily-limit': (xs) => some(xs, /^createTransfer/, 400, /DAILY_LIMIT_EXCEEDED/),
  'fr2-op9-pending-status': (xs) => xs.some((x) => answered(x, 'createTransfer', 200) && json(x)?.status === 'PENDING'),
  'fr2-op9-rounds-amounts': (xs) => xs.some((x) => answered(x, 'createTransfer', 200) && json(x)?.fee?.amount === 0),
  'fr2-op9-schedule-dow-0-6': (xs) => some(xs, /^createTransfer/, 400, /INVALID_SCHEDULE/),
  'fr2-op10-postal-formats': (xs) => some(xs, /^updateContactInfo/, 400, /invalid_postal_code/),
  'fr2-op10-field-lengths': (xs) => some(xs, /^updateContactInfo/, 422, /Too long/),
  'fr2-op1-data-shapes': (xs) =>
    xs.some((x) => answered(x, 'listInstitutionDisclosures', 200) && /data:text\/html;base64/.test(body(x))),
  'fr2-op4-masked-accounts': (xs) =>
    xs.some((x) => answered(x, 'listUserDisclosures', 200) && /"accountId":"\*{4}/.test(body(x))),
  'fr2-op8-with-auth-record': (xs) =>
    xs.some((x) => answered(x, 'revokeToken', 200) && json(x)?.status === 'SECONDARY_AUTHENTICATION_REQUIRED'),
  'fr2-profile-api-gateway': (xs) => pretty(xs) && rateLimited(xs, DISCLOSURES),
  'fr2-profile-strict-core': (xs) => some(xs, DISCLOSURES, 400, /UNSUPPORTED_PARAMETER/),
  'fr2-profile-normaliser': (xs) => xs.some((x) => answered(x, 'revokeToken', 200) && json(x)?.expires_in === 'PT1H'),
  'fr2-profile-consumer-portal': (xs) => some(xs, /^listUserDisclosures/, 404),
};

/** The set's variants the suite's requests never reach, or whose choice leaves no mark in an exchange. */
export const UNSEEN2 = [
  // A delay leaves no mark in an exchange (and none may be asserted: docs/busy-machine.md).
  'fr2-slow-answers',
  // The suite sends no HEAD or OPTIONS, and the word Basic as the spec writes it.
  'fr2-head-options',
  'fr2-op8-scheme-any-case',
];

/** The set's variants whose choice is an unlisted value, an INFO note: judged without --strict. */
export const NOTED2 = ['fr2-op9-pending-status', 'fr2-profile-normaliser', 'fr2-op1-data-shapes'];
