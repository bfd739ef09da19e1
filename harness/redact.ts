import { base64Cores, secretAnchors, secretPattern } from './secret-forms';
import { parseJson } from './json-depth';

/**
 * Redaction: what leaves a test (Allure attachments, curl lines, summaries, console) never carries a
 * secret. Three layers: the Authorization header's credential part, JSON members whose names say
 * "secret", and every configured secret value wherever it appears, in every form a text can hold
 * it (plain, base64, URL-encoded, JSON-, XML- and HTML-escaped: harness/secret-forms.ts).
 */

export const REDACTED = '[REDACTED]';

const SECRET_MEMBER = new RegExp(
  '^(password|oldPassword|clientSecret|client_secret|secretKey|access_token|refresh_token|accessToken|refreshToken|' +
    'id_token|oneTimePasscode|ticket)$',
  'i',
);
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key)$/i;

/** Shorter values are not redacted (they would match ordinary text); the configuration refuses secrets under 8
 * characters. */
const MIN_REDACTED_LENGTH = 4;

export class Redactor {
  private readonly secrets = new Set<string>();
  private pattern: RegExp | undefined;
  /** The same pattern, not global: to test a decoded base64 run. */
  private probe: RegExp | undefined;
  /** Literal pieces of every secret's every form (secretAnchors); undefined when a secret has none, so every text is
   * searched. */
  private anchors: string[] | undefined;
  /** The base64 characters of every secret at every alignment (base64Cores). */
  private cores: string[] = [];

  constructor(secrets: readonly string[]) {
    this.add(secrets);
  }

  /**
   * Hide more secret values from now on (e.g. credentials found in a recorded capture). Texts
   * redacted before are not revisited.
   */
  add(secrets: readonly string[]): void {
    for (const s of secrets) if (s && s.length >= MIN_REDACTED_LENGTH) this.secrets.add(s);
    // Longest first, so a secret that contains another is replaced whole.
    const sources = [...this.secrets].sort((a, b) => b.length - a.length).map((s) => secretPattern(s).source);
    this.pattern = sources.length ? new RegExp(sources.join('|'), 'g') : undefined;
    this.probe = sources.length ? new RegExp(sources.join('|')) : undefined;
    const anchors = [...this.secrets].map(secretAnchors);
    this.anchors = anchors.some((a) => a.length === 0) ? undefined : anchors.flat();
    this.cores = [...this.secrets].flatMap(base64Cores);
  }

  /** The secrets this redactor hides. */
  get values(): string[] {
    return [...this.secrets];
  }

  /**
   * A text with every secret hidden: in every text encoding (the pattern), and inside every base64
   * run that decodes to text holding one (a Basic header, an echoed request in base64): the run is
   * replaced whole.
   */
  text(s: string): string {
    const { pattern, probe } = this;
    if (!pattern || !probe) return s;
    const out = this.mayHold(s) ? s.replace(pattern, REDACTED) : s;
    if (!BASE64_RUN.test(out)) return out;
    return out.replace(BASE64_RUNS, (run) => {
      if (HEX_RUN.test(run)) return run; // ids and UUIDs: decoded, they could hold no text
      // The secret itself, at any alignment; else (a run that is not just a word) decoded, for an escaped form inside.
      if (this.cores.some((c) => run.includes(c))) return REDACTED;
      if (WORD_RUN.test(run) || !/[A-Z]/.test(run)) return run; // a word, a path, a media type: not base64 of text
      const decoded = Buffer.from(run, 'base64').toString('utf8');
      return this.mayHold(decoded) && probe.test(decoded) ? REDACTED : run;
    });
  }

  private mayHold(s: string): boolean {
    return !this.anchors || this.anchors.some((a) => s.includes(a));
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

  /**
   * A body: JSON members with secret names are masked, then every secret value, also inside JSON
   * held as a string in the body (an echoed request, escaped twice or more), then the text as a whole.
   */
  body(s: string | undefined): string | undefined {
    return this.bodyKeeping(s, () => false);
  }

  /** body(), but a member whose string value `keep` accepts is left to text redaction whatever its name. */
  bodyKeeping(s: string | undefined, keep: (value: string) => boolean): string | undefined {
    if (s === undefined) return undefined;
    let out = s;
    try {
      const parsed = parseJson(s);
      if (parsed !== null && typeof parsed === 'object') out = JSON.stringify(this.json(parsed, 0, keep));
    } catch {
      /* not JSON: text redaction only */
    }
    return this.text(out);
  }

  private json(v: unknown, depth: number, keep: (value: string) => boolean = () => false): unknown {
    if (typeof v === 'string') return this.jsonString(v, depth);
    if (Array.isArray(v)) return v.map((x) => this.json(x, depth, keep));
    if (v && typeof v === 'object') {
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const masked = SECRET_MEMBER.test(k) && typeof x === 'string' && x !== '' && !keep(x);
        o[k] = masked ? REDACTED : this.json(x, depth, keep);
      }
      return o;
    }
    return v;
  }

  /** A string member; one that is itself JSON is read and redacted as JSON (at most 4 levels deep). */
  private jsonString(s: string, depth: number): string {
    if (depth < 4 && /^\s*[[{"]/.test(s)) {
      try {
        const inner: unknown = parseJson(s);
        const redacted = JSON.stringify(this.json(inner, depth + 1));
        if (redacted !== JSON.stringify(inner)) return redacted;
      } catch {
        /* not JSON */
      }
    }
    return this.text(s);
  }
}

/** A run of base64 or base64url long enough to hold a secret of 8 characters or more. */
const BASE64_RUN = /[A-Za-z0-9+/_-]{16,}/;
const BASE64_RUNS = /[A-Za-z0-9+/_-]{16,}={0,2}/g;
const HEX_RUN = /^[0-9a-fA-F-]+$/;
const WORD_RUN = /^[A-Za-z]+$/;

/** Which environment variable a reader sets to replay a request with the real credential. */
export function credentialPlaceholder(
  name: string,
  value: string,
  bearerEnv = 'DBSI_BEARER_TOKEN',
): string | undefined {
  if (!/^authorization$/i.test(name)) return undefined;
  if (/^Basic\s/i.test(value))
    return 'Basic $(printf %s "$DBSI_REVOCATION_CLIENT_ID:$DBSI_REVOCATION_CLIENT_SECRET" ' + '| base64 -w0)';
  if (/^Bearer\s/i.test(value)) return `Bearer $${bearerEnv}`;
  return '$DBSI_AUTHORIZATION';
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * A header of credentials.contactInfoHeaders (or DBSI_CONTACT_INFO_HEADERS, a JSON object), replayed
 * from that variable: whatever its name and scheme, the same value the run sent.
 */
export function contactHeaderPlaceholder(name: string): string {
  return `$(printf %s "$DBSI_CONTACT_INFO_HEADERS" | jq -r '.["${name.replace(/["'\\$`]/g, '')}"]')`;
}

/**
 * A JSON body for --data-raw, each member whose value is a configured body secret replayed from the
 * environment variable that holds it (`bodySecrets`: variable name to value): the value JSON-encoded by jq, so
 * that the replayed body is the one sent, byte for byte. Every other part is redacted as any body. A body that
 * is not JSON, or holds none of the secrets, is redacted whole.
 */
function curlBody(body: string, redactor: Redactor, bodySecrets: Record<string, string>): string {
  const secrets = Object.entries(bodySecrets).filter(([, v]) => v !== '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return shellQuote(redactor.body(body) ?? '');
  }
  if (!secrets.length || parsed === null || typeof parsed !== 'object') return shellQuote(redactor.body(body) ?? '');
  // Each secret value becomes a marker ("\u0000<index>\u0000", which no request body holds), then the marker's
  // JSON text becomes the shell's command substitution of the variable.
  const marker = (i: number) => `\u0000${i}\u0000`;
  const markers = new Set(secrets.map((_, i) => marker(i)));
  const mark = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const i = secrets.findIndex(([, value]) => value === v);
      return i < 0 ? v : marker(i);
    }
    if (Array.isArray(v)) return v.map(mark);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mark(x)]));
    return v;
  };
  const marked = JSON.stringify(mark(parsed));
  if (marked === JSON.stringify(parsed)) return shellQuote(redactor.body(body) ?? '');
  const redacted = redactor.bodyKeeping(marked, (v) => markers.has(v)) ?? '';
  return redacted
    .split(/("\\u0000\d+\\u0000")/)
    .map((part) => {
      const m = /^"\\u0000(\d+)\\u0000"$/.exec(part);
      return m ? `"$(printf %s "$${secrets[Number(m[1])]![0]}" | jq -Rs .)"` : part === '' ? '' : shellQuote(part);
    })
    .join('');
}

/**
 * A curl line that reproduces a request, with credentials replaced by environment variables.
 * `contactHeaders`: the configured contact-info headers; one sent with its configured value is
 * replayed from DBSI_CONTACT_INFO_HEADERS. `bodySecrets`: configured secrets a body may carry, by the
 * environment variable that holds each (the revocation password and refresh token); a body member holding
 * one is replayed from that variable.
 */
export function curlLine(
  req: { method: string; url: string; headers: Record<string, string>; body?: string },
  redactor: Redactor,
  bearerEnv?: string,
  contactHeaders: Record<string, string> = {},
  bodySecrets: Record<string, string> = {},
  /** The Authorization value as shell text, where the request carried a near variant of a configured credential. */
  authorizationShell?: string,
): string {
  const parts = ['curl', '-sS', '-i', '-X', req.method, shellQuote(redactor.text(req.url))];
  for (const [k, v] of Object.entries(req.headers)) {
    // A configured credential becomes the environment variable that holds it (double quotes, so it
    // expands); a made-up one (an invalid token, a wrong secret key) is no secret and is shown as sent,
    // so that replaying the line reproduces the same refusal.
    const configured = redactor.text(v) !== v;
    const fromContactHeaders = Object.entries(contactHeaders).some(
      ([name, value]) => name.toLowerCase() === k.toLowerCase() && value === v,
    );
    const placeholder = !configured
      ? undefined
      : fromContactHeaders
        ? contactHeaderPlaceholder(k)
        : /^authorization$/i.test(k) && authorizationShell
          ? authorizationShell
          : credentialPlaceholder(k, v, bearerEnv);
    parts.push(
      '-H',
      placeholder ? `"${k}: ${placeholder}"` : shellQuote(`${k}: ${configured ? redactor.header(k, v) : v}`),
    );
  }
  // curl adds "Content-Type: application/x-www-form-urlencoded" to --data-raw; a request sent without one must replay
  // without one.
  if (req.body !== undefined && !Object.keys(req.headers).some((k) => /^content-type$/i.test(k)))
    parts.push('-H', shellQuote('Content-Type:'));
  if (req.body !== undefined) parts.push('--data-raw', curlBody(req.body, redactor, bodySecrets));
  return parts.join(' ');
}
