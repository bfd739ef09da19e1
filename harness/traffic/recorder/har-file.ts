import { renameSync, writeFileSync } from 'node:fs';
import type { Redactor } from '../../redact';
import type { Observed } from '../capture';
import type { HarEntry, HarLog } from '../har';

/**
 * A recorded exchange as a HAR 1.2 entry, every secret redacted (headers, bodies, URL). What the
 * judge needs of the credential goes in "_dbsiCredential": a label per distinct credential of the
 * session (c1, c2, …: not derived from the secret) and its shape.
 */
export function harEntry(x: Observed, redactor: Redactor, labels: Map<string, string> = new Map()): HarEntry {
  const c = x.credential;
  const credential = c && {
    label:
      c.label === undefined
        ? undefined
        : (labels.get(c.label) ?? labels.set(c.label, `c${labels.size + 1}`).get(c.label)),
    scheme: c.scheme,
    wellFormedBasic: c.wellFormedBasic,
  };
  const url = redactor.text(x.url);
  let queryString: Array<{ name: string; value: string }> = [];
  try {
    queryString = [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    /* not a URL */
  }
  const list = (h: Record<string, string>) =>
    Object.entries(redactor.headers(h)).map(([name, value]) => ({ name, value }));
  const reqType = Object.entries(x.requestHeaders).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  const resType = x.responseHeaders['content-type'] ?? '';
  const body = redactor.body(x.responseBody) ?? '';
  return {
    startedDateTime: x.startedAt,
    time: x.durationMs,
    request: {
      method: x.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: list(x.requestHeaders),
      queryString,
      ...(x.requestBody !== undefined
        ? { postData: { mimeType: reqType, text: redactor.body(x.requestBody) ?? '' } }
        : {}),
      headersSize: -1,
      bodySize: x.requestBody === undefined ? 0 : Buffer.byteLength(x.requestBody),
    } as HarEntry['request'],
    response: {
      status: x.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: list(x.responseHeaders),
      content: { size: Buffer.byteLength(x.responseBody), mimeType: resType, text: body },
      redirectURL: x.responseHeaders.location ?? '',
      headersSize: -1,
      bodySize: x.status === 0 ? -1 : Buffer.byteLength(x.responseBody),
      ...(x.abortReason ? { _error: x.abortReason } : {}),
    } as HarEntry['response'],
    cache: {},
    timings: { send: 0, wait: x.durationMs, receive: 0 },
    ...(credential ? { _dbsiCredential: credential } : {}),
  };
}

/** An entry as it is written into the file: JSON at the depth of log.entries (so a file is written without
 * serializing again the entries it held before). */
export function entryText(entry: HarEntry): string {
  // JSON never holds a raw line break inside a string: every line break is the layout's, shifted three levels in.
  return '   ' + JSON.stringify(entry, null, 1).replace(/\n/g, '\n   ');
}

/**
 * Write a complete HAR 1.2 file from entries already serialized (entryText): to a temporary file first, then
 * renamed over the target (never half a file).
 */
export function writeHar(file: string, entries: readonly string[], creator: { name: string; version: string }): void {
  const log: HarLog & { pages: unknown[] } = { version: '1.2', creator, pages: [], entries: [] };
  const empty = JSON.stringify({ log }, null, 1);
  const at = empty.lastIndexOf('"entries": []');
  const list = entries.length ? `"entries": [\n${entries.join(',\n')}\n  ]` : '"entries": []';
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, empty.slice(0, at) + list + empty.slice(at + '"entries": []'.length) + '\n');
  renameSync(tmp, file);
}
