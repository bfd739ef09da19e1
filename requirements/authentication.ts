import type { Requirement } from './types';

const OP8 = '8. Revoke a token';
const ERR = 'Errors';

/** Operation 8 (revoke a token), its records and its errors. */
export const AUTHENTICATION_REQUIREMENTS: Requirement[] = [
  {
    id: 'OP8-REQUEST',
    section: OP8,
    grade: 'MUST',
    operations: [8],
    statement:
      '"DELETE {base_url}/oauth2/v1/revoke" with the headers institutionId, transactionId, Content-Type ' +
      '(required), Accept (optional) and Authorization (HTTP Basic, see Authentication), and the Token request ' +
      'body: "Response 200: Token record". The configured request is answered 200.',
  },
  {
    id: 'OP8-RESPONSE-TOKEN-RECORD',
    section: 'Token record (response of token ' + 'revocation, status 200)',
    grade: 'MUST',
    operations: [8],
    statement:
      'The 200 answer is a Token record: expires_in, di_fiid, di_ficustomer, access_token, ' +
      'refresh_token and refresh_token_expires_in, each a string where present.',
  },
  {
    id: 'OP8-AUTH-401',
    section: 'Authentication',
    grade: 'MUST',
    operations: [8],
    statement:
      'Revoke a token: "Authorization header with HTTP Basic authentication: the word Basic, a space, then ' +
      'the base64 encoding of the shared key, a colon and the secret key". "The unsuccessful authentication of ' +
      'a token request returns status 401" (Errors: "401 The authentication request is unsuccessful"). A ' +
      'request that does not authenticate so is answered 401: without Authorization, with a wrong secret key, ' +
      'with another scheme (a Bearer token), with malformed Basic credentials (not the base64 of ' +
      '"key:secret"), or with the shared key alone (no secret key).',
  },
  {
    id: 'OP8-INSTITUTIONID-NUMERIC',
    section: OP8,
    grade: 'SHOULD',
    operations: [8],
    statement:
      'Header institutionId: Required "yes", "Numeric unique identifier of the FI"; Errors: "400 The request ' +
      'does not match the requirements of the specification". Expected: a request whose institutionId is not ' +
      'numeric (the configured one with a letter appended) is not served (no 2xx); which refusal is not ' +
      'stated. A warning; a failure only under --strict. Where the refusal is a 400 or 401, its body is judged ' +
      'by OP8-ERROR-SHAPE.',
  },
  {
    id: 'OP8-HEADER-REQUIRED-400',
    section: ERR,
    grade: 'MUST',
    operations: [8],
    statement:
      'institutionId, transactionId and Content-Type are Required "yes"; Errors: "400 The request does not ' +
      'match the requirements of the specification". A request missing one of them is answered 400.',
  },
  {
    id: 'OP8-BODY-400',
    section: ERR,
    grade: 'MUST',
    operations: [8],
    statement:
      'The body is the Token request body (grant_type, username, password, scopes, refresh_token: all ' +
      'strings) and "Bodies are JSON objects"; Errors: "400 The request does not match the requirements of the ' +
      'specification". A body with a member of the wrong type, or a body that is not JSON, is answered 400.',
  },
  {
    id: 'OP8-ERROR-SHAPE',
    section: ERR,
    grade: 'MUST',
    operations: [8],
    statement:
      'Errors of token revocation have the body "statusMessage, errorInfo{errorType, errorCode, ' +
      'errorMessage}"; "An additional error shape of code and message (both string) is also shown with this ' +
      'operation." Every 400/401 body matches one of the two, and so does a 500 ("500 An unexpected fault occurs ' +
      'while processing", body "same"), whatever led to it.',
  },
  {
    id: 'OP8-ERROR-TYPE-VALUES',
    section: 'Error records',
    grade: 'INFO',
    operations: [8],
    statement:
      'errorInfo.errorType: "enumeration; value shown: USER_ERROR"; "the values of errorType beyond ' +
      'USER_ERROR: not shown". Another value is an observation, a failure only under --strict.',
  },
  {
    id: 'OP8-BODY-FIELDS-REQUIRED-NOT-SHOWN',
    section: OP8,
    grade: 'MUST',
    operations: [8],
    statement: '"Which body fields are required: not shown."',
    notTestable: 'The suite sends the members the configuration ' + 'supplies and requires none of them.',
  },
  {
    id: 'OP8-500-NOT-PROVOKED',
    section: ERR,
    grade: 'MUST',
    operations: [8],
    statement: '"500 An unexpected fault occurs while processing", ' + 'body: the token error record.',
    notTestable:
      'A conformance suite cannot safely provoke an unexpected fault; a 500 ' +
      'received elsewhere is judged by the check of that case.',
  },
  {
    id: 'AUTH-RECORD-ROLE-NOT-SHOWN',
    section: 'Authentication record (also returned with the ' + 'revocation operation; its role: not shown)',
    grade: 'MUST',
    operations: [8],
    statement:
      'The Authentication record is "also returned with the revocation operation; its role: not ' +
      'shown". Its shape is in schemas/authentication-record.schema.json.',
    notTestable:
      'When and where the record is returned is not shown, so no ' + 'answer of the operation is required to be one.',
  },
  {
    id: 'AUTH-RECORD-VALUE-SETS-NOT-SHOWN',
    section: 'Authentication record (also returned with the ' + 'revocation operation; its role: not shown)',
    grade: 'MUST',
    operations: [8],
    statement:
      'alternateCredentialType, requestChannel, status and grantType are enumerations of which one value each is ' +
      'shown (FACE_ID, WEB, SECONDARY_AUTHENTICATION_REQUIRED, AUTHORIZATION_CODE), and protocol (SMS). "The ' +
      'complete value sets of the enumerations of this record: not shown."',
    notTestable:
      'No value set is documented, and no answer of the operation is required to be an Authentication record ' +
      '(AUTH-RECORD-ROLE-NOT-SHOWN): nothing is required of these values.',
  },
  {
    id: 'AUTH-RECORD-STATUS-NOT-SHOWN',
    section: 'Authentication record status',
    grade: 'MUST',
    operations: [8],
    statement: '"One value, SECONDARY_AUTHENTICATION_REQUIRED, is shown. ' + 'Transitions: not shown."',
    notTestable: 'No operation of the spec moves the status of an Authentication record, so no move is required.',
  },
  {
    id: 'AUTH-TOKEN-LIFETIMES-NOT-SHOWN',
    section: 'Authentication',
    grade: 'MUST',
    operations: [8],
    statement: '"Units and values of expires_in and ' + 'refresh_token_expires_in: not shown."',
    notTestable: 'Only their type (string) is checked.',
  },
];
