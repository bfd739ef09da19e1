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
const some = (xs: Exchange[], op: RegExp, status: number, text?: RegExp) =>
  xs.some((x) => op.test(x.operation) && x.response?.status === status && (!text || text.test(body(x))));

const lists = (xs: Exchange[]) =>
  xs.filter((x) => answered(x, 'listUserDisclosures', 200)).map((x) => json(x)?.institutionUserDisclosures ?? []);

/** A created disclosure answered with the name sent cut to 64 characters. */
const nameCut = (xs: Exchange[]) =>
  xs.some(
    (x) =>
      answered(x, 'createInstitutionDisclosure') &&
      /"institutionDisclosureName":"[^"]{65,}"/.test(x.request.body ?? '') &&
      json(x)?.institutionDisclosureName?.length === 64,
  );

export const SHOWN2: Record<string, (xs: Exchange[]) => boolean> = {
  'fr2-op4-accepted-only': (xs) =>
    lists(xs).some((l) => l.length > 0) &&
    lists(xs).every((l: any[]) => l.every((r) => r.institutionUserDisclosureStatus === 'ACCEPTED')),
  'fr2-op4-unknown-consumer-404': (xs) => some(xs, /^listUserDisclosures/, 404),
  'fr2-name-cut-64': nameCut,
  'fr2-op3-name-collision-409': (xs) => some(xs, /InstitutionDisclosure/, 409, /DUPLICATE_NAME/),
  'fr2-op8-iso-durations': (xs) => xs.some((x) => answered(x, 'revokeToken', 200) && json(x)?.expires_in === 'PT1H'),
  'fr2-op9-daily-limit': (xs) => some(xs, /^createTransfer/, 400, /DAILY_LIMIT_EXCEEDED/),
  'fr2-op9-pending-status': (xs) => xs.some((x) => answered(x, 'createTransfer', 200) && json(x)?.status === 'PENDING'),
  'fr2-op9-rounds-amounts': (xs) => xs.some((x) => answered(x, 'createTransfer', 200) && json(x)?.fee?.amount === 0),
  'fr2-op9-schedule-dow-0-6': (xs) => some(xs, /^createTransfer/, 400, /INVALID_SCHEDULE/),
  'fr2-op1-data-shapes': (xs) =>
    xs.some((x) => answered(x, 'listInstitutionDisclosures', 200) && /data:text\/html;base64/.test(body(x))),
  'fr2-op4-masked-accounts': (xs) =>
    xs.some((x) => answered(x, 'listUserDisclosures', 200) && /"accountId":"\*{4}/.test(body(x))),
  'fr2-op8-with-auth-record': (xs) =>
    xs.some((x) => answered(x, 'revokeToken', 200) && json(x)?.status === 'SECONDARY_AUTHENTICATION_REQUIRED'),
  // Its fr-transport member's header (the layout of a JSON body is redacted away: harness/redact.ts).
  'fr2-profile-api-gateway': (xs) => xs.some((x) => x.response?.headers['x-request-id'] !== undefined),
  'fr2-profile-normaliser': nameCut,
  'fr2-profile-consumer-portal': (xs) => some(xs, /^listUserDisclosures/, 404),
};

/** The set's variants the suite's requests never reach, or whose choice leaves no mark in an exchange. */
export const UNSEEN2 = [
  // The suite's user holds fewer than 8 records at once in a run of the disclosures; it sends the disclosure's own
  // name, the InstitutionDisclosureId header, a recent ISO 8601 date-time, a new TransactionId each time and no query
  // parameter an operation does not document.
  'fr2-op5-record-cap',
  'fr2-op4-canonical-names',
  'fr2-op6-cas-requires-id',
  'fr2-op5-timestamp-window',
  'fr2-disc-txid-reuse-409',
  'fr2-strict-query',
  'fr2-profile-strict-core',
  // The layout of a JSON body is redacted away in an exchange (harness/redact.ts writes it anew).
  'fr2-json-pretty-unicode',
  // A refusal repeated and served leaves the served exchange only (harness/http/flight.ts).
  'fr2-rate-limit-429',
  'fr2-read-503',
  'fr2-gateway-429',
  // The postal codes and lengths the suite sends fit the formats and limits chosen.
  'fr2-op10-postal-formats',
  'fr2-op10-field-lengths',
  // A delay leaves no mark in an exchange (and none may be asserted: docs/busy-machine.md).
  'fr2-slow-answers',
  // The suite sends no HEAD or OPTIONS, and the word Basic as the spec writes it.
  'fr2-head-options',
  'fr2-op8-scheme-any-case',
];

/** The set's variants whose choice is an unlisted value, an INFO note: judged without --strict. */
export const NOTED2 = ['fr2-op9-pending-status', 'fr2-profile-normaliser', 'fr2-op1-data-shapes'];
