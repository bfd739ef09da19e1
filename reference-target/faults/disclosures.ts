import { DISCLOSURE_VARIANTS } from './disclosure-variants';
import { faultsOf, type FaultDef } from './types';

const f = faultsOf('disclosures');

export const DISCLOSURES_FAULTS: FaultDef[] = [
  f(
    'op1-envelope-renamed',
    'List institution disclosures answers {"disclosures": [...]} ' + 'instead of {"institutionDisclosures": [...]}.',
    ['OP1-RESPONSE-ENVELOPE'],
  ),
  f(
    'op1-status-as-string',
    'List institution disclosures gives institutionDisclosureStatus ' + 'as the string "true" instead of a boolean.',
    ['RES-DISCLOSURE-FIELD-TYPES'],
  ),
  f(
    'op1-element-without-id',
    'List institution disclosures omits institutionDisclosureId from an ' +
      'element (only Data, DataType and Status may be omitted).',
    ['RES-DISCLOSURE-OPTIONAL-MEMBERS'],
  ),
  f(
    'op1-unlisted-data-type',
    'List institution disclosures gives institutionDisclosureDataType "PDF", a value the ' +
      'spec does not show (an observation; a failure only under --strict).',
    ['RES-DISCLOSURE-DATATYPE-VALUES'],
    { strict: true },
  ),
  f('op1-html-body', 'List institution disclosures answers 200 with an HTML ' + 'page instead of a JSON object.', [
    'CONV-JSON-BODIES',
  ]),
  f(
    'op1-requires-version-less-path',
    'List institution disclosures is served only without the v1 ' + 'segment (404 at the documented path).',
    ['OP1-REQUEST'],
  ),
  f(
    'op1-id-reused',
    'List institution disclosures gives two different disclosures the same institutionDisclosureId (the ' +
      'last disclosure on record at the start is listed under the id of the one before it).',
    ['RES-DISCLOSURE-ID-UNIQUE'],
  ),
  f(
    'op1-data-not-url',
    'List institution disclosures gives the first disclosure on record the text of the disclosure as ' +
      'institutionDisclosureData ("You agree to …") while its institutionDisclosureDataType says URL.',
    ['RES-DISCLOSURE-DATA-URL'],
  ),
  f(
    'disc-serves-without-credentials',
    'The disclosures operations serve a request that ' + 'carries no Authorization header.',
    ['DISC-AUTH-REQUIRED'],
  ),
  f(
    'disc-bearer-any-case',
    'The disclosures operations compare bearer tokens without regard to letter case: the configured token with ' +
      'the case of its letters swapped is served.',
    ['DISC-AUTH-REQUIRED'],
  ),
  f(
    'disc-accepts-any-bearer-token',
    'The disclosures operations serve a request with any ' + 'bearer token, valid or not.',
    ['DISC-AUTH-REQUIRED'],
  ),

  // 2. Create an institution disclosure
  f(
    'op2-requires-version-less-path',
    'Create an institution disclosure is served only without the ' + 'v1 segment (405 at the documented path).',
    ['OP2-REQUEST'],
  ),
  f(
    'op2-response-without-data',
    'Create an institution disclosure answers without ' +
      'institutionDisclosureData, a member the spec lists for this response.',
    ['OP2-RESPONSE'],
  ),
  f(
    'op2-not-persisted',
    'Create an institution disclosure answers as if it had created ' + 'the disclosure, but the list never shows it.',
    ['STATE-ID-CREATE'],
  ),
  f(
    'op2-data-as-object',
    'Create an institution disclosure answers institutionDisclosureData as an object {"url": …} instead of ' +
      'the string the resource documents (the members the response lists are all there).',
    ['RES-DISCLOSURE-FIELD-TYPES'],
  ),
  f(
    'op2-reuses-id',
    'Create an institution disclosure stores the new disclosure under the institutionDisclosureId of the last ' +
      'disclosure on record at the start, replacing it (an id generator that restarts), and answers that id. ' +
      'A later create replaces an earlier one the same way, so a list may show another name than was created.',
    ['RES-DISCLOSURE-ID-UNIQUE'],
    { collateral: ['STATE-ID-CREATE'] },
  ),
  f(
    'op2-response-name-cut',
    'Create an institution disclosure stores the name sent but answers with it ' +
      'cut to 16 characters (a response mapper that truncates).',
    ['OP2-RESPONSE-REFLECTS-REQUEST'],
  ),

  // 3. Change an institution disclosure
  f(
    'op3-requires-version-less-path',
    'Change an institution disclosure is served only without the ' + 'v1 segment (404 at the documented path).',
    ['OP3-REQUEST'],
  ),
  f(
    'op3-response-without-institution-id',
    'Change an institution disclosure answers without institutionId, ' + 'a member the spec lists for this response.',
    ['OP3-RESPONSE'],
  ),
  f(
    'op3-not-stored',
    'Change an institution disclosure answers with the new values but does not ' +
      'store them: the list still shows the old name and status.',
    ['STATE-ID-CHANGE'],
  ),
  f(
    'op3-response-other-id',
    'Change an institution disclosure answers with an ' + 'institutionDisclosureId other than the one changed.',
    ['STATE-ID-CHANGE'],
  ),
  f(
    'op3-response-stale-status',
    'Change an institution disclosure stores the status sent but answers with ' +
      'institutionDisclosureStatus as it was before the change.',
    ['OP3-RESPONSE-REFLECTS-REQUEST'],
  ),

  // 4. List the disclosures accepted by a user
  f(
    'op4-requires-other-query-name',
    'List user disclosures ignores the documented query parameter ' +
      'InstitutionConsumerId and requires "consumerId" instead (400).',
    ['OP4-REQUEST'],
  ),
  f(
    'op4-json-labelled-html',
    'List the disclosures accepted by a user answers its JSON object labelled ' +
      '"Content-Type: text/html; charset=utf-8".',
    ['CONV-JSON-MEDIA-TYPE'],
  ),
  f(
    'op4-envelope-renamed',
    'List user disclosures answers {"userDisclosures": [...]} instead ' + 'of {"institutionUserDisclosures": [...]}.',
    ['OP4-RESPONSE-ENVELOPE'],
  ),
  f(
    'op4-element-without-user-id',
    'List user disclosures omits institutionUserId, one of the four ' + 'members the spec lists for each element.',
    ['OP4-RESPONSE-MEMBERS'],
  ),
  f('op4-user-id-as-number', 'List user disclosures gives institutionUserId as a ' + 'number instead of a string.', [
    'RES-USERDISC-FIELD-TYPES',
  ]),
  f(
    'op4-unlisted-status',
    'List user disclosures shows a record with status "PENDING_REVIEW", a value the spec ' +
      'does not show (an observation; a failure only under --strict).',
    ['RES-USERDISC-STATUS-VALUES'],
    { strict: true },
  ),
  f(
    'op4-ignores-consumer-filter',
    'List user disclosures forgets the filter: asked for the ' + "configured user, it lists every user's records.",
    ['OP4-ONLY-THE-USERS-RECORDS'],
  ),
  f(
    'op4-answers-for-token-user',
    'List user disclosures ignores InstitutionConsumerId and lists the records of the user the token ' +
      'stands for, whoever is asked for (a warning; a failure only under --strict).',
    ['OP4-OTHER-CONSUMER'],
    { strict: true },
  ),
  f(
    'op4-refuses-valid-token',
    'List user disclosures answers 403 to the valid bearer token that every other disclosures operation ' +
      "serves: a credential the run has proven, refused on one operation, is the target's fault, never the setup's.",
    ['OP4-REQUEST'],
  ),
  f(
    'op4-refuses-other-consumer',
    'Variant, not a fault: list user disclosures refuses (403) a list asked for a consumer other than the ' +
      "one the token stands for. A refusal shows none of the user's records, so nothing fails.",
    [],
    { variant: true },
  ),
  f(
    'op4-omits-user-disclosure-id',
    'Variant, not a fault: list user disclosures omits institutionUserDisclosureId, as the spec allows (it ' +
      'documents only four members). The /{institutionUserDisclosureId} forms are then not applicable, never failed.',
    [],
    { variant: true },
  ),

  // 5. Create a user disclosure acceptance record
  f(
    'op5-requires-other-header-name',
    'Create a user disclosure ignores the documented header ' +
      'InstitutionDisclosureId and requires "DisclosureId" instead (400).',
    ['OP5-REQUEST'],
  ),
  f('op5-200-with-body', 'Create a user disclosure answers 200 with a JSON body ' + 'instead of 204 with no content.', [
    'OP5-STATUS-204',
  ]),
  f('op5-not-persisted', 'Create a user disclosure answers 204 but no ' + 'record is listed afterwards.', [
    'STATE-UD-CREATE',
  ]),

  // 6. Change a user disclosure
  f(
    'op6-collection-form-missing',
    'Change a user disclosure is served only in the ' +
      '/{institutionUserDisclosureId} form (the collection form answers 405).',
    ['OP6-REQUEST'],
  ),
  f('op6-200-with-body', 'Change a user disclosure answers 200 with a JSON body ' + 'instead of 204 with no content.', [
    'OP6-STATUS-204',
  ]),
  f('op6-not-stored', 'Change a user disclosure answers 204 but the ' + 'listed status stays ACCEPTED.', [
    'STATE-UD-CHANGE',
  ]),
  f(
    'op6-changes-every-record',
    'Change a user disclosure (either form) gives the status sent to every record of the user ' +
      'on that account, not only the one named (a condition forgotten).',
    ['STATE-UD-CHANGE-ONLY-NAMED'],
    { collateral: ['STATE-UD-CREATE', 'STATE-UD-DELETE-ONLY-NAMED'] },
  ),

  // 7. Delete a user disclosure
  f(
    'op7-collection-form-missing',
    'Delete a user disclosure is served only in the ' +
      '/{institutionUserDisclosureId} form (the collection form answers 405).',
    ['OP7-REQUEST'],
  ),
  f('op7-200-with-body', 'Delete a user disclosure answers 200 with a JSON body ' + 'instead of 204 with no content.', [
    'OP7-STATUS-204',
  ]),
  f('op7-keeps-record', 'Delete a user disclosure answers 204 but the record ' + 'is still listed afterwards.', [
    'STATE-UD-DELETE',
  ]),
  f(
    'op7-deletes-declined-records',
    "Delete a user disclosure (either form) also removes the user's other records on that account whose " +
      'status is NOT_ACCEPTED (a purge of declined records run with every delete).',
    ['STATE-UD-DELETE-ONLY-NAMED'],
    { collateral: ['STATE-UD-CHANGE', 'STATE-UD-CHANGE-ONLY-NAMED'] },
  ),
  f(
    'op7-by-id-reads-a-prefix',
    'Delete a user disclosure by an id no record has removes the record whose id that id begins with (a ' +
      'lookup that reads the id only as far as it recognises it). Only the explorer sends such ids.',
    ['STATE-UD-DELETE-ONLY-NAMED'],
  ),
  f(
    'op5-revives-deleted-record',
    'Create a user disclosure with NOT_ACCEPTED, for a disclosure and account whose record was deleted, revives ' +
      'the deleted record with the status it had (a soft delete). Only the explorer reaches it.',
    ['STATE-UD-CREATE'],
  ),

  // 6 and 7
  f(
    'disc-user-id-forms-missing',
    'Change and delete a user disclosure are not served in the ' + '/{institutionUserDisclosureId} form (404).',
    ['OP6-REQUEST-BY-ID', 'OP7-REQUEST-BY-ID'],
  ),
  f(
    'disc-strict-header-names',
    'Variant, not a fault: every disclosures operation refuses (400) a request that lacks one of its ' +
      'documented headers (spelled exactly as the spec writes it), query parameters or body members. The suite ' +
      'sends them all, so nothing fails.',
    [],
    { variant: true },
  ),
  ...DISCLOSURE_VARIANTS,
];
