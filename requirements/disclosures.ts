import type { Requirement } from './types';

const RES_DISCLOSURE = 'Institution disclosure';
const COMMON = 'Disclosures: headers sent with every operation';

/** Operations 1–7 and the two disclosure resources. */
export const DISCLOSURES_REQUIREMENTS: Requirement[] = [
  // Resource: Institution disclosure
  { id: 'RES-DISCLOSURE-FIELD-TYPES', section: RES_DISCLOSURE, grade: 'MUST', operations: [1, 2, 3], statement: 'institutionDisclosureId, institutionId, institutionDisclosureName, institutionDisclosureData and institutionDisclosureDataType are strings; institutionDisclosureStatus is a boolean ("true or false").' },
  { id: 'RES-DISCLOSURE-OPTIONAL-MEMBERS', section: RES_DISCLOSURE, grade: 'MUST', operations: [1], statement: '"A list response may contain elements that omit institutionDisclosureData, institutionDisclosureDataType and institutionDisclosureStatus." Only those three may be omitted: every element carries institutionDisclosureId, institutionId and institutionDisclosureName.' },
  { id: 'RES-DISCLOSURE-DATATYPE-VALUES', section: RES_DISCLOSURE, grade: 'INFO', operations: [1, 2, 3], statement: 'institutionDisclosureDataType: "the value shown is URL". "Data types other than URL: not shown." Another value is an observation, a failure only under --strict.' },

  // Common headers and authentication of the area
  { id: 'DISC-AUTH-REQUIRED', section: 'Authentication', grade: 'MUST', operations: [1, 2, 3, 4, 5, 6, 7], statement: 'Disclosures (all): "Authorization header with a bearer access token obtained from the Authentication API". A request without credentials, or with an invalid bearer token, is not served (no 2xx). The error status and body are not shown, so none is required.' },
  { id: 'DISC-ERRORS-NOT-SHOWN', section: 'Errors', grade: 'MUST', operations: [1, 2, 3, 4, 5, 6, 7], statement: '"Errors of the disclosures operations: not shown."', notTestable: 'No error status or body is documented for the disclosures operations; the suite requires none.' },
  { id: 'DISC-SUCCESS-STATUS-NOT-SHOWN', section: COMMON, grade: 'MUST', operations: [1, 2, 3, 4], statement: '"The status code of the successful responses of the GET operations and of create/change institution disclosure: not shown." Any 2xx passes and the code is recorded.' },

  // 1. List institution disclosures
  { id: 'OP1-REQUEST', section: '1. List institution disclosures', grade: 'MUST', operations: [1], statement: '"GET /db-disclosures/v1/institution-disclosures. Headers: the three common headers. No body, no query parameter." Such a request, with Authorization, TransactionId and callingAppId under those names, is served (a 2xx).' },
  { id: 'OP1-RESPONSE-ENVELOPE', section: '1. List institution disclosures', grade: 'MUST', operations: [1], statement: '"Response: object with institutionDisclosures, an array of Institution disclosure objects (see Resources)."' },
];
