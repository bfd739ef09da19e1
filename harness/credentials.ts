import { contactInfoAuthHeaders, type TargetConfig } from './config';
import { variantOf } from './credential-variants';

/**
 * The configured credentials a request can carry, named so that a run can say which one the target
 * refused. A request carries a credential only when it holds it exactly as the suite sends it for a
 * served request (a made-up or deliberately broken credential carries none).
 */
export type CredentialId = 'bearer' | 'transfers' | 'revocation' | 'contactInfo';

/** Where the operator sets each credential: the variable first, then the configuration key. */
export const CREDENTIAL_SOURCES: Record<CredentialId, string> = {
  bearer: 'DBSI_BEARER_TOKEN (credentials.bearerToken)',
  transfers: 'DBSI_TRANSFERS_TOKEN (credentials.transfersToken)',
  revocation: 'DBSI_REVOCATION_CLIENT_ID and DBSI_REVOCATION_CLIENT_SECRET (credentials.revocationClientId/Secret)',
  contactInfo: 'DBSI_CONTACT_INFO_HEADERS (credentials.contactInfoHeaders)',
};

const scheme = (value: string | undefined, name: string): string | undefined => {
  const m = /^(\S+)\s+(.*)$/.exec(value ?? '');
  return m && m[1]!.toLowerCase() === name ? m[2] : undefined;
};

/**
 * The configured credentials the request headers carry, exactly as configured. `operation`: the documented operation
 * the request is sent to. The contact-info operation's credentials may be configured as none at all
 * (credentials.contactInfoHeaders `{}`: "Authentication of the contact-info operations: not shown"); a request to it
 * without an Authorization header then carries them as configured, so that it proves them when served, is blamed on
 * them when refused, and is the run's own write wherever the log is asked what the run changed.
 */
export function credentialsCarried(
  cfg: TargetConfig,
  headers: Record<string, string>,
  operation?: string,
): CredentialId[] {
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const c = cfg.credentials;
  const bearer = scheme(lower.get('authorization'), 'bearer');
  const basic = scheme(lower.get('authorization'), 'basic');
  const out: CredentialId[] = [];
  if (bearer !== undefined && bearer === c.bearerToken) out.push('bearer');
  if (bearer !== undefined && bearer === c.transfersToken) out.push('transfers');
  if (basic !== undefined && c.revocationClientId !== undefined && c.revocationClientSecret !== undefined) {
    const expected = Buffer.from(`${c.revocationClientId}:${c.revocationClientSecret}`).toString('base64');
    if (basic === expected) out.push('revocation');
  }
  const ci = Object.entries(c.contactInfoHeaders ?? {});
  if (ci.length > 0 && ci.every(([k, v]) => lower.get(k.toLowerCase()) === v)) out.push('contactInfo');
  const noneConfigured = Object.keys(contactInfoAuthHeaders(cfg)).length === 0;
  if (operation === 'updateContactInfo' && noneConfigured && !lower.has('authorization')) out.push('contactInfo');
  return out;
}

/**
 * The configured credentials whose near variant (harness/credential-variants.ts: another letter case, cut short,
 * extended) the request carries instead of the credential itself: served, the variant is the control that varies one
 * value of a credential the target refused as configured (harness/setup/proof.ts).
 */
export function nearVariantsCarried(cfg: TargetConfig, headers: Record<string, string>): CredentialId[] {
  const auth = Object.entries(headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
  const c = cfg.credentials;
  const bearer = scheme(auth, 'bearer');
  const basic = scheme(auth, 'basic');
  const near = (secret: string | undefined, value: string | undefined) =>
    !!secret && value !== undefined && variantOf(secret, value) !== undefined;
  const out: CredentialId[] = [];
  if (near(c.bearerToken, bearer)) out.push('bearer');
  if (near(c.transfersToken, bearer)) out.push('transfers');
  if (basic !== undefined && c.revocationClientId !== undefined) {
    const pair = Buffer.from(basic, 'base64').toString('utf8');
    const prefix = `${c.revocationClientId}:`;
    if (pair.startsWith(prefix) && near(c.revocationClientSecret, pair.slice(prefix.length))) out.push('revocation');
  }
  return out;
}

/**
 * The request carries the configured valid token that lacks authorization to create transfers
 * (credentials.transfersForbiddenToken), exactly as configured, and none of the credentials above.
 */
export function carriesForbiddenToken(cfg: TargetConfig, headers: Record<string, string>): boolean {
  const authorization = Object.entries(headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
  const token = cfg.credentials.transfersForbiddenToken;
  return !!token && scheme(authorization, 'bearer') === token && credentialsCarried(cfg, headers).length === 0;
}
