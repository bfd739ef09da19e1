import { header, type Observed } from './capture';
import { parseJson } from '../json-depth';

/**
 * Every credential a capture carries in clear, wherever it is: Authorization and
 * Proxy-Authorization headers (the Bearer token; for Basic the encoded pair, the pair, the shared key
 * and the secret key), cookies, API-key headers, and secret members of JSON, form-encoded and query
 * strings (passwords, refresh and access tokens, client secrets), in requests and in answers.
 * The Redactor is given them all, before anything is written or printed.
 */

const SECRET_NAME = new RegExp(
  '^(password|old_?password|new_?password|client_?secret|secret_?key|access_?token|refresh_?token|id_?token|' +
    'one_?time_?passcode|ticket|api_?key|token)$',
  'i',
);
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key|x-auth-token)$/i;

function fromAuthorization(value: string, out: Set<string>): void {
  const m = /^(\S+)\s+(.+)$/.exec(value.trim());
  const credential = m ? m[2]!.trim() : value.trim();
  out.add(credential);
  if (m && /^basic$/i.test(m[1]!)) {
    const pair = Buffer.from(credential, 'base64').toString('utf8');
    const colon = pair.indexOf(':');
    if (colon >= 0) {
      out.add(pair);
      out.add(pair.slice(0, colon));
      out.add(pair.slice(colon + 1));
    }
  }
}

function fromCookie(value: string, out: Set<string>): void {
  for (const part of value.split(/;\s*/)) {
    const eq = part.indexOf('=');
    if (eq > 0 && !/^(path|domain|expires|max-age|samesite|secure|httponly)$/i.test(part.slice(0, eq).trim()))
      out.add(part.slice(eq + 1).trim());
  }
}

function fromJson(v: unknown, out: Set<string>): void {
  if (Array.isArray(v)) v.forEach((x) => fromJson(x, out));
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (SECRET_NAME.test(k) && typeof x === 'string') out.add(x);
      else fromJson(x, out);
    }
  }
}

function fromParams(s: string, out: Set<string>): void {
  for (const [k, v] of new URLSearchParams(s)) if (SECRET_NAME.test(k) && v) out.add(v);
}

function fromBody(body: string | undefined, out: Set<string>): void {
  if (!body) return;
  const t = body.trim();
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      fromJson(parseJson(t), out);
      return;
    } catch {
      /* not JSON: try the form encoding */
    }
  }
  if (/^[^\s=&]+=[^\s]*$/.test(t)) fromParams(t, out);
}

/** The credentials found in the capture; values shorter than 4 characters are left to the Redactor's rules. */
export function captureSecrets(xs: Observed[]): string[] {
  const out = new Set<string>();
  for (const x of xs) {
    for (const h of [x.requestHeaders, x.responseHeaders]) {
      for (const [k, v] of Object.entries(h)) {
        if (!SECRET_HEADER.test(k)) continue;
        if (/cookie/i.test(k)) fromCookie(v, out);
        else fromAuthorization(v, out);
      }
    }
    const q = x.url.indexOf('?');
    if (q >= 0) fromParams(x.url.slice(q + 1).split('#')[0]!, out);
    fromBody(x.requestBody, out);
    fromBody(x.responseBody, out);
    // The userinfo of a URL (https://user:password@host/).
    try {
      const u = new URL(x.url);
      if (u.password) out.add(decodeURIComponent(u.password));
    } catch {
      /* not a URL */
    }
  }
  return [...out].filter((s) => s.length >= 4 && !/^\[REDACTED\]$/.test(s) && !s.includes('[REDACTED]'));
}

/**
 * Whether the capture kept credentials at all: browsers' sanitized exports drop Authorization
 * and cookies, so a request without them proves nothing about what the client sent.
 */
export function keepsAuthorization(xs: Observed[]): boolean {
  return xs.some((x) => header(x.requestHeaders, 'authorization') !== undefined);
}
