import { nearVariantValues } from './credential-variants';
import { ConfigError, SECRET_ENV, type TargetConfig } from './config-model';
import { HEADER_NAME, headerValueProblem, secretProblem, type NamedSecret } from './secrets';

/* The configuration's secrets, named where they were set, what redaction hides, and their checks. */

/** Header values the suite sends from the configuration, by key (each must be a valid HTTP header value). */
function headerValuesOf(cfg: TargetConfig): Array<[string, string | undefined]> {
  return [
    ['callingAppId', cfg.callingAppId],
    ['testData.institutionId', cfg.testData.institutionId],
    ['testData.disclosure.institutionDisclosureId', cfg.testData.disclosure?.institutionDisclosureId],
    ['testData.disclosure.institutionDisclosureName', cfg.testData.disclosure?.institutionDisclosureName],
    ['credentials.revocationClientId', cfg.credentials.revocationClientId],
  ];
}

/** Every configured secret, named where it was set: the environment variable, else the configuration key. */
export function namedSecrets(cfg: TargetConfig, env: NodeJS.ProcessEnv = {}): NamedSecret[] {
  const fromEnv = (name: keyof typeof SECRET_ENV) => (env[name] ? name : `"${SECRET_ENV[name]}"`);
  const c = cfg.credentials;
  const out: Array<{ name: string; value: string | undefined }> = [
    { name: fromEnv('DBSI_BEARER_TOKEN'), value: c.bearerToken },
    { name: fromEnv('DBSI_TRANSFERS_TOKEN'), value: c.transfersToken },
    { name: fromEnv('DBSI_TRANSFERS_FORBIDDEN_TOKEN'), value: c.transfersForbiddenToken },
    { name: fromEnv('DBSI_REVOCATION_CLIENT_SECRET'), value: c.revocationClientSecret },
    { name: fromEnv('DBSI_REVOCATION_PASSWORD'), value: cfg.testData.revocation.password },
    { name: fromEnv('DBSI_REVOCATION_REFRESH_TOKEN'), value: cfg.testData.revocation.refresh_token },
  ];
  for (const [h, v] of Object.entries(c.contactInfoHeaders ?? {})) {
    const name = `${fromEnv('DBSI_CONTACT_INFO_HEADERS')} header ${JSON.stringify(h)}`;
    const credential = v.replace(/^(Bearer|Basic|Token|Digest)\s+/i, '');
    out.push({ name, value: credential });
  }
  if (cfg.http.proxyUrl) {
    const u = new URL(cfg.http.proxyUrl);
    if (u.password) out.push({ name: 'the password of "http.proxyUrl"', value: decodeURIComponent(u.password) });
  }
  return out.filter((s): s is NamedSecret => typeof s.value === 'string' && s.value !== '');
}

/**
 * The configured secrets a request body carries (the Token request body of revocation), by the environment
 * variable a curl line replays each from.
 */
export function bodySecrets(cfg: TargetConfig): Record<string, string> {
  const { password, refresh_token } = cfg.testData.revocation;
  return Object.fromEntries(
    Object.entries({ DBSI_REVOCATION_PASSWORD: password, DBSI_REVOCATION_REFRESH_TOKEN: refresh_token }).filter(
      (e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '',
    ),
  );
}

/**
 * Secrets and header values are checked as HTTP header values first (CR, LF, NUL, other controls,
 * characters outside Latin-1, surrounding white space), and secrets for their length: each problem
 * names the variable or key.
 */
export function checkSecrets(cfg: TargetConfig, env: NodeJS.ProcessEnv): void {
  for (const [h, v] of Object.entries(cfg.credentials.contactInfoHeaders ?? {})) {
    const name =
      `${env.DBSI_CONTACT_INFO_HEADERS ? 'DBSI_CONTACT_INFO_HEADERS' : '"credentials.contactInfoHeaders"'} ` +
      `header ${JSON.stringify(h)}`;
    if (!HEADER_NAME.test(h)) throw new ConfigError(`${name} is not a valid HTTP header name`);
    const p = headerValueProblem(v);
    if (p) throw new ConfigError(`${name}: its value ${p}`);
  }
  for (const [key, v] of headerValuesOf(cfg)) {
    const p = v === undefined ? undefined : headerValueProblem(v);
    if (p) throw new ConfigError(`"${key}" ${p}`);
  }
  if (cfg.credentials.revocationClientId?.includes(':'))
    throw new ConfigError(
      `${env.DBSI_REVOCATION_CLIENT_ID ? 'DBSI_REVOCATION_CLIENT_ID' : '"credentials.revocationClientId"'} ` +
        `contains ":", which HTTP Basic authentication cannot carry in the shared key (RFC 7617)`,
    );
  for (const s of namedSecrets(cfg, env)) {
    const p = secretProblem(s.value);
    if (p) throw new ConfigError(`${s.name} ${p}`);
  }
  const { transfersToken, transfersForbiddenToken } = cfg.credentials;
  if (transfersForbiddenToken !== undefined && transfersForbiddenToken === transfersToken) {
    const named = (['DBSI_TRANSFERS_TOKEN', 'DBSI_TRANSFERS_FORBIDDEN_TOKEN'] as const).map((v) =>
      env[v] ? v : `"${SECRET_ENV[v]}"`,
    );
    throw new ConfigError(
      `${named.join(' and ')} are the same token: the token that lacks authorization ` +
        'must be a different one ("a valid token that lacks authorization" answers 403), or leave it unset',
    );
  }
}

/** The headers the contact-info operation sends for authentication (not shown in the spec). */
export function contactInfoAuthHeaders(cfg: TargetConfig): Record<string, string> {
  return (
    cfg.credentials.contactInfoHeaders ??
    (cfg.credentials.bearerToken ? { Authorization: `Bearer ${cfg.credentials.bearerToken}` } : {})
  );
}

/** Every secret value in the configuration: what redaction hides and what the leak scans look for. */
export function secretValues(cfg: TargetConfig): string[] {
  return [...new Set(scannedSecrets(cfg).map((s) => s.value))];
}

/**
 * Every value redaction hides and the evidence scan looks for, named: the configured secrets, and
 * the values built from them (the Basic header of the revocation credentials, whole contact-info
 * header values, the proxy's Basic credentials).
 */
export function scannedSecrets(cfg: TargetConfig, env: NodeJS.ProcessEnv = {}): NamedSecret[] {
  const c = cfg.credentials;
  const out = namedSecrets(cfg, env);
  if (c.revocationClientId && c.revocationClientSecret)
    out.push({
      name: 'the Basic credentials of the revocation ' + 'client (id:secret, base64)',
      value: Buffer.from(`${c.revocationClientId}:${c.revocationClientSecret}`).toString('base64'),
    });
  for (const [h, v] of Object.entries(c.contactInfoHeaders ?? {}))
    out.push({ name: `the contact-info header ${JSON.stringify(h)}`, value: v });
  // The near variants the authentication cases send (harness/credential-variants.ts): each gives its secret away.
  for (const [name, secret] of [
    ['DBSI_BEARER_TOKEN', c.bearerToken],
    ['DBSI_TRANSFERS_TOKEN', c.transfersToken],
    ['DBSI_REVOCATION_CLIENT_SECRET', c.revocationClientSecret],
  ] as const)
    for (const value of secret ? nearVariantValues(secret) : [])
      out.push({ name: `a near variant of ${name} (one letter off)`, value });
  if (cfg.http.proxyUrl) {
    const u = new URL(cfg.http.proxyUrl);
    if (u.password)
      out.push({
        name: 'the Basic credentials of "http.proxyUrl"',
        value: Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64'),
      });
  }
  return out.filter((s) => s.value.length >= 4);
}
