import { readFileSync } from 'node:fs';
import { Agent, ProxyAgent, type Dispatcher } from 'undici';
import type { TargetConfig } from '../config';
import type { Exchange, TransportErrorKind } from '../model';
import { parsedText } from '../log/answer-body';
import type { HttpResult } from '../log/entry';
import { DeadlineExceeded } from './deadline';
import { failsBeforeRequestWritten, tlsProblem } from './tls-errors';

/**
 * The transport under the client (harness/http/client.ts): URLs, the connection pool, reading a body within
 * its limit and what a failed request was. The recorder (harness/traffic/recorder/) forwards through the same.
 */

/** Join a base URL that may carry a path prefix with a path: the prefix is kept. */
export function joinUrl(base: string, path: string, query?: Record<string, string | undefined>): string {
  let url = base.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);
  const q = Object.entries(query ?? {}).filter((e): e is [string, string] => e[1] !== undefined);
  if (q.length) url += '?' + q.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return url;
}

export function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`path parameter ${name} is missing for ${template}`);
    return encodeURIComponent(v);
  });
}

const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export function errorCode(e: unknown): string {
  const err = e as { code?: string; cause?: { code?: string } };
  return err?.code ?? err?.cause?.code ?? '';
}

/**
 * What went wrong, whether the request certainly never left the machine (notSent: no connection, or
 * a TLS handshake that failed before a byte of the request was written), and whether it may be tried
 * again (beforeSend: whatever its method; not after a TLS failure, which a second try repeats). The
 * signals say for certain whether the run was interrupted or the request timed out; the error's code
 * says the rest.
 */
export function classify(
  e: unknown,
  why: { interrupted: boolean; timedOut: boolean },
): { kind: TransportErrorKind; message: string; beforeSend: boolean; notSent: boolean } {
  const code = errorCode(e);
  const msg = (e as Error)?.message ?? String(e);
  if (why.interrupted) {
    return { kind: 'interrupted', message: 'the run was interrupted', beforeSend: false, notSent: false };
  }
  if (CONNECT_CODES.has(code)) {
    return { kind: 'connection', message: `could not connect (${code})`, beforeSend: true, notSent: true };
  }
  const tls = tlsProblem(code, msg);
  if (tls) return { kind: 'connection', message: tls, beforeSend: false, notSent: failsBeforeRequestWritten(code) };
  const c = classifyAfterConnect(e, code, msg, why.timedOut);
  return { ...c, beforeSend: false, notSent: false };
}

/** What went wrong once a connection was made (or may have been): the request may have been sent. */
function classifyAfterConnect(
  e: unknown,
  code: string,
  msg: string,
  timedOut: boolean,
): { kind: TransportErrorKind; message: string } {
  const timeoutCode = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
  if (timedOut || e instanceof DeadlineExceeded || timeoutCode || (e as Error)?.name === 'TimeoutError')
    return { kind: 'timeout', message: 'no complete answer within the request timeout (http.timeoutMs)' };
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
    return { kind: 'connection', message: `connection reset by the target (${code})` };
  }
  if (code === 'UND_ERR_HEADERS_OVERFLOW')
    return {
      kind: 'protocol',
      message: `the answer's headers are larger than the client reads (${MAX_HEADER_KIB} KiB)`,
    };
  if (/HPE_|parse/i.test(code + msg) || (e as Error)?.name === 'HTTPParserError') {
    return { kind: 'protocol', message: `the answer is not HTTP (${code ? code + ': ' : ''}${msg})` };
  }
  if ((e as Error)?.name === 'AbortError') return { kind: 'interrupted', message: 'the run was interrupted' };
  return { kind: 'connection', message: `${code || (e as Error)?.name || 'error'}: ${msg}` };
}

/** The most an answer's status line and headers may hold: room for a gateway's cookies and policies. */
const MAX_HEADER_KIB = 128;

/** The connection pool of a target: its TLS (CA, mutual TLS), proxy and timeouts. The recorder forwards through the
 * same. */
export function dispatcherFor(config: TargetConfig): Dispatcher {
  const tls = config.http.tls;
  const connect = {
    ca: tls.caFile ? readFileSync(tls.caFile) : undefined,
    cert: tls.certFile ? readFileSync(tls.certFile) : undefined,
    key: tls.keyFile ? readFileSync(tls.keyFile) : undefined,
    rejectUnauthorized: tls.rejectUnauthorized,
    timeout: config.http.timeoutMs,
  };
  const common = {
    headersTimeout: config.http.timeoutMs,
    bodyTimeout: config.http.timeoutMs,
    connect,
    connections: Math.max(8, config.http.concurrency),
    keepAliveTimeout: 4_000,
    // Node's default (16 KiB) refuses the headers of a gateway that sets large cookies or policies.
    maxHeaderSize: MAX_HEADER_KIB * 1024,
  };
  return config.http.proxyUrl
    ? new ProxyAgent({ uri: config.http.proxyUrl, requestTls: connect, ...common })
    : new Agent(common);
}

export function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** Read a body up to a limit; past it, stop reading and drop the connection rather than buffer it whole. */
export async function readLimited(
  body: Dispatcher.ResponseData['body'],
  limit: number,
): Promise<{ text: string; truncated: boolean; bytes: number }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body) {
    const b = chunk as Buffer;
    if (bytes + b.length > limit) {
      chunks.push(b.subarray(0, limit - bytes));
      bytes = limit;
      body.destroy();
      return { text: Buffer.concat(chunks).toString('utf8'), truncated: true, bytes };
    }
    chunks.push(b);
    bytes += b.length;
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated: false, bytes };
}

/** Wait `ms`, or less when `signal` aborts. */
export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

/** The body parsed as JSON, or why it is not: cut off at the limit, nested too deep to read (json-depth.ts), or not
 * JSON. */
export function parsedBody(
  text: string,
  truncated: boolean,
  maxBodyBytes: number,
  exchange: Exchange,
): Pick<HttpResult, 'json' | 'jsonError' | 'tooDeep'> {
  const cut = `the body is larger than http.maxBodyBytes (${maxBodyBytes} bytes) and was cut off after that many bytes`;
  if (truncated) return { json: undefined, jsonError: cut };
  return parsedText(text, exchange.response?.body ?? '');
}
