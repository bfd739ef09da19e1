import { REFERENCE_CREDENTIALS } from '../fixtures';
import { INVALID_JSON, json, type Req, type Res } from '../http';
import type { Next } from './holdout';
import { isJson, served } from './holdout-disclosures';
import type { AreaContext } from './types';

/** The third hold-out set's faults of operations 8–10 (reference-target/faults/holdout3-others.ts). */

const { revocationClientId, revocationClientSecret, transfersToken, transfersForbiddenToken } = REFERENCE_CREDENTIALS;
const BASIC = `Basic ${Buffer.from(`${revocationClientId}:${revocationClientSecret}`).toString('base64')}`;
const TOKEN_REQUEST_MEMBERS = ['grant_type', 'username', 'password', 'scopes', 'refresh_token'];
const HTML_500: Res = {
  status: 500,
  headers: { 'content-type': 'text/html' },
  body: '<html><body><h1>500 Internal Server Error</h1></body></html>',
};

export function holdout3Revoke(ctx: AreaContext) {
  const f = ctx.fault;
  /** ho3-op8-wrong-secret-after-success: once served, the shared key is cached and the secret no longer compared. */
  let keyCached = false;
  /** ho3-op8-repeat-revoke-plain-500: the refresh tokens revoked. */
  const revoked = new Set<string>();
  return async (req: Req, next: Next): Promise<Res> => {
    const basic = /^Basic\s+(.+)$/i.exec(req.headers['authorization'] ?? '')?.[1];
    const decoded = basic ? Buffer.from(basic, 'base64').toString('utf8') : '';
    if (keyCached && decoded.startsWith(`${revocationClientId}:`) && f('ho3-op8-wrong-secret-after-success'))
      req.headers['authorization'] = BASIC;
    const answer = await next();
    const body = isJson(req.body) ? req.body : undefined;
    const token = typeof body?.refresh_token === 'string' && body.refresh_token ? body.refresh_token : undefined;
    const none = !body || TOKEN_REQUEST_MEMBERS.every((m) => body[m] === undefined);
    // Variant op8-refuses-body-without-members: "Which body fields are required: not shown".
    if (served(answer) && none && f('op8-refuses-body-without-members'))
      return json(400, {
        statusMessage: 'Bad Request',
        errorInfo: { errorType: 'USER_ERROR', errorCode: 'BODY_EMPTY', errorMessage: 'name the token to revoke' },
      });
    // Variant op8-repeat-revoke-500-code-message: a token revoked already is an unexpected fault, answered in the
    // additional code and message shape.
    if (served(answer) && token && revoked.has(token) && f('op8-repeat-revoke-500-code-message'))
      return json(500, { code: 'TOKEN_NOT_ACTIVE', message: 'the token was revoked already' });
    if (
      answer.status === 400 &&
      req.headers['content-type'] === undefined &&
      f('ho3-op8-missing-content-type-bare-400')
    )
      return json(400, { statusMessage: 'Bad Request' });
    if (!served(answer)) return answer;
    keyCached = true;
    // The second revocation of a token finds no session to end, and the unhandled case answers the server's page.
    if (token && revoked.has(token) && f('ho3-op8-repeat-revoke-plain-500')) return { ...HTML_500 };
    if (token) revoked.add(token);
    if (none && f('ho3-op8-empty-body-500-html')) return { ...HTML_500 };
    return answer;
  };
}

export function holdout3Transfer(ctx: AreaContext) {
  const f = ctx.fault;
  let invalidSeen = false;
  let forbiddenSeen = false;
  return async (req: Req, next: Next): Promise<Res> => {
    const auth = req.headers['authorization'] ?? '';
    const bearer = /^Bearer\s+(.+)$/i.exec(auth)?.[1];
    // A gateway that lets Basic credentials through to a back end that trusts the gateway.
    if (/^Basic\s+\S/i.test(auth) && f('ho3-op9-basic-credential-accepted'))
      req.headers['authorization'] = `Bearer ${transfersToken}`;
    // The authorization is looked up once; the refusal fills a cache that then says "known token".
    if (bearer === transfersForbiddenToken && forbiddenSeen && f('ho3-op9-forbidden-token-served-second-time'))
      req.headers['authorization'] = `Bearer ${transfersToken}`;
    const answer = await next();
    if (answer.status === 403 && bearer === transfersForbiddenToken) forbiddenSeen = true;
    if (answer.status === 401 && auth !== '') {
      // A lock-out counter: an invalid token is "unauthorized" from its second refusal on.
      if (invalidSeen && f('ho3-op9-invalid-token-403-after-first')) return { ...answer, status: 403 };
      invalidSeen = true;
    }
    if (answer.status === 400 && req.body === INVALID_JSON && f('ho3-op9-malformed-json-plain-400'))
      return { status: 400, headers: { 'content-type': 'text/plain' }, body: 'Bad Request' };
    const t = answer.body;
    const emptyMemo = isJson(req.body) && req.body.memo === '';
    // Variant op9-refuses-empty-memo: which memos a target takes is not shown.
    if (served(answer) && emptyMemo && f('op9-refuses-empty-memo'))
      return json(400, { code: 'INVALID_FIELD', message: 'memo must not be empty' });
    if (served(answer) && isJson(t) && emptyMemo && f('ho3-op9-empty-memo-null')) t.memo = null;
    return answer;
  };
}

export function holdout3Contact(ctx: AreaContext) {
  const { state } = ctx;
  const f = ctx.fault;
  return async (req: Req, next: Next): Promise<Res> => {
    const id = req.params.customerId!;
    const c = state.customers.get(id);
    const was = c ? { phoneNumber: c.phoneNumber, countryCode: c.countryCode } : undefined;
    const b = isJson(req.body) ? req.body : undefined;
    const p = isJson(b?.phoneNumber) ? b.phoneNumber : undefined;
    const answer = await next();
    if (!c || !was || !p) return answer;
    const mismatched = typeof p.oldPhoneNumber === 'string' && p.oldPhoneNumber !== was.phoneNumber;
    if (!served(answer)) {
      // The refusal is answered after the write, which is not rolled back.
      const refusedAsMismatch = answer.status === 409 || answer.status === 422;
      if (
        mismatched &&
        refusedAsMismatch &&
        typeof p.newPhoneNumber === 'string' &&
        f('ho3-op10-refused-change-applies')
      ) {
        c.phoneNumber = p.newPhoneNumber;
        if (typeof p.newCountryCode === 'string') c.countryCode = p.newCountryCode;
      }
      return answer;
    }
    const lost =
      (b?.userIdType === 'LOGIN_ID' && f('ho3-op10-login-id-phone-not-stored')) ||
      (b?.email !== undefined && b?.postalAddress === undefined && f('ho3-op10-phone-with-email-not-stored'));
    if (lost) Object.assign(c, was);
    return answer;
  };
}
