import {
  configuredRevocationBody,
  decoyRevocationBody,
  revocationHeaders,
  type BasicCredentials,
  type OptionalRevocationHeader,
  type RevocationHeader,
} from '../../data-builders/authentication';
import { NEAR_VARIANTS, NEAR_VARIANT_WORDS, nearVariant, type NearVariant } from '../../harness/credential-variants';
import type { CaseContext, CaseDef } from '../../harness/case';
import { feature } from '../../harness/case';
import type { HttpResult } from '../../harness/http/client';

/**
 * Operation 8: DELETE {authBaseUrl}/oauth2/v1/revoke. Revocation is destructive: only the first case
 * sends the configured Token request body; every other request is built to be refused and carries
 * decoy secrets, so a target that wrongly serves it revokes nothing real.
 */

export const ERROR_CHECKS = ['CONV-JSON-BODIES', 'CONV-JSON-MEDIA-TYPE', 'OP8-ERROR-SHAPE', 'OP8-ERROR-TYPE-VALUES'];

/**
 * The one request that can succeed relies on the configured Token request body (a refresh token
 * that is still valid, the user's password): refused, it may be theirs (harness/setup/proof.ts).
 */
const REVOCATION_DATA =
  'testData.revocation (DBSI_REVOCATION_REFRESH_TOKEN, ' + 'DBSI_REVOCATION_PASSWORD: a fresh token each run)';

export function revoke(
  t: CaseContext,
  o: {
    credentials?: BasicCredentials;
    omit?: RevocationHeader | OptionalRevocationHeader;
    institutionId?: string;
    body: unknown;
    label: string;
    relies?: string[];
  },
): Promise<HttpResult> {
  return t.send({
    operation: 'revokeToken',
    headers: revocationHeaders(t.faker, t.config, o),
    body: o.body,
    label: o.label,
    relies: o.relies,
  });
}

/**
 * The requirements an answer to a request built to be refused is held to: the rule it breaks (the status
 * the spec documents), then, where the answer is a status that documents its body (400, 401), the body:
 * JSON, one of the two shapes, and errorType where the answer gives one.
 */
export function judgeRefusal(t: CaseContext, res: HttpResult, requirementId: string): void {
  t.judge(res, requirementId, ...errorBody(res));
}

function errorBody(res: HttpResult): string[] {
  if (res.status !== 400 && res.status !== 401) return [];
  const errorType = (res.json as { errorInfo?: { errorType?: unknown } } | undefined)?.errorInfo?.errorType;
  return errorType === undefined ? ['CONV-JSON-BODIES', 'CONV-JSON-MEDIA-TYPE', 'OP8-ERROR-SHAPE'] : ERROR_CHECKS;
}

const secretKeyVariant = (kind: NearVariant) => NEAR_VARIANT_WORDS[kind].replace('credential', 'secret key');

export const decoy = (t: CaseContext) => decoyRevocationBody(t.faker, t.config, t.settings.runId);

/** A request whose Authorization is not valid HTTP Basic with the shared and secret key is unauthenticated. */
function unauthenticatedCase(title: string, credentials: BasicCredentials, label: string): CaseDef {
  return {
    title: `answers 401 with a documented error body ${title}`,
    requirements: ['OP8-AUTH-401', ...ERROR_CHECKS],
    async run(t) {
      judgeRefusal(t, await revoke(t, { credentials, body: decoy(t), label }), 'OP8-AUTH-401');
    },
  };
}

function missingHeaderCase(header: RevocationHeader): CaseDef {
  return {
    title: `answers 400 with a documented error body when the ${header} header is missing`,
    requirements: ['OP8-HEADER-REQUIRED-400', ...ERROR_CHECKS],
    async run(t) {
      // The body is sent as a string so that no client adds a Content-Type of its own.
      const res = await revoke(t, { omit: header, body: JSON.stringify(decoy(t)), label: `revoke without ${header}` });
      judgeRefusal(t, res, 'OP8-HEADER-REQUIRED-400');
    },
  };
}

export default feature('authentication', 'revokeToken', [
  {
    title: 'revokes the configured token: 200 with a token record of string members',
    requirements: ['OP8-REQUEST', 'CONV-JSON-BODIES', 'CONV-JSON-MEDIA-TYPE', 'OP8-RESPONSE-TOKEN-RECORD'],
    async run(t) {
      const res = await revoke(t, {
        body: configuredRevocationBody(t.config),
        label: 'revoke the configured token',
        relies: [REVOCATION_DATA],
      });
      t.judge(res, 'OP8-REQUEST', 'CONV-JSON-BODIES', 'CONV-JSON-MEDIA-TYPE', 'OP8-RESPONSE-TOKEN-RECORD');
    },
  },
  unauthenticatedCase('without Basic credentials', 'none', 'revoke without Authorization'),
  unauthenticatedCase('when the secret key is wrong', 'wrong', 'revoke with a wrong secret key'),
  unauthenticatedCase('to another scheme (a Bearer token)', 'bearer', 'revoke with a Bearer token'),
  unauthenticatedCase(
    'to malformed Basic credentials',
    'malformed',
    'revoke with Basic credentials that are not base64',
  ),
  unauthenticatedCase('to the shared key alone', 'shared-key-alone', 'revoke with the shared key and no secret key'),
  // One test per near variant of the secret key (harness/credential-variants.ts), one request each.
  ...NEAR_VARIANTS.map(
    (kind): CaseDef => ({
      title: `answers 401 with a documented error body to ${secretKeyVariant(kind)}`,
      requirements: ['OP8-AUTH-401', ...ERROR_CHECKS],
      async run(t) {
        if (nearVariant(t.config.credentials.revocationClientSecret ?? '', kind) === undefined)
          t.notApplicable('the configured secret key is hexadecimal or a UUID: its letter case may mean nothing');
        const label = `revoke with ${secretKeyVariant(kind)}`;
        judgeRefusal(t, await revoke(t, { credentials: `near-${kind}`, body: decoy(t), label }), 'OP8-AUTH-401');
      },
    }),
  ),
  {
    // Accept is "Required: no": a request without it is judged as any other, here on its credentials.
    title: 'answers 401 with a documented error body when the secret key is wrong and the optional Accept is left out',
    requirements: ['OP8-AUTH-401', ...ERROR_CHECKS],
    async run(t) {
      const label = 'revoke without Accept, with a wrong secret key';
      const res = await revoke(t, { credentials: 'wrong', omit: 'Accept', body: decoy(t), label });
      judgeRefusal(t, res, 'OP8-AUTH-401');
    },
  },
  {
    title: 'does not serve an institutionId that is not numeric',
    requirements: ['OP8-INSTITUTIONID-NUMERIC', ...ERROR_CHECKS],
    async run(t) {
      const configured = t.config.testData.revocation.institutionId;
      if (!/^[0-9]+$/.test(configured))
        t.notApplicable(
          `the configured institutionId (${JSON.stringify(configured)}) is not ` +
            `numeric itself, so a non-numeric one shows nothing`,
        );
      const institutionId = `${configured}A`;
      await t.parameter('institutionId', institutionId);
      const res = await revoke(t, { institutionId, body: decoy(t), label: 'revoke with a non-numeric institutionId' });
      // 400 and 401 document their body; any other refusal (403, 404 …) is accepted as it is.
      judgeRefusal(t, res, 'OP8-INSTITUTIONID-NUMERIC');
    },
  },
  missingHeaderCase('institutionId'),
  missingHeaderCase('transactionId'),
  missingHeaderCase('Content-Type'),
  {
    title: 'answers 400 with a documented error body when a body member has the wrong type',
    requirements: ['OP8-BODY-400', ...ERROR_CHECKS],
    async run(t) {
      const body = { ...decoy(t), grant_type: 12345 };
      await t.parameter('mistyped member', 'grant_type: a number where a string is documented');
      judgeRefusal(t, await revoke(t, { body, label: 'revoke with grant_type a number' }), 'OP8-BODY-400');
    },
  },
  {
    title: 'answers 400 with a documented error body when the body is not JSON',
    requirements: ['OP8-BODY-400', ...ERROR_CHECKS],
    async run(t) {
      const body = `grant_type=refresh_token&refresh_token=dbsi-conformance-decoy-${t.settings.runId}`;
      judgeRefusal(t, await revoke(t, { body, label: 'revoke with a form-encoded body' }), 'OP8-BODY-400');
    },
  },
]);
