/**
 * Near variants of a configured credential: what a faulty comparison lets through where a random made-up
 * credential is refused (issue 33: "a made-up identifier or token is always random, never a near variant of a
 * real one"). A target that compares case-insensitively serves the token in another letter case; one that
 * compares a prefix serves the token cut short or extended. Each variant is a secret of its own (it gives the
 * real one away but for a letter), so redaction hides it (harness/config.ts, scannedSecrets) and a curl line
 * replays it from the real one's environment variable (nearVariantShell).
 */

export type NearVariant = 'other-case' | 'cut-short' | 'extended';

export const NEAR_VARIANTS: readonly NearVariant[] = ['other-case', 'cut-short', 'extended'];

export const NEAR_VARIANT_WORDS: Record<NearVariant, string> = {
  'other-case': 'the configured credential with the case of every letter swapped',
  'cut-short': 'the configured credential without its last character',
  extended: 'the configured credential with one character appended',
};

const swapCase = (s: string) => [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');

/**
 * The variant of `secret`, or undefined where there is none that differs from it in meaning: a hexadecimal or UUID
 * value may be compared without regard to case (RFC 4122 says so of UUIDs), so it has no other-case variant.
 */
export function nearVariant(secret: string, kind: NearVariant): string | undefined {
  if (kind === 'cut-short') return secret.length > 1 ? secret.slice(0, -1) : undefined;
  if (kind === 'extended') return `${secret}${/\d$/.test(secret) ? 'x' : '0'}`;
  if (/^[0-9a-f-]+$/i.test(secret)) return undefined;
  const swapped = swapCase(secret);
  return swapped === secret ? undefined : swapped;
}

/** Every variant of a secret that exists (for redaction). */
export function nearVariantValues(secret: string): string[] {
  return NEAR_VARIANTS.map((k) => nearVariant(secret, k)).filter((v): v is string => v !== undefined);
}

/** The shell text that gives the variant of the value of environment variable `env`, for a curl line. */
export function nearVariantShell(env: string, kind: NearVariant, secret: string): string {
  if (kind === 'cut-short') return `\${${env}%?}`;
  if (kind === 'extended') return `\${${env}}${/\d$/.test(secret) ? 'x' : '0'}`;
  return `$(printf %s "$${env}" | tr 'a-zA-Z' 'A-Za-z')`;
}

/** Which variant of `secret` `value` is, if any. */
export function variantOf(secret: string | undefined, value: string): NearVariant | undefined {
  if (!secret) return undefined;
  return NEAR_VARIANTS.find((k) => nearVariant(secret, k) === value);
}

/** What nearVariantAuthorization needs of the configuration (harness/config.ts's TargetConfig has it). */
interface Configured {
  credentials: {
    bearerToken?: string;
    transfersToken?: string;
    revocationClientId?: string;
    revocationClientSecret?: string;
  };
}

/**
 * The Authorization value of a curl line, where the request carried a near variant of a configured credential: the
 * same variant of the environment variable's value, so that replaying the line sends what the run sent.
 */
export function nearVariantAuthorization(cfg: Configured, headers: Record<string, string>): string | undefined {
  const auth = Object.entries(headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1] ?? '';
  const c = cfg.credentials;
  const bearer = /^Bearer\s+(.+)$/i.exec(auth)?.[1];
  if (bearer !== undefined) {
    for (const [env, secret] of [
      ['DBSI_BEARER_TOKEN', c.bearerToken],
      ['DBSI_TRANSFERS_TOKEN', c.transfersToken],
    ] as const) {
      const kind = variantOf(secret, bearer);
      if (kind) return `Bearer ${nearVariantShell(env, kind, secret!)}`;
    }
    return undefined;
  }
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(auth)?.[1];
  if (basic === undefined || !c.revocationClientId) return undefined;
  const decoded = Buffer.from(basic, 'base64').toString('utf8');
  const prefix = `${c.revocationClientId}:`;
  if (!decoded.startsWith(prefix)) return undefined;
  const kind = variantOf(c.revocationClientSecret, decoded.slice(prefix.length));
  if (!kind) return undefined;
  const secret = nearVariantShell('DBSI_REVOCATION_CLIENT_SECRET', kind, c.revocationClientSecret!);
  return `Basic $(printf %s "$DBSI_REVOCATION_CLIENT_ID:${secret}" | base64 -w0)`;
}
