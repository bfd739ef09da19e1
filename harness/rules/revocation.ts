import { json_object_body, not_served, schema_conformance, shown_value, status_code_conformance } from '../checks';
import { validate } from '../schemas';
import { SHOWN } from '../shown-values';
import { header, type Seen, type Verifier, type OperationRules } from './exchange';
import { has, is2xx, is4xx, isObject, requestJson, withoutCredentials } from './request';
import { revocationServerError } from './revocation-server-error';

const REVOCATION_HEADERS = ['institutionId', 'transactionId', 'Content-Type'];

/**
 * Operation 8. The documented statuses apply only where the request shows which rule is in play. A
 * refusal may be about the credentials, except where the log knows they are the operator's
 * (Seen.authority 'configured'): there it breaks the rule the request is about.
 */
export function revokeToken(s: Seen, v: Verifier): void {
  const status = s.x.status;
  const missing = REVOCATION_HEADERS.filter((h) => !has(s, h));
  const body = requestJson(s);
  const badBody =
    s.x.requestBody !== undefined &&
    s.x.requestBody.trim() !== '' &&
    (!body.ok || !isObject(body.json) || validate('token-request', body.json).length > 0);
  const c = s.x.credential;
  // "the word Basic, a space, then the base64 encoding of the shared key, a colon and the secret key".
  const basic = c?.scheme === 'basic' && c.wellFormedBasic !== false;
  // Credentials that are certainly not that (another scheme, or Basic that does not decode to key:secret):
  // unauthenticated, whatever their validity.
  const notBasic = c !== undefined && (c.scheme !== 'basic' || c.wellFormedBasic === false);
  // Or Basic credentials the target never issued (a wrong secret key): only the log of an active run knows.
  const unauthenticated = withoutCredentials(s) || notBasic || s.authority === 'made-up';
  const configured = s.authority === 'configured';
  const answers400 = is2xx(status) || status === 400 || configured;
  if (missing.length && basic && answers400) v.verify('OP8-HEADER-REQUIRED-400', status_code_conformance(s.res, 400));
  if (!missing.length && badBody && basic && answers400) v.verify('OP8-BODY-400', status_code_conformance(s.res, 400));
  if (!missing.length && !badBody && unauthenticated && (is2xx(status) || is4xx(status)))
    v.verify('OP8-AUTH-401', status_code_conformance(s.res, 401));
  const institutionId = header(s.x.requestHeaders, 'institutionId');
  const numeric = institutionId === undefined || /^\d+$/.test(institutionId.trim());
  if (!numeric && basic && (is2xx(status) || is4xx(status)))
    v.verify(
      'OP8-INSTITUTIONID-NUMERIC',
      not_served(
        s.res,
        `institutionId ${JSON.stringify(institutionId)} is not the ` + `"Numeric unique identifier of the FI"`,
      ),
    );
  const asDocumented = !missing.length && !badBody && basic && s.authority !== 'made-up';
  if (asDocumented && is2xx(status)) {
    v.verify('OP8-REQUEST', status_code_conformance(s.res, 200));
    v.verify('CONV-JSON-BODIES', json_object_body(s.res));
    v.verify('OP8-RESPONSE-TOKEN-RECORD', schema_conformance(s.res, 'token-record'));
  } else if (asDocumented && numeric && configured) v.verify('OP8-REQUEST', status_code_conformance(s.res, 200));
  if (status === 400 || status === 401) {
    v.verify('CONV-JSON-BODIES', json_object_body(s.res));
    v.verify('OP8-ERROR-SHAPE', schema_conformance(s.res, 'token-revocation-error'));
    const errorType = (s.res.json as { errorInfo?: { errorType?: unknown } } | undefined)?.errorInfo?.errorType;
    if (errorType !== undefined)
      v.verify('OP8-ERROR-TYPE-VALUES', shown_value(errorType, SHOWN.tokenErrorType, 'errorInfo.errorType', s.res));
  }
  revocationServerError(s, v);
}

/** The per-exchange rules of this file's operations; harness/rules/exchange-rules.ts gathers every area's. */
export const REVOCATION_RULES: OperationRules = { revokeToken };
