import type { Requirement } from './types';

const RES_DISCLOSURE = 'Institution disclosure';
const RES_USER_DISCLOSURE = 'Institution user disclosure (acceptance record)';
const STATE_UD = 'Status of an institution user disclosure (values ACCEPTED, NOT_ACCEPTED)';
const STATE_ID = 'Status of an institution disclosure (boolean institutionDisclosureStatus)';
const COMMON = 'Disclosures: headers sent with every operation';

/** Disclosures: the resources, the headers and authentication of the area, the states and their moves. */
export const DISCLOSURES_RESOURCE_REQUIREMENTS: Requirement[] = [
  // Resource: Institution disclosure
  {
    id: 'RES-DISCLOSURE-FIELD-TYPES',
    section: RES_DISCLOSURE,
    grade: 'MUST',
    operations: [1, 2, 3],
    statement:
      'institutionDisclosureId, institutionId, institutionDisclosureName, institutionDisclosureData and ' +
      'institutionDisclosureDataType are strings; institutionDisclosureStatus is a boolean ("true or false").',
  },
  {
    id: 'RES-DISCLOSURE-OPTIONAL-MEMBERS',
    section: RES_DISCLOSURE,
    grade: 'MUST',
    operations: [1],
    statement:
      '"A list response may contain elements that omit institutionDisclosureData, ' +
      'institutionDisclosureDataType and institutionDisclosureStatus." Only those three may be omitted: every ' +
      'element carries institutionDisclosureId, institutionId and institutionDisclosureName.',
  },
  {
    id: 'RES-DISCLOSURE-ID-UNIQUE',
    section: RES_DISCLOSURE,
    grade: 'MUST',
    operations: [1, 2],
    statement:
      'institutionDisclosureId: "Unique identifier of the disclosure". In a list (operation 1), elements that ' +
      'carry the same institutionDisclosureId describe one disclosure: two elements that share an id but ' +
      'differ in another member break it. The same element listed twice is not judged (whether a list may ' +
      'repeat an element: not shown). A create (operation 2) answered 2xx gives the new disclosure an id of ' +
      'its own: not one a list made before it showed for a disclosure of another name (disclosures are never ' +
      'deleted through the interface, so a listed id stays in use).',
  },
  {
    id: 'RES-DISCLOSURE-DATA-URL',
    section: RES_DISCLOSURE,
    grade: 'MUST',
    operations: [1, 2, 3],
    statement:
      'institutionDisclosureData: "Present in some responses; carries a URL". Where a response carries it as ' +
      'a string and institutionDisclosureDataType is URL or absent, the value is a URL: not empty, without ' +
      'white space or control characters, parseable as a URL. A reference relative to a base is accepted (the ' +
      'spec does not say the URL is absolute); with another data type ("Data types other than URL: not ' +
      'shown") the value is not judged, and its type is RES-DISCLOSURE-FIELD-TYPES\'s.',
  },
  {
    id: 'RES-DISCLOSURE-DATATYPE-VALUES',
    section: RES_DISCLOSURE,
    grade: 'INFO',
    operations: [1, 2, 3],
    statement:
      'institutionDisclosureDataType: "the value shown is URL". "Data types other than URL: not ' +
      'shown." Another value is an observation, a failure only under --strict.',
  },
  {
    id: 'RES-DISCLOSURE-HEADER-BODY-PRECEDENCE',
    section: RES_DISCLOSURE,
    grade: 'MUST',
    operations: [2, 3],
    statement:
      '"Create and change operations take institutionId, institutionDisclosureName and ' +
      'institutionDisclosureStatus both as headers and as body fields; which of the two wins when they differ: ' +
      'not shown."',
    notTestable:
      'Which of header and body wins is not shown: the suite always sends the ' +
      'same values in both and never depends on the choice.',
  },

  // Resource: Institution user disclosure (acceptance record)
  {
    id: 'RES-USERDISC-FIELD-TYPES',
    section: RES_USER_DISCLOSURE,
    grade: 'MUST',
    operations: [4],
    statement:
      'institutionId, institutionUserId, institutionUserDisclosureStatus, institutionDisclosureName, ' +
      'institutionUserDisclosureId, institutionDisclosureId and accountId are strings (where present).',
  },
  {
    id: 'RES-USERDISC-STATUS-VALUES',
    section: RES_USER_DISCLOSURE,
    grade: 'INFO',
    operations: [4],
    statement:
      'institutionUserDisclosureStatus: "Values shown: ACCEPTED, NOT_ACCEPTED". "Other status values: ' +
      'not shown." Another value is an observation, a failure only under --strict.',
  },

  // Common headers and authentication of the area
  {
    id: 'DISC-AUTH-REQUIRED',
    section: 'Authentication',
    grade: 'MUST',
    operations: [1, 2, 3, 4, 5, 6, 7],
    statement:
      'Disclosures (all): "Authorization header with a bearer access token obtained from the Authentication ' +
      'API". A request without credentials, or with an invalid bearer token, is not served (no 2xx). The error ' +
      'status and body are not shown, so none is required.',
  },
  {
    id: 'DISC-ERRORS-NOT-SHOWN',
    section: 'Errors',
    grade: 'MUST',
    operations: [1, 2, 3, 4, 5, 6, 7],
    statement: '"Errors of the disclosures operations: ' + 'not shown."',
    notTestable: 'No error status or body is documented for the disclosures ' + 'operations; the suite requires none.',
  },
  {
    id: 'DISC-SUCCESS-STATUS-NOT-SHOWN',
    section: COMMON,
    grade: 'MUST',
    operations: [1, 2, 3, 4],
    statement:
      '"The status code of the successful responses of the GET operations and of create/change ' +
      'institution disclosure: not shown." Any 2xx passes and the code is recorded.',
    notTestable:
      'Any 2xx is accepted by OP1-REQUEST, OP2-REQUEST, OP3-REQUEST and ' +
      'OP4-REQUEST; no particular code is required.',
  },

  // States and transitions
  {
    id: 'STATE-ID-CREATE',
    section: STATE_ID,
    grade: 'MUST',
    operations: [1, 2],
    statement:
      '"The value true or false is supplied when the disclosure is created [or changed]." A created disclosure ' +
      'is listed (operation 1) with the name and the status sent; true and false both round-trip. A name cut ' +
      'short to 32 characters or more by a size limit ("size limits […]: not shown") is the name kept.',
  },
  {
    id: 'STATE-ID-CHANGE',
    section: STATE_ID,
    grade: 'MUST',
    operations: [1, 3],
    statement:
      '"The value true or false is supplied when the disclosure is … changed." The change\'s response carries ' +
      'the same institutionDisclosureId and the name sent, and the list (operation 1) shows the name and ' +
      'status sent afterwards (a name cut short to 32 characters or more by a size limit is the name kept).',
  },
  {
    id: 'STATE-ID-OTHER-MOVES',
    section: STATE_ID,
    grade: 'MUST',
    operations: [],
    statement: '"No other move is shown."',
    notTestable: 'Nothing is stated about other moves, so ' + 'nothing is required.',
  },
  {
    id: 'STATE-UD-CREATE',
    section: STATE_UD,
    grade: 'MUST',
    operations: [4, 5],
    statement:
      '(no record) — POST institution-user-disclosures, the request carries a status → "the status carried in ' +
      'the request (ACCEPTED in the shown request)"; "the acceptance record exists; response 204". Observed ' +
      'through operation 4: the record is listed with status ACCEPTED. Until a list of the user shows a record of ' +
      'another status, a record created with another status may be missing from it ("List the disclosures ' +
      'accepted by a user").',
  },
  {
    id: 'STATE-UD-CHANGE',
    section: STATE_UD,
    grade: 'MUST',
    operations: [4, 6],
    statement:
      'any — PUT institution-user-disclosures (either form), the request carries a status → "the status ' +
      'carried in the request (NOT_ACCEPTED in the shown request)"; "response 204". Observed through operation ' +
      '4, for each form. Until a list of the user shows a record of a status other than ACCEPTED, a record ' +
      'changed to another status may be missing from it ("List the disclosures accepted by a user").',
  },
  {
    id: 'STATE-UD-DELETE',
    section: STATE_UD,
    grade: 'MUST',
    operations: [4, 7],
    statement:
      'any — DELETE institution-user-disclosures (either form) → "(record removed)"; ' +
      '"response 204". Observed through operation 4, for each form.',
  },
  {
    id: 'STATE-UD-CHANGE-ONLY-NAMED',
    section: STATE_UD,
    grade: 'MUST',
    operations: [4, 6],
    statement:
      'any — PUT institution-user-disclosures (either form) moves "the status carried in the request" of the ' +
      'record the request names (by "Path parameter institutionUserDisclosureId" in the second form, by the ' +
      'disclosure in the first): no other record moves. Observed through operation 4, for each form: ' +
      "afterwards the user's other records are listed with the same documented members as just before — a " +
      'second record the run creates for the purpose, ACCEPTED beside a change to NOT_ACCEPTED (where a ' +
      'disclosure is free), and the records that were there before the run (observed, never touched).',
  },
  {
    id: 'STATE-UD-DELETE-ONLY-NAMED',
    section: STATE_UD,
    grade: 'MUST',
    operations: [4, 7],
    statement:
      'any — DELETE institution-user-disclosures (either form) → "(record removed)": the record the request ' +
      "names, and no other. Observed through operation 4, for each form: afterwards the user's other records " +
      'are still listed with the same documented members as just before — a second record the run creates for ' +
      'the purpose, NOT_ACCEPTED beside a delete of an ACCEPTED one (where a disclosure is free), and the ' +
      'records that were there before the run (observed, never touched).',
  },
  {
    id: 'STATE-UD-OTHER-MOVES',
    section: STATE_UD,
    grade: 'MUST',
    operations: [],
    statement: '"Other moves of a user disclosure ' + 'status: not shown."',
    notTestable: 'Nothing is stated about other moves, so ' + 'nothing is required.',
  },
];
