import type { Requirement } from './types';

const OP2 = '2. Create an institution disclosure';
const OP3 = '3. Change an institution disclosure';
const OP4 = '4. List the disclosures accepted by a user';
const OP5 = '5. Create a user disclosure acceptance record';
const OP6 = '6. Change a user disclosure';
const OP7 = '7. Delete a user disclosure';
const COMMON_HEADERS = 'Authorization (Bearer), TransactionId (a UUID) and callingAppId';

/** Disclosures: operations 1 to 7, in the spec's order. */
export const DISCLOSURES_OPERATION_REQUIREMENTS: Requirement[] = [
  // 1. List institution disclosures
  {
    id: 'OP1-REQUEST',
    section: '1. List institution disclosures',
    grade: 'MUST',
    operations: [1],
    statement:
      '"GET /db-disclosures/v1/institution-disclosures. Headers: the three common headers. No body, no query ' +
      'parameter." Such a request, with Authorization, TransactionId and callingAppId under those names, is ' +
      'served (a 2xx).',
  },
  {
    id: 'OP1-RESPONSE-ENVELOPE',
    section: '1. List institution disclosures',
    grade: 'MUST',
    operations: [1],
    statement:
      '"Response: object with institutionDisclosures, an array of ' +
      'Institution disclosure objects (see Resources)."',
  },

  // 2. Create an institution disclosure
  {
    id: 'OP2-REQUEST',
    section: OP2,
    grade: 'MUST',
    operations: [2],
    statement:
      `"POST /db-disclosures/v1/institution-disclosures. Headers: the three common headers plus InstitutionId ` +
      `(identifier of the FI), InstitutionDisclosureName (name of the disclosure), InstitutionDisclosureStatus ` +
      `(true or false). Body: institutionId (string), institutionDisclosureName (string), ` +
      `institutionDisclosureStatus (boolean)." Such a request (${COMMON_HEADERS}, the three headers under ` +
      `those names, the body) is served: any 2xx, the code is recorded.`,
  },
  {
    id: 'OP2-RESPONSE-REFLECTS-REQUEST',
    section: OP2,
    grade: 'MUST',
    operations: [2],
    statement:
      '"Response: object with institutionDisclosureId, institutionDisclosureName, institutionDisclosureData, ' +
      'institutionDisclosureDataType": the disclosure just created. Its institutionDisclosureName is the name ' +
      'sent, and institutionId and institutionDisclosureStatus, where the answer carries them (the spec does ' +
      'not list them for this response, so their absence is accepted), are the values sent. A name of more than ' +
      '32 characters may be kept cut short to 32 or more ("Rate limits, size limits, time-outs and token ' +
      'lifetimes: not shown."): that prefix is the name kept.',
  },
  {
    id: 'OP2-RESPONSE',
    section: OP2,
    grade: 'MUST',
    operations: [2],
    statement:
      '"Response: object with institutionDisclosureId, institutionDisclosureName, ' +
      'institutionDisclosureData, institutionDisclosureDataType", typed as in the resource (strings).',
  },

  // 3. Change an institution disclosure
  {
    id: 'OP3-REQUEST',
    section: OP3,
    grade: 'MUST',
    operations: [3],
    statement:
      `"PUT /db-disclosures/v1/institution-disclosures/{institutionDisclosureId} … Headers: the three common ` +
      `headers plus InstitutionId, InstitutionDisclosureName, InstitutionDisclosureStatus (true or false). ` +
      `Body: institutionDisclosureId, institutionId, institutionDisclosureName (strings), ` +
      `institutionDisclosureStatus (boolean)." Such a request (${COMMON_HEADERS}, the three headers under ` +
      `those names, the body) is served: any 2xx, the code is recorded.`,
  },
  {
    id: 'OP3-RESPONSE-REFLECTS-REQUEST',
    section: OP3,
    grade: 'MUST',
    operations: [3],
    statement:
      '"Response: object with institutionDisclosureId, institutionId, institutionDisclosureName, ' +
      'institutionDisclosureData, institutionDisclosureDataType": the disclosure as just changed. Its ' +
      'institutionId and institutionDisclosureName are the values sent, and so is institutionDisclosureStatus ' +
      'where the answer carries it (the spec does not list it for this response, so its absence is accepted). A ' +
      'name cut short to 32 characters or more by a size limit is the name kept, as for operation 2.',
  },
  {
    id: 'OP3-RESPONSE',
    section: OP3,
    grade: 'MUST',
    operations: [3],
    statement:
      '"Response: object with institutionDisclosureId, institutionId, institutionDisclosureName, ' +
      'institutionDisclosureData, institutionDisclosureDataType", typed as in the resource (strings).',
  },

  // 4. List the disclosures accepted by a user
  {
    id: 'OP4-ONLY-THE-USERS-RECORDS',
    section: OP4,
    grade: 'MUST',
    operations: [4],
    statement:
      '"4. List the disclosures accepted by a user … Query parameter: InstitutionConsumerId, unique ' +
      'identifier of a consumer user." The list asked for the configured user holds that user\'s records only: ' +
      "every element's institutionUserId is the id sent as InstitutionConsumerId (or the one the target gives " +
      "a record this run created for that user). Not only the run's records: every element.",
  },
  {
    id: 'OP4-OTHER-CONSUMER',
    section: OP4,
    grade: 'SHOULD',
    operations: [4],
    statement:
      'The list is of the disclosures accepted by "a user", the one InstitutionConsumerId names. Whether a ' +
      'target may ignore it and answer for the user the token stands for is not settled by the spec (one ' +
      "vendor's documentation says retail requests derive the customer context from the access token). " +
      'Expected: a list asked for another consumer (testData.otherInstitutionUserId, else a made-up id) shows ' +
      "none of the configured user's records; a refusal (any non-2xx) " +
      'passes. A warning; a failure only under --strict.',
  },
  {
    id: 'OP4-REQUEST',
    section: OP4,
    grade: 'MUST',
    operations: [4],
    statement:
      `"GET /db-disclosures/v1/institution-user-disclosures. Query parameter: InstitutionConsumerId, unique ` +
      `identifier of a consumer user. Headers: the three common headers." Such a request (${COMMON_HEADERS}; ` +
      `InstitutionConsumerId = the configured user) is served: any 2xx, the code is recorded.`,
  },
  {
    id: 'OP4-RESPONSE-ENVELOPE',
    section: OP4,
    grade: 'MUST',
    operations: [4],
    statement: '"Response: object with ' + 'institutionUserDisclosures, an array of objects …".',
  },
  {
    id: 'OP4-RESPONSE-MEMBERS',
    section: OP4,
    grade: 'MUST',
    operations: [4],
    statement:
      '"… an array of objects of institutionId, institutionUserId, institutionUserDisclosureStatus, ' +
      'institutionDisclosureName." Every element carries these four; other members ' +
      '(institutionUserDisclosureId, institutionDisclosureId, accountId) may be absent.',
  },

  // 5. Create a user disclosure acceptance record
  {
    id: 'OP5-REQUEST',
    section: OP5,
    grade: 'MUST',
    operations: [5],
    statement:
      `"POST /db-disclosures/v1/institution-user-disclosures. Headers: the three common headers plus ` +
      `InstitutionUserDisclosureStatus […], InstitutionDisclosureName, AccountId […], ` +
      `InstitutionDisclosureId […], ` +
      `InstitutionUserDisclosureStatusUpdateDateTime […]. Body: institutionUserDisclosureStatus (string), ` +
      `institutionDisclosureName (string)." Such a request (${COMMON_HEADERS}, the five headers under those ` +
      `names, the body) is served (a 2xx).`,
  },
  {
    id: 'OP5-STATUS-204',
    section: OP5,
    grade: 'MUST',
    operations: [5],
    statement: '"Response: 204, no content." The status is ' + '204 and there is no body.',
  },

  {
    id: 'OP5-STATUS-UPDATE-FORMAT-NOT-SHOWN',
    section: OP5,
    grade: 'MUST',
    operations: [5],
    statement: 'Header InstitutionUserDisclosureStatusUpdateDateTime: "a date-time stamp; ' + 'its format: not shown".',
    notTestable:
      'The format is not shown: the suite sends an ISO 8601 date-time and requires nothing of how a target ' +
      'reads it or of its answer to another format.',
  },

  // 6. Change a user disclosure
  {
    id: 'OP6-REQUEST',
    section: OP6,
    grade: 'MUST',
    operations: [6],
    statement:
      `"PUT /db-disclosures/v1/institution-user-disclosures … Query parameter InstitutionCustomerId: […] ` +
      `mandatory for business banking requests. Headers: the three common headers plus ` +
      `InstitutionDisclosureId […], InstitutionUserDisclosureStatus […], InstitutionDisclosureName. Body: ` +
      `institutionDisclosureId (string), institutionDisclosureName (string), institutionDisclosureStatus ` +
      `(string, for example NOT_ACCEPTED)." The collection form of such a request (${COMMON_HEADERS}, the ` +
      `three headers under those names, InstitutionCustomerId where configured, the body) is served (a 2xx).`,
  },
  {
    id: 'OP6-REQUEST-BY-ID',
    section: OP6,
    grade: 'MUST',
    operations: [6],
    statement:
      '"… or PUT /db-disclosures/v1/institution-user-disclosures/{institutionUserDisclosureId}. Path ' +
      'parameter institutionUserDisclosureId: used only with the second form." The second form, with the same ' +
      'headers, query and body, is served (a 2xx). Not applicable where the list (operation 4) does not expose ' +
      'institutionUserDisclosureId.',
  },
  {
    id: 'OP6-STATUS-204',
    section: OP6,
    grade: 'MUST',
    operations: [6],
    statement: '"Response: 204, no content." For either form, the ' + 'status is 204 and there is no body.',
  },

  {
    id: 'OP6-CAS-RELATED-NOT-SHOWN',
    section: OP6,
    grade: 'MUST',
    operations: [6],
    statement:
      'Header InstitutionDisclosureId: "required only when the update is CAS-related; what CAS-related means: ' +
      'not shown".',
    notTestable:
      'Which updates are CAS-related is not shown: the suite always sends InstitutionDisclosureId, so a ' +
      'target may require it or not, and a request without it is never judged.',
  },
  {
    id: 'DISC-CONDITIONAL-QUERY-NOT-SHOWN',
    section: OP7,
    grade: 'MUST',
    operations: [6, 7],
    statement:
      'Query parameter InstitutionCustomerId: "mandatory for business banking requests" (operations 6 and 7); ' +
      'AccountType: "a valid account type of the platform; mandatory for multi-statement disclosures" ' +
      '(operation 7).',
    notTestable:
      'What makes a request business banking, a disclosure multi-statement, or an account type valid is not ' +
      'defined: the suite sends both where configured (testData.institutionCustomerId, testData.accountType) ' +
      'and judges no request without them.',
  },

  // 7. Delete a user disclosure
  {
    id: 'OP7-REQUEST',
    section: OP7,
    grade: 'MUST',
    operations: [7],
    statement:
      `"DELETE /db-disclosures/v1/institution-user-disclosures … Query parameters: InstitutionCustomerId ` +
      `(mandatory for business banking requests); AccountType (a valid account type of the platform; mandatory for ` +
      `multi-statement disclosures). ` +
      `Headers: the three common headers plus InstitutionUserDisclosureStatus and AccountId. Body: ` +
      `institutionDisclosureName (string), accountId (string)." The collection form of such a request ` +
      `(${COMMON_HEADERS}, the two headers under those names, the query parameters where configured, the body) ` +
      `is served (a 2xx).`,
  },
  {
    id: 'OP7-REQUEST-BY-ID',
    section: OP7,
    grade: 'MUST',
    operations: [7],
    statement:
      '"… or DELETE /db-disclosures/v1/institution-user-disclosures/{institutionUserDisclosureId}. Path ' +
      'parameter institutionUserDisclosureId: used only with the second form." The second form, with the same ' +
      'headers, query and body, is served (a 2xx). Not applicable where the list (operation 4) does not expose ' +
      'institutionUserDisclosureId.',
  },
  {
    id: 'OP7-STATUS-204',
    section: OP7,
    grade: 'MUST',
    operations: [7],
    statement: '"Response: 204, no content." For either form, the ' + 'status is 204 and there is no body.',
  },
];
