/**
 * Redaction: what leaves a test (Allure attachments, curl lines, summaries, console) never carries a
 * secret. Three layers: the Authorization header's credential part, JSON members whose names say
 * "secret", and every configured secret value wherever it appears (also base64-encoded).
 */

export const REDACTED = '[REDACTED]';

const SECRET_MEMBER = /^(password|oldPassword|clientSecret|client_secret|secretKey|access_token|refresh_token|accessToken|refreshToken|id_token|oneTimePasscode|ticket)$/i;
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key)$/i;

export class Redactor {
  private readonly values: string[];

  constructor(secrets: readonly string[]) {
    const all = new Set<string>();
    for (const s of secrets) {
      if (!s || s.length < 4) continue;
      all.add(s);
      all.add(Buffer.from(s).toString('base64'));
      all.add(encodeURIComponent(s));
    }
    // Longest first, so a secret that contains another is replaced whole.
    this.values = [...all].sort((a, b) => b.length - a.length);
  }

  text(s: string): string {
    let out = s;
    for (const v of this.values) if (out.includes(v)) out = out.split(v).join(REDACTED);
    return out;
  }

  header(name: string, value: string): string {
    if (SECRET_HEADER.test(name)) {
      const m = /^(Bearer|Basic|Digest|Token)\s+/i.exec(value);
      return m ? `${m[1]} ${REDACTED}` : REDACTED;
    }
    return this.text(value);
  }

  headers(h: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(h)) out[k] = this.header(k, v);
    return out;
  }

  /** A body: JSON members with secret names are masked, then every secret value. */
  body(s: string | undefined): string | undefined {
    if (s === undefined) return undefined;
    let out = s;
    try {
      const parsed = JSON.parse(s);
      if (parsed !== null && typeof parsed === 'object') out = JSON.stringify(maskMembers(parsed));
    } catch {
      /* not JSON: text redaction only */
    }
    return this.text(out);
  }
}

function maskMembers(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(maskMembers);
  if (v && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) o[k] = SECRET_MEMBER.test(k) && typeof x === 'string' && x !== '' ? REDACTED : maskMembers(x);
    return o;
  }
  return v;
}

/** Which environment variable a reader sets to replay a request with the real credential. */
export function credentialPlaceholder(name: string, value: string, bearerEnv = 'DBSI_BEARER_TOKEN'): string | undefined {
  if (!/^authorization$/i.test(name)) return undefined;
  if (/^Basic\s/i.test(value)) return 'Basic $(printf %s "$DBSI_REVOCATION_CLIENT_ID:$DBSI_REVOCATION_CLIENT_SECRET" | base64 -w0)';
  if (/^Bearer\s/i.test(value)) return `Bearer $${bearerEnv}`;
  return '$DBSI_AUTHORIZATION';
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A curl line that reproduces a request, with credentials replaced by environment variables. */
export function curlLine(req: { method: string; url: string; headers: Record<string, string>; body?: string }, redactor: Redactor, bearerEnv?: string): string {
  const parts = ['curl', '-sS', '-i', '-X', req.method, shellQuote(redactor.text(req.url))];
  for (const [k, v] of Object.entries(req.headers)) {
    // A configured credential becomes the environment variable that holds it (double quotes, so it
    // expands); a made-up one (an invalid token, a wrong secret key) is no secret and is shown as sent,
    // so that replaying the line reproduces the same refusal.
    const configured = redactor.text(v) !== v;
    const placeholder = configured ? credentialPlaceholder(k, v, bearerEnv) : undefined;
    parts.push('-H', placeholder ? `"${k}: ${placeholder}"` : shellQuote(`${k}: ${configured ? redactor.header(k, v) : v}`));
  }
  // curl adds "Content-Type: application/x-www-form-urlencoded" to --data-raw; a request sent without one must replay without one.
  if (req.body !== undefined && !Object.keys(req.headers).some((k) => /^content-type$/i.test(k))) parts.push('-H', shellQuote('Content-Type:'));
  if (req.body !== undefined) parts.push('--data-raw', shellQuote(redactor.body(req.body) ?? ''));
  return parts.join(' ');
}
