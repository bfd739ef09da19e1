import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from '../fixtures';
import { dressed, INVALID_JSON, json, type Req, type Res } from '../http';
import type { AreaContext, AreaRoutes } from './types';

const { revocationClientId, revocationClientSecret } = REFERENCE_CREDENTIALS;
const BASIC = `Basic ${Buffer.from(`${revocationClientId}:${revocationClientSecret}`).toString('base64')}`;
const TOKEN_REQUEST_MEMBERS = ['grant_type', 'username', 'password', 'scopes', 'refresh_token'];

/**
 * Operation 8: DELETE /oauth2/v1/revoke. Revocation is idempotent, as in RFC 7009: revoking a token
 * that is already revoked, or was never issued, is answered 200 too, so repeated runs are stable.
 */
export function authenticationArea(ctx: AreaContext): AreaRoutes {
  return {
    base: 'authBaseUrl',
    routes: [{ method: 'DELETE', path: '/oauth2/v1/revoke', handler: (req) => revoke(ctx, req) }],
  };
}

/** The token error record of the spec (or, with a fault, a shape the spec does not show). */
function tokenError(ctx: AreaContext, status: number, errorCode: string, errorMessage: string): Res {
  if (ctx.fault('op8-errors-code-message')) return json(status, { code: errorCode, message: errorMessage });
  if (ctx.fault('op8-extra-members-charset'))
    return json(status, {
      timestamp: '2026-01-02T03:04:05Z',
      errorInfo: { traceId: 'trace-1', errorMessage, errorCode, errorType: 'USER_ERROR' },
      statusMessage: 'Error',
    });
  if (ctx.fault('op8-undocumented-error-shape'))
    return json(status, { error: errorCode.toLowerCase(), error_description: errorMessage });
  const errorType = ctx.fault('op8-unlisted-error-type') ? 'CLIENT_ERROR' : 'USER_ERROR';
  return json(status, {
    statusMessage:
      ({ 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden' } as Record<number, string>)[status] ?? 'Error',
    errorInfo: { errorType, errorCode, errorMessage },
  });
}

/** Faults that let credentials through which are not the shared key and secret key in HTTP Basic. */
function faultyAcceptance(ctx: AreaContext, auth: string): boolean {
  const m = /^Basic\s+(.*)$/i.exec(auth);
  if (!m) return ctx.fault('op8-accepts-any-scheme');
  const token = m[1]!.trim();
  const decoded = /^[A-Za-z0-9+/]+={0,2}$/.test(token) ? Buffer.from(token, 'base64').toString('utf8') : undefined;
  if (decoded === undefined || !decoded.includes(':')) return ctx.fault('op8-accepts-malformed-basic');
  // A comparison of as many characters as were sent: the secret key cut short passes.
  const secret = decoded.slice(decoded.indexOf(':') + 1);
  if (
    ctx.fault('op8-secret-prefix-match') &&
    decoded.startsWith(`${REFERENCE_CREDENTIALS.revocationClientId}:`) &&
    secret.length >= 8 &&
    REFERENCE_CREDENTIALS.revocationClientSecret.startsWith(secret)
  )
    return true;
  return decoded === `${REFERENCE_CREDENTIALS.revocationClientId}:` && ctx.fault('op8-accepts-shared-key-alone');
}

function revoke(ctx: AreaContext, req: Req): Res {
  if (ctx.fault('op8-revoke-post-only')) return json(405, { error: 'method not allowed' }, { allow: 'POST' });
  const answer = revokeAnswer(ctx, req);
  return ctx.fault('op8-extra-members-charset') ? dressed(answer, {}, true) : answer;
}

function revokeAnswer(ctx: AreaContext, req: Req): Res {
  const { state } = ctx;
  state.seenRequests.push({ path: req.path, headerNames: req.rawHeaderNames, text: req.text });
  const refused = refusedCredentials(ctx, req) ?? refusedHeaders(ctx, req) ?? refusedBody(ctx, req);
  if (refused) return refused;
  const body = (req.body === INVALID_JSON || req.body === undefined ? {} : req.body) as Record<string, unknown>;
  const token = typeof body.refresh_token === 'string' ? body.refresh_token : '';
  if (state.refusesUnknownRefreshTokens && !state.liveRefreshTokens.has(token))
    return tokenError(ctx, 400, 'INVALID_GRANT', 'the refresh token is not valid');
  state.liveRefreshTokens.delete(token);
  if (ctx.fault('op8-revoke-answers-204')) return { status: 204 };
  return tokenRecord(ctx, req, body);
}

function refusedCredentials(ctx: AreaContext, req: Req): Res | undefined {
  const auth = req.headers['authorization'];
  if (!auth) {
    if (!ctx.fault('op8-serves-without-credentials'))
      return tokenError(ctx, 401, 'AUTH_MISSING', 'HTTP Basic credentials are required');
  } else if (auth !== BASIC && !faultyAcceptance(ctx, auth)) {
    return tokenError(
      ctx,
      ctx.fault('op8-wrong-credentials-403') ? 403 : 401,
      'AUTH_INVALID',
      'the shared key and secret key are not valid',
    );
  }
  return undefined;
}

function refusedHeaders(ctx: AreaContext, req: Req): Res | undefined {
  const required: Array<[string, string]> = [
    ['institutionid', 'institutionId'],
    ['transactionid', 'transactionId'],
    ['content-type', 'Content-Type'],
  ];
  for (const [lower, name] of required) {
    if (req.headers[lower] === undefined && !ctx.fault(`op8-accepts-missing-${name}`))
      return tokenError(ctx, 400, 'HEADER_MISSING', `the ${name} header is required`);
  }
  // A real vendor's documented deviation: the token endpoints take form-encoded bodies only.
  if (ctx.fault('op8-refuses-json-media-type') && /json/i.test(req.headers['content-type'] ?? ''))
    return tokenError(
      ctx,
      400,
      'UNSUPPORTED_MEDIA_TYPE',
      'Content-Type application/json is not supported: send application/x-www-form-urlencoded',
    );
  const institutionId = req.headers['institutionid'];
  if (
    institutionId !== undefined &&
    !/^[0-9]+$/.test(institutionId) &&
    !ctx.fault('op8-accepts-non-numeric-institutionId')
  ) {
    return ctx.fault('op8-unknown-institution-404')
      ? { status: 404 }
      : tokenError(ctx, 400, 'HEADER_INVALID', 'institutionId is the numeric ' + 'identifier of the FI');
  }
  return undefined;
}

function refusedBody(ctx: AreaContext, req: Req): Res | undefined {
  // The additional code/message shape the spec shows with this operation.
  if (req.body === INVALID_JSON && !ctx.fault('op8-accepts-mistyped-body'))
    return json(
      400,
      ctx.fault('op8-undocumented-error-shape')
        ? { error: 'invalid_body' }
        : ctx.fault('op8-extra-members-charset')
          ? { details: ['line 1'], message: 'the body is not JSON', code: 'INVALID_BODY' }
          : { code: 'INVALID_BODY', message: 'the body is not JSON' },
    );
  const body = (req.body === INVALID_JSON || req.body === undefined ? {} : req.body) as Record<string, unknown>;
  const mistyped =
    typeof body !== 'object' ||
    body === null ||
    Array.isArray(body) ||
    TOKEN_REQUEST_MEMBERS.some((m) => body[m] !== undefined && typeof body[m] !== 'string');
  if (mistyped && !ctx.fault('op8-accepts-mistyped-body'))
    return tokenError(ctx, 400, 'BODY_INVALID', 'the body does not match the token request body');
  return undefined;
}

function tokenRecord(ctx: AreaContext, req: Req, body: Record<string, unknown>): Res {
  const record: Record<string, unknown> = {
    expires_in: '0',
    di_fiid: req.headers['institutionid'] ?? REFERENCE_TEST_DATA.institutionId,
    di_ficustomer: typeof body.username === 'string' ? body.username : '',
    access_token: '',
    refresh_token: '',
    refresh_token_expires_in: '0',
  };
  if (ctx.fault('op8-empty-token-record')) return json(200, {});
  if (ctx.fault('op8-extra-members-charset')) Object.assign(record, { token_type: 'Bearer', revoked: true });
  if (ctx.fault('op8-token-record-numbers')) {
    record.expires_in = 0;
    record.refresh_token_expires_in = 0;
  }
  return json(200, record);
}
