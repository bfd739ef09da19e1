import type { Faker } from '@faker-js/faker';
import type { TargetConfig } from '../harness/config';
import type { NearVariant } from '../harness/credential-variants';
import { nearOf } from './disclosures';

/**
 * Which credentials a revocation request carries: valid Basic, none, the shared key with a wrong secret
 * key, another scheme (a made-up Bearer token), malformed Basic (not the base64 of "key:secret"), or
 * the shared key alone (no secret key after the colon).
 */
export type BasicCredentials =
  | 'valid'
  | 'none'
  | 'wrong'
  | 'bearer'
  | 'malformed'
  | 'shared-key-alone'
  | `near-${NearVariant}`;

/** The required headers of operation 8, as the spec writes their names. */
export type RevocationHeader = 'institutionId' | 'transactionId' | 'Content-Type';
/** Its header marked "Required: no". */
export type OptionalRevocationHeader = 'Accept';

/** "the word Basic, a space, then the base64 encoding of the shared key, a colon and the secret key". */
export function basicAuthorization(sharedKey: string, secretKey: string): string {
  return `Basic ${Buffer.from(`${sharedKey}:${secretKey}`).toString('base64')}`;
}

/**
 * Operation 8's headers, under the names the spec writes: Accept (optional), institutionId,
 * transactionId, Content-Type, Authorization. `omit` leaves one header out (a required one, or Accept).
 */
export function revocationHeaders(
  f: Faker,
  cfg: TargetConfig,
  o: {
    credentials?: BasicCredentials;
    omit?: RevocationHeader | OptionalRevocationHeader;
    institutionId?: string;
  } = {},
): Record<string, string> {
  const c = cfg.credentials;
  const h: Record<string, string> = {
    Accept: 'application/json',
    institutionId: o.institutionId ?? cfg.testData.revocation.institutionId,
    transactionId: f.string.uuid(),
    'Content-Type': 'application/json',
  };
  const credentials = o.credentials ?? 'valid';
  if (credentials === 'valid')
    h.Authorization = basicAuthorization(c.revocationClientId ?? '', c.revocationClientSecret ?? '');
  // The configured shared key with a secret key nobody issued: only the secret is wrong.
  if (credentials === 'wrong')
    h.Authorization = basicAuthorization(
      c.revocationClientId ?? 'dbsi-conformance',
      `wrong-${f.string.alphanumeric(20)}`,
    );
  // Never the configured bearer token: a faulty target that honoured it might revoke it.
  if (credentials === 'bearer') h.Authorization = `Bearer dbsi-conformance-${f.string.alphanumeric(24)}`;
  // "Basic" and a token that is not base64 at all.
  if (credentials === 'malformed') h.Authorization = `Basic %%${f.string.alphanumeric(12)}%%`;
  if (credentials === 'shared-key-alone')
    h.Authorization = basicAuthorization(c.revocationClientId ?? 'dbsi-conformance', '');
  // The configured shared key with a near variant of the secret key (credential-variants.ts).
  if (credentials.startsWith('near-'))
    h.Authorization = basicAuthorization(
      c.revocationClientId ?? 'dbsi-conformance',
      nearOf(c.revocationClientSecret, credentials.slice(5) as NearVariant),
    );
  if (o.omit) delete h[o.omit];
  return h;
}

/** The Token request body the configuration supplies (testData.revocation without institutionId). */
export function configuredRevocationBody(cfg: TargetConfig): Record<string, string> {
  const { institutionId: _header, ...body } = cfg.testData.revocation;
  return Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/**
 * The body of a request that is meant to be refused: the configured members, with the secrets
 * (password, refresh_token) replaced by values nobody issued. A faulty target that serves the request
 * anyway revokes nothing real: the run sends at most one request that can revoke the configured token.
 */
export function decoyRevocationBody(f: Faker, cfg: TargetConfig, runId: string): Record<string, string> {
  const body = configuredRevocationBody(cfg);
  const decoy: Record<string, string> = {
    ...body,
    refresh_token: `dbsi-conformance-decoy-${runId}-${f.string.alphanumeric(16)}`,
  };
  if (body.password !== undefined) decoy.password = `decoy-${f.string.alphanumeric(16)}`;
  return decoy;
}
