import type { HarEntry, HarHeader } from './har';

export { credentialOf, header, type Credential, type Observed } from '../rules/exchange';
import { credentialOf, header, type Credential, type Observed } from '../rules/exchange';

/** HAR headers as one record; repeated names are joined with ", " as HTTP allows. */
export function headerRecord(list: HarHeader[] | undefined, lowerCase = false): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of list ?? []) {
    // HTTP/2 pseudo-headers (:authority, :path) are no headers.
    if (!h || typeof h.name !== 'string' || h.name.startsWith(':')) continue;
    const name = lowerCase ? h.name.toLowerCase() : h.name;
    const value = String(h.value ?? '');
    const existing = Object.keys(out).find((k) => k.toLowerCase() === name.toLowerCase());
    if (existing) out[existing] = `${out[existing]}, ${value}`;
    else out[name] = value;
  }
  return out;
}

/** The request body: postData.text, else the form params re-encoded. */
function requestBody(e: HarEntry): string | undefined {
  const p = e.request.postData;
  if (!p) return undefined;
  if (typeof p.text === 'string') return p.text;
  if (Array.isArray(p.params))
    return p.params.map((x) => `${encodeURIComponent(x.name)}=${encodeURIComponent(x.value ?? '')}`).join('&');
  return undefined;
}

/** The answer's body: content.text, decoded when content.encoding is "base64". */
function responseBody(e: HarEntry): string {
  const c = e.response?.content;
  if (!c || typeof c.text !== 'string') return '';
  return c.encoding === 'base64' ? Buffer.from(c.text, 'base64').toString('utf8') : c.text;
}

/**
 * A startedDateTime as milliseconds since the epoch, with its precision: ISO 8601 allows any number
 * of digits for the fraction of a second (browsers write 3, the recorder 6); Date.parse keeps 3.
 */
export function startOf(startedDateTime: unknown): { ms: number; precisionMs: number } | undefined {
  const ms = Date.parse(String(startedDateTime));
  if (!Number.isFinite(ms)) return undefined;
  const digits = /T\d{2}:\d{2}(?::\d{2}(?:[.,](\d+))?)?/.exec(String(startedDateTime))?.[1] ?? '';
  const extra = digits.length > 3 ? Number(`0.${digits.slice(3, 9)}`) : 0;
  return { ms: ms + extra, precisionMs: 10 ** (3 - Math.min(digits.length, 9)) };
}

/** Milliseconds since the epoch as ISO 8601 with microseconds (the recorder's startedDateTime). */
export function isoMicroseconds(ms: number): string {
  const whole = Math.floor(ms);
  const micro = Math.min(999, Math.floor((ms - whole) * 1000));
  return new Date(whole).toISOString().replace(/Z$/, `${String(micro).padStart(3, '0')}Z`);
}

export function observe(e: HarEntry, index: number): Observed {
  const start = startOf(e.startedDateTime);
  const started = start ? Math.floor(start.ms) : NaN;
  const startMs = start?.ms ?? 0;
  const time = typeof e.time === 'number' && e.time > 0 ? e.time : 0;
  const status = typeof e.response?.status === 'number' && e.response.status > 0 ? e.response.status : 0;
  const requestHeaders = headerRecord(e.request.headers);
  const authorization = header(requestHeaders, 'authorization');
  return {
    index,
    startMs,
    startPrecisionMs: start?.precisionMs ?? 1,
    endMs: startMs + time,
    startedAt: Number.isFinite(started) ? new Date(started).toISOString() : String(e.startedDateTime ?? ''),
    durationMs: Math.round(time * 10) / 10,
    method: e.request.method.toUpperCase(),
    url: e.request.url,
    requestHeaders,
    requestBody: requestBody(e),
    status,
    responseHeaders: headerRecord(e.response?.headers, true),
    responseBody: status === 0 ? '' : responseBody(e),
    abortReason:
      status === 0
        ? typeof e.response?._error === 'string'
          ? e.response._error
          : 'no answer in the capture (status 0)'
        : undefined,
    credential:
      recordedCredential(e._dbsiCredential) ?? (authorization === undefined ? undefined : credentialOf(authorization)),
  };
}

function recordedCredential(v: unknown): Credential | undefined {
  const c = v as Credential | undefined;
  return c && typeof c === 'object' && typeof c.scheme === 'string'
    ? {
        label: typeof c.label === 'string' ? c.label : undefined,
        scheme: c.scheme.toLowerCase(),
        wellFormedBasic: typeof c.wellFormedBasic === 'boolean' ? c.wellFormedBasic : undefined,
      }
    : undefined;
}

/** The capture's entries in time order (stable for equal start times). */
export function observeAll(entries: HarEntry[]): Observed[] {
  return entries.map((e, i) => observe(e, i + 1)).sort((a, b) => a.startMs - b.startMs || a.index - b.index);
}
