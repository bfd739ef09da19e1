import { faultsOf, type FaultDef } from './types';

/*
 * The fourth hold-out set (session 40, docs/hold-out.md, "A hold-out set of conformant choices (session 40)"):
 * behaviours a vendor may choose where the spec leaves room, written from the spec alone, each quoting the words
 * that allow it, and three vendor profiles that make several at once (reference-target/areas/freedom.ts). Each
 * breaks nothing; `strict` where no SHOULD or INFO note is expected either.
 */

const disc = faultsOf('disclosures');
const auth = faultsOf('authentication');
const money = faultsOf('money-movement');
const contact = faultsOf('contact-info');
const V = { variant: true, strict: true } as const;

export const FREEDOM_VARIANTS: FaultDef[] = [
  disc(
    'fr-lists-shuffled',
    'Variant: every list of operations 1 and 4 comes in a fresh random order. The spec says nothing of the order ' +
      'of institutionDisclosures or institutionUserDisclosures ("an array of …").',
    [],
    V,
  ),
  disc(
    'fr-gets-203',
    'Variant: the lists of operations 1 and 4 answer 203. "The status code of the successful responses of the ' +
      'GET operations […]: not shown."',
    [],
    V,
  ),
  disc(
    'fr-op2-202',
    'Variant: create an institution disclosure answers 202 with the whole record and a Location header. "The ' +
      'status code of the successful responses of […] create/change institution disclosure: not shown."',
    [],
    V,
  ),
  disc(
    'fr-transport',
    'Variant: every answer (every area) with a body is sent chunked, without Content-Length, and every answer ' +
      'closes its connection and carries Cache-Control, Pragma, Vary, ETag and X-Request-Id. The spec says ' +
      'only "Bodies are JSON objects": framing, connections and caching are not spoken of.',
    [],
    V,
  ),
  disc(
    'fr-disc-strict-common-headers',
    'Variant: the disclosures operations refuse (400) a TransactionId that is not a UUID, or a request without ' +
      'callingAppId, before they look at anything else. "Disclosures: headers sent with every operation": ' +
      'TransactionId "UUID string"; "Errors of the disclosures operations: not shown."',
    [],
    V,
  ),
  disc(
    'fr-disc-errors-html',
    'Variant: the disclosures operations refuse as a web server does: 401 with a WWW-Authenticate challenge and ' +
      'no body, every other refusal an HTML page. "Errors of the disclosures operations: not shown."',
    [],
    V,
  ),
  disc(
    'fr-user-status-values',
    'Variant: create and change a user disclosure take only the two status values shown, in any letter case, kept ' +
      'in capitals; another value is refused (400). "Values shown: ACCEPTED, NOT_ACCEPTED"; "Other status values: ' +
      'not shown"; the header "for example Accepted".',
    [],
    V,
  ),
  disc(
    'fr-user-empty-names-refused',
    'Variant: create, change and delete of a user disclosure refuse (400) an empty institutionDisclosureName. ' +
      '"Errors of the disclosures operations: not shown."',
    [],
    V,
  ),
  disc(
    'fr-op7-account-type-mandatory',
    'Variant: every disclosure of the FI is a multi-statement one: a delete without the AccountType query ' +
      'parameter is refused (400). "AccountType (a valid account type of the platform; mandatory for ' +
      'multi-statement disclosures)".',
    [],
    V,
  ),
  disc(
    'fr-op6-op7-customer-mandatory',
    'Variant: every user is a business banking one: a change or delete without InstitutionCustomerId is refused ' +
      '(400). "InstitutionCustomerId (mandatory for business banking requests)".',
    [],
    V,
  ),
  auth(
    'fr-op8-refresh-token-required',
    'Variant: a revocation whose body has no refresh_token (or an empty one) is refused (400, the token error ' +
      'record). "Which body fields are required: not shown."',
    [],
    V,
  ),
  auth(
    'fr-op8-other-error-types',
    'Variant: the token errors say errorType VALIDATION_ERROR (400), AUTHENTICATION_ERROR (401, with a ' +
      'WWW-Authenticate challenge) or SYSTEM_ERROR. "the values of errorType beyond USER_ERROR: not shown" (an ' +
      'unlisted value is an INFO note, so not under --strict).',
    [],
    { variant: true },
  ),
  auth(
    'fr-op8-revoked-record',
    'Variant: revoke a token answers the record of the token it ended: expires_in and refresh_token_expires_in ' +
      '"0", access_token and refresh_token empty. "Units and values of expires_in and refresh_token_expires_in: ' +
      'not shown."',
    [],
    V,
  ),
  auth(
    'fr-op8-answers-new-tokens',
    'Variant: revoke a token answers a new token pair (access_token, refresh_token, expires_in "3600") in the place ' +
      'of the one revoked. "Response 200: Token record (the response is described with the words token ' +
      'successfully created)."',
    [],
    V,
  ),
  money(
    'fr-op9-amount-bounds',
    'Variant: a transfer whose amount is not above 0, has more than two decimals or is above a billion is refused ' +
      '(400, code and message). "The conditions that lead to each status […]: not shown."',
    [],
    V,
  ),
  money(
    'fr-op9-day-numbering-iso',
    'Variant: dayOfWeek is numbered 1 (Monday) to 7 (Sunday), daysOfMonth 1 to 31; others are refused (400). ' +
      '"the numbering of dayOfWeek: not shown"; the conditions of a 400: not shown.',
    [],
    V,
  ),
  money(
    'fr-op9-scheduled-status',
    'Variant: a transfer with a schedule is answered with status SCHEDULED. "Transfer status: One value, SUCCESS, ' +
      'is shown. Other values and transitions: not shown." (an unlisted value is an INFO note, so not under --strict)',
    [],
    { variant: true },
  ),
  money(
    'fr-op9-replays-transaction-id',
    'Variant: a transactionId already answered gets the same answer again, nothing created (an idempotency key). ' +
      'transactionId is "a unique identifier generated for each request"; what a repeat does is not shown.',
    [],
    V,
  ),
  contact(
    'fr-op10-digits-match',
    'Variant: rule 2 compares the digits of oldPhoneNumber with those on record (spaces, dashes, a "+" ignored). ' +
      '"must match the phone number on record": what match means beyond the same text is not shown.',
    [],
    V,
  ),
  contact(
    'fr-op10-empty-update-refused',
    'Variant: an update that supplies none of phoneNumber, email and postalAddress is refused (400). "Fields ' +
      'required beyond oldPhoneNumber: not shown"; "Errors of the contact update operation: not shown."',
    [],
    V,
  ),
  contact(
    'fr-op10-errors-html',
    'Variant: update contact information refuses as a web server does: 401 with a challenge and no body, a phone ' +
      'update 409 with an HTML page, anything else 400 with no body. "Errors of the contact update operation: ' +
      'not shown."',
    [],
    V,
  ),
  disc(
    'fr-ids-need-encoding',
    'Variant: the ids given out are URNs with a colon, a slash, a space and a plus ("urn:fi:disc-1/r 1+x"), for ' +
      'disclosures and acceptance records alike. institutionDisclosureId and institutionUserDisclosureId are typed ' +
      '"string"; their shape is not shown.',
    [],
    V,
  ),
  disc(
    'fr-415-not-json',
    'Variant: the disclosures and contact operations answer 415 (text/plain) to a body that is not JSON. "Bodies ' +
      'are JSON objects"; "Errors of the disclosures operations: not shown"; "Errors of the contact update ' +
      'operation: not shown."',
    [],
    V,
  ),
  disc(
    'fr-bad-credentials-throttled',
    'Variant: a brute-force guard of the disclosures and contact operations: a credential refused once is ' +
      'answered 429 with Retry-After when tried again within a minute; valid credentials are never held back. ' +
      '"Rate limits […]: not shown"; their errors: not shown.',
    [],
    V,
  ),
  money(
    'fr-op9-omits-empty-members',
    'Variant: the Transfer answered leaves out every member that is null or empty (an empty memo among them), as ' +
      'a JSON library set to "non-empty" does. "Which transfer fields are required: not shown."',
    [],
    V,
  ),
  money(
    'fr-op9-duplicate-refused',
    'Variant: a transfer with the same body as one served in the last minute, under another transactionId, is ' +
      'refused as a probable duplicate (400, code and message). "The conditions that lead to each status […]: ' +
      'not shown."',
    [],
    V,
  ),
  contact(
    'fr-op10-validates-values',
    'Variant: update contact information refuses (400) a new number that is not 7 to 15 digits, an e-mail address ' +
      'without "@" and a dot after it, or a country that is not two capital letters. "Errors of the contact update ' +
      'operation: not shown"; the values\' formats: not shown.',
    [],
    V,
  ),
  disc(
    'fr-lists-crowded',
    'Variant: the lists of operations 1 and 4 hold 30 more disclosures and records than the run made, names ' +
      'repeated (some the name of a disclosure on record, under another id), half without the optional members. ' +
      'Nothing is said of how many a list holds, nor that names are unique; "A list response may contain elements ' +
      'that omit institutionDisclosureData, institutionDisclosureDataType and institutionDisclosureStatus."',
    [],
    V,
  ),
  disc(
    'fr-json-suffix-media-type',
    'Variant: every JSON answer of every area is labelled application/vnd.fi.dbsi.v1+json, a "+json" media type ' +
      '(RFC 6839). "Bodies are JSON objects"; no media type of an answer is named.',
    [],
    V,
  ),
  disc(
    'fr-vendor-strict',
    'Variant, a vendor profile: every refusal a strict vendor may make at once (the fr- refusals, 415, 429 and ' +
      'duplicates of every area, ' +
      'with op3-refuses-empty-name, op5-duplicate-conflict, op8-refuses-body-without-members, ' +
      'op9-refuses-empty-memo, op9-single-execution-schedules, op10-requires-every-member).',
    [],
    V,
  ),
  disc(
    'fr-vendor-lenient',
    'Variant, a vendor profile: everything a lenient vendor may accept at once (fr-op8-revoked-record, ' +
      'fr-op9-replays-transaction-id, fr-op10-digits-match, disc-lenient-writes, disc-unknown-ids-no-content, ' +
      'op3-upserts-unknown-id, disc-also-versionless, op10-also-versioned).',
    [],
    V,
  ),
  disc(
    'fr-vendor-dressy',
    'Variant, a vendor profile: other statuses, orders, framing and members at once (fr-transport, ' +
      'fr-lists-shuffled, fr-gets-203, fr-op2-202, fr-op8-other-error-types, fr-op9-scheduled-status, ' +
      'fr-op9-omits-empty-members, fr-ids-need-encoding, op8-extra-members-charset, op9-extra-members-uuid); INFO ' +
      'notes expected.',
    [],
    { variant: true },
  ),
];
