import { faultsOf, type FaultDef } from './types';

const f = faultsOf('authentication');

export const AUTHENTICATION_FAULTS: FaultDef[] = [
  f(
    'op8-revoke-answers-204',
    'Revoke a token answers 204 with no body instead of the ' + 'documented 200 with a Token record.',
    ['OP8-REQUEST'],
  ),
  f(
    'op8-revoke-post-only',
    'Revoke a token takes POST only (as RFC 7009 does): the documented DELETE is answered 405 with ' +
      '"Allow: POST". The path exists, so the run fails it rather than blame authBaseUrl.',
    ['OP8-REQUEST'],
    { collateral: ['OP8-AUTH-401', 'OP8-HEADER-REQUIRED-400', 'OP8-BODY-400'] },
  ),
  f(
    'op8-refuses-json-media-type',
    "Revoke a token refuses the spec's own JSON Token request body with 400 and errorCode " +
      'UNSUPPORTED_MEDIA_TYPE (it takes form-encoded bodies only, as a real vendor documents). Its error names ' +
      'the media type, not the refresh token: a failure, never "check the refresh token".',
    ['OP8-REQUEST'],
  ),
  f(
    'op8-token-record-numbers',
    'The Token record gives expires_in and refresh_token_expires_in ' + 'as numbers where strings are documented.',
    ['OP8-RESPONSE-TOKEN-RECORD'],
  ),
  f(
    'op8-serves-without-credentials',
    'Revoke a token serves a request without Basic ' + 'credentials (200) instead of 401.',
    ['OP8-AUTH-401'],
  ),
  f('op8-wrong-credentials-403', 'Revoke a token answers 403 instead of 401 when ' + 'the secret key is wrong.', [
    'OP8-AUTH-401',
  ]),
  f(
    'op8-accepts-any-scheme',
    'Revoke a token checks only that an Authorization header is there: a ' +
      'Bearer token is served instead of answered 401.',
    ['OP8-AUTH-401'],
  ),
  f(
    'op8-accepts-malformed-basic',
    'Revoke a token serves Basic credentials that do not decode to "key:secret" ' +
      '(the decoding error is swallowed) instead of answering 401.',
    ['OP8-AUTH-401'],
  ),
  f(
    'op8-accepts-shared-key-alone',
    'Revoke a token checks the secret key only when one is given: the shared key ' +
      'with an empty secret key is served instead of answered 401.',
    ['OP8-AUTH-401'],
  ),
  f(
    'op8-secret-prefix-match',
    'Revoke a token compares as many characters of the secret key as were sent: the shared key with the ' +
      'secret key cut short by its last character is served instead of answered 401.',
    ['OP8-AUTH-401'],
  ),
  f(
    'op8-accepts-non-numeric-institutionId',
    'Revoke a token serves an institutionId that is not numeric (a ' + 'warning; a failure only under --strict).',
    ['OP8-INSTITUTIONID-NUMERIC'],
    { strict: true },
  ),
  f(
    'op8-unknown-institution-404',
    'Variant, not a fault: revoke a token answers an institutionId that is not numeric with 404 and no body ' +
      '(no such institution). Any refusal passes, and only 400 and 401 document a body.',
    [],
    { variant: true },
  ),
  f(
    'op8-accepts-missing-institutionId',
    'Revoke a token serves a request without the ' + 'required institutionId header.',
    ['OP8-HEADER-REQUIRED-400'],
  ),
  f(
    'op8-accepts-missing-transactionId',
    'Revoke a token serves a request without the ' + 'required transactionId header.',
    ['OP8-HEADER-REQUIRED-400'],
  ),
  f(
    'op8-accepts-missing-Content-Type',
    'Revoke a token serves a request without the ' + 'required Content-Type header.',
    ['OP8-HEADER-REQUIRED-400'],
  ),
  f(
    'op8-accepts-mistyped-body',
    'Revoke a token serves a body with a member of the wrong ' + 'type, or a body that is not JSON.',
    ['OP8-BODY-400'],
  ),
  f(
    'op8-undocumented-error-shape',
    'Errors of revoke a token have the body {"error", ' + '"error_description"}, neither of the two documented shapes.',
    ['OP8-ERROR-SHAPE'],
  ),
  f(
    'op8-unlisted-error-type',
    'Token errors give errorType CLIENT_ERROR, a value the spec does not show ' +
      '(an observation; a failure only under --strict).',
    ['OP8-ERROR-TYPE-VALUES'],
    { strict: true },
  ),
  f(
    'op8-errors-code-message',
    'Variant, not a fault: every error of revoke a token has the code/message shape. "An additional error ' +
      'shape of code and message (both string) is also shown with this operation."',
    [],
    { variant: true, strict: true },
  ),
  f(
    'op8-extra-members-charset',
    'Variant, not a fault: the Token record and the token errors carry extra members (token_type, ' +
      'timestamp, errorInfo.traceId), in another order, with "Content-Type: application/json;charset=UTF-8" ' +
      'and capitalised header names. The spec lists members, not that there are no others.',
    [],
    { variant: true, strict: true },
  ),
  f(
    'op8-empty-token-record',
    'Variant, not a fault: revoke a token answers 200 with an empty JSON object. The Token record lists six ' +
      'string members; which of them an answer carries is not stated (units and values: not shown).',
    [],
    { variant: true, strict: true },
  ),
];
