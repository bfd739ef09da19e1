import { faultsOf, type FaultDef } from './types';

/*
 * The second hold-out set of conformant choices (session 41, docs/hold-out.md, "A second hold-out set of
 * conformant choices (session 41)"): behaviours a vendor may choose where the spec leaves room, listed from the spec
 * alone before the first set was read, each quoting the words that allow it, and four vendor profiles that make
 * several at once (reference-target/areas/freedom2.ts). Each breaks nothing; `strict` where no SHOULD or INFO note
 * is expected either.
 */

const disc = faultsOf('disclosures');
const auth = faultsOf('authentication');
const money = faultsOf('money-movement');
const contact = faultsOf('contact-info');
const V = { variant: true, strict: true } as const;
const LIMITS = '"Rate limits, size limits, time-outs and token lifetimes: not shown."';
const DISC_ERRORS = '"Errors of the disclosures operations: not shown."';
const CONTACT_ERRORS = '"Errors of the contact update operation: not shown."';
const TRANSFER_CONDITIONS = '"The conditions that lead to each status […]: not shown."';

export const FREEDOM2_VARIANTS: FaultDef[] = [
  disc(
    'fr2-op5-record-cap',
    'Variant: a user holds at most 8 acceptance records; a create of a ninth is refused (422, problem+json). ' +
      `${LIMITS} ${DISC_ERRORS}`,
    [],
    V,
  ),
  disc(
    'fr2-op4-canonical-names',
    'Variant: the list of operation 4 gives each record the name its disclosure has on record now (by ' +
      'institutionDisclosureId), not the name the create carried. institutionDisclosureName is the "Name of the ' +
      'disclosure"; that the name sent is kept as sent is not said.',
    [],
    V,
  ),
  disc(
    'fr2-op4-accepted-only',
    'Variant: the list of operation 4 shows only the records whose status is ACCEPTED. "4. List the disclosures ' +
      'accepted by a user".',
    [],
    V,
  ),
  disc(
    'fr2-op4-unknown-consumer-404',
    'Variant: the list of operation 4 for a consumer with nothing on record answers 404 (with a body), not an ' +
      `empty list. ${DISC_ERRORS}`,
    [],
    V,
  ),
  disc(
    'fr2-op6-cas-requires-id',
    'Variant: every change of a user disclosure is CAS-related: one without the InstitutionDisclosureId header is ' +
      'refused (400). "InstitutionDisclosureId (required only when the update is CAS-related; what CAS-related ' +
      'means: not shown)".',
    [],
    V,
  ),
  disc(
    'fr2-op5-timestamp-window',
    'Variant: a create of a user disclosure whose InstitutionUserDisclosureStatusUpdateDateTime does not read as a ' +
      'date-time within two days of now is refused (400). "InstitutionUserDisclosureStatusUpdateDateTime (a ' +
      `date-time stamp; its format: not shown)"; ${DISC_ERRORS}`,
    [],
    V,
  ),
  disc(
    'fr2-disc-txid-reuse-409',
    'Variant: a write of the disclosures operations whose TransactionId was already used is refused as a replay ' +
      `(409). TransactionId is "UUID string, a unique identifier for this request"; ${DISC_ERRORS}`,
    [],
    V,
  ),
  disc(
    'fr2-strict-query',
    'Variant: the disclosures operations refuse (400) a query parameter they do not document: any on operations ' +
      '1-3 and 5, any but InstitutionConsumerId on 4, InstitutionCustomerId on 6, InstitutionCustomerId and ' +
      `AccountType on 7. Operation 1: "No body, no query parameter."; ${DISC_ERRORS}`,
    [],
    V,
  ),
  disc(
    'fr2-name-cut-64',
    'Variant: create and change an institution disclosure keep the name cut to its first 64 characters (answered ' +
      `and listed so). ${LIMITS}`,
    [],
    V,
  ),
  disc(
    'fr2-op3-name-collision-409',
    'Variant: create and change an institution disclosure refuse (409) a name another disclosure of the ' +
      `institution has. ${DISC_ERRORS}`,
    [],
    V,
  ),
  disc(
    'fr2-rate-limit-429',
    'Variant: every 47th request of the disclosures and contact operations is answered 429 with Retry-After: 1, ' +
      `not processed; its repeat is served. ${LIMITS}`,
    [],
    V,
  ),
  disc(
    'fr2-read-503',
    'Variant: every 31st read is answered 503 with Retry-After: 1, not processed; its repeat is served. ' +
      `${LIMITS} ${DISC_ERRORS}`,
    [],
    V,
  ),
  disc('fr2-slow-answers', `Variant: every answer of every area comes 5 to 50 ms late. ${LIMITS}`, [], V),
  disc(
    'fr2-head-options',
    'Variant: every path also answers HEAD (beside a GET) and OPTIONS (204 with Allow). "Operations of the other ' +
      'areas: not shown."; HTTP methods beyond those documented are not spoken of.',
    [],
    V,
  ),
  disc(
    'fr2-json-pretty-unicode',
    'Variant: every JSON answer of every area is indented, every character past ASCII written as a \\u escape, with ' +
      'a closing newline. "Bodies are JSON objects."',
    [],
    V,
  ),
  auth(
    'fr2-gateway-429',
    'Variant: every 23rd request of revocation and transfers is answered 429 with Retry-After: 1 and a code and ' +
      `message body, not processed; its repeat is served. ${LIMITS}`,
    [],
    V,
  ),
  disc(
    'fr2-op1-data-shapes',
    'Variant: institutionDisclosureData is a URL of another shape for some disclosures (a port, an encoded path, a ' +
      'query and a fragment; a data: URL), with institutionDisclosureDataType "PDF" or "HTML". "carries a URL"; ' +
      '"Data types other than URL: not shown." (an unlisted value is an INFO note, so not under --strict)',
    [],
    { variant: true },
  ),
  disc(
    'fr2-op4-masked-accounts',
    "Variant: the list of operation 4 shows each record's accountId masked to its last four characters " +
      '("****0200"). Operation 4 documents "an array of objects of institutionId, institutionUserId, ' +
      'institutionUserDisclosureStatus, institutionDisclosureName"; accountId is extra there.',
    [],
    V,
  ),
  auth(
    'fr2-op8-with-auth-record',
    'Variant: revoke a token answers the Token record with the members of the Authentication record beside it ' +
      '(userId, status SECONDARY_AUTHENTICATION_REQUIRED, phoneNumbers …). "Authentication record (also returned ' +
      'with the revocation operation; its role: not shown)".',
    [],
    V,
  ),
  auth(
    'fr2-op8-iso-durations',
    'Variant: the Token record says expires_in "PT1H" and refresh_token_expires_in "P30D" (ISO 8601 durations). ' +
      '"Units and values of expires_in and refresh_token_expires_in: not shown."',
    [],
    V,
  ),
  auth(
    'fr2-op8-scheme-any-case',
    'Variant: revoke a token reads the word Basic in any letter case (RFC 7235: a scheme is case-insensitive); the ' +
      'credentials after it are compared exactly. "the word Basic, a space, then the base64 encoding …" is what a ' +
      'client sends.',
    [],
    V,
  ),
  money(
    'fr2-op9-daily-limit',
    'Variant: one account may send at most 2,000,000 a day; a transfer past it is refused (400, code and message). ' +
      `${TRANSFER_CONDITIONS} ${LIMITS}`,
    [],
    V,
  ),
  money(
    'fr2-op9-pending-status',
    'Variant: every transfer is answered with status PENDING. "Transfer status: One value, SUCCESS, is shown. ' +
      'Other values and transitions: not shown." (an unlisted value is an INFO note, so not under --strict)',
    [],
    { variant: true },
  ),
  money(
    'fr2-op9-rounds-amounts',
    'Variant: the Transfer answered gives the amount rounded to the cent and a fee of 0 where none was charged. ' +
      '"Response 200: Transfer object"; "Which transfer fields are required: not shown."',
    [],
    V,
  ),
  money(
    'fr2-op9-schedule-dow-0-6',
    'Variant: dayOfWeek is numbered 0 (Sunday) to 6 (Saturday); another is refused (400). "the numbering of ' +
      `dayOfWeek: not shown"; ${TRANSFER_CONDITIONS}`,
    [],
    V,
  ),
  contact(
    'fr2-op10-postal-formats',
    'Variant: a postal code not written as its country writes them (US, DE, FR, IN, AU, CA, GB, NL, JP) is ' +
      `refused (400). "Fields required beyond oldPhoneNumber: not shown"; ${CONTACT_ERRORS}`,
    [],
    V,
  ),
  contact(
    'fr2-op10-field-lengths',
    'Variant: address lines, city and state longer than 35 characters, a postal code longer than 10 and an e-mail ' +
      `address longer than 64 are refused (422, problem+json). ${LIMITS} ${CONTACT_ERRORS}`,
    [],
    V,
  ),
  disc(
    'fr2-profile-api-gateway',
    'Variant, a vendor profile: an API gateway in front (fr2-rate-limit-429, fr2-gateway-429, fr2-read-503, ' +
      'fr2-slow-answers, fr2-head-options, fr2-json-pretty-unicode, fr2-op8-scheme-any-case, fr-transport).',
    [],
    V,
  ),
  disc(
    'fr2-profile-strict-core',
    'Variant, a vendor profile: a core banking system that validates everything (fr2-strict-query, ' +
      'fr2-disc-txid-reuse-409, fr2-op6-cas-requires-id, fr2-op5-timestamp-window, fr2-op3-name-collision-409, ' +
      'fr2-op5-record-cap, fr2-op9-schedule-dow-0-6, fr2-op9-daily-limit, fr2-op10-postal-formats, ' +
      'fr2-op10-field-lengths).',
    [],
    V,
  ),
  disc(
    'fr2-profile-normaliser',
    'Variant, a vendor profile: a system that keeps values its own way (fr2-name-cut-64, fr2-op4-canonical-names, ' +
      'fr2-op9-rounds-amounts, fr2-op8-iso-durations, fr2-op9-pending-status, fr2-op1-data-shapes, ' +
      'fr2-op8-with-auth-record); INFO notes expected.',
    [],
    { variant: true },
  ),
  disc(
    'fr2-profile-consumer-portal',
    'Variant, a vendor profile: a consumer portal (fr2-op4-accepted-only, fr2-op4-unknown-consumer-404, ' +
      'fr2-op4-canonical-names, fr2-op5-record-cap, fr2-op4-masked-accounts, fr-lists-shuffled).',
    [],
    V,
  ),
];
