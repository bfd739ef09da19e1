import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request, type Dispatcher } from 'undici';
import type { TargetConfig } from '../../config';
import { dispatcherFor, flattenHeaders } from '../../http/transport';
import type { BaseUrlKey } from '../../operations';
import { credentialOf, header, isoMicroseconds, type Observed } from '../capture';

/**
 * The recorder's reverse proxy: a client pointed at it (the local base URLs it prints) is forwarded
 * to the configured base URLs, through the configured TLS, proxy and timeouts. Every exchange is
 * handed to `onExchange` in clear, in memory; what is written is redacted by the caller.
 */

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
  'content-length',
  'accept-encoding',
]);
/** The largest request or answer body the recorder carries (a larger one is refused / cut off and recorded as no
 * answer). */
export const MAX_RECORDED_BODY = 16 * 1024 * 1024;

export interface Recorder {
  /** The base URLs a client uses instead of the configured ones. */
  urls: Record<BaseUrlKey, string>;
  /** Exchanges still in flight. */
  inFlight(): number;
  /** Stop accepting; wait (bounded by the request timeout) for the exchanges in flight. */
  close(): Promise<void>;
}

/** Which configured base URL a path belongs to: by its prefix, and where prefixes tie, by the spec's distinctive paths.
 * */
export function upstreamFor(path: string, config: TargetConfig): BaseUrlKey | undefined {
  const keys: BaseUrlKey[] = ['baseUrl', 'authBaseUrl', 'transfersBaseUrl'];
  const prefix = (k: BaseUrlKey) => new URL(config[k]).pathname.replace(/\/+$/, '');
  const under = keys.filter((k) => path === prefix(k) || path.startsWith(prefix(k) + '/') || prefix(k) === '');
  if (under.length <= 1) return under[0];
  if (/\/oauth2\//.test(path) && under.includes('authBaseUrl')) return 'authBaseUrl';
  if (/\/db-transfers\//.test(path) && under.includes('transfersBaseUrl')) return 'transfersBaseUrl';
  const longest = Math.max(...under.map((k) => prefix(k).length));
  const best = under.filter((k) => prefix(k).length === longest);
  return best.includes('baseUrl') ? 'baseUrl' : best[0];
}

function rawHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    const existing = Object.keys(out).find((k) => k.toLowerCase() === name.toLowerCase());
    if (existing) out[existing] = `${out[existing]}, ${req.rawHeaders[i + 1]}`;
    else out[name] = req.rawHeaders[i + 1]!;
  }
  return out;
}

async function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of req) {
    n += (c as Buffer).length;
    if (n > MAX_RECORDED_BODY) return 'too-large';
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}

export async function startRecorder(
  config: TargetConfig,
  o: { host: string; port: number; onExchange(x: Observed): void; onRefused?(line: string): void },
): Promise<Recorder> {
  const dispatcher: Dispatcher = dispatcherFor(config);
  let index = 0;
  const pending = new Set<Promise<void>>();
  const rec: Proxying = { config, dispatcher, o, next: () => ++index };
  const server = createServer((req, res) => {
    const p = handle(rec, req, res).catch((e: Error) => {
      if (!res.headersSent)
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`dbsi-conformance recorder: ${e.message}\n`);
    });
    pending.add(p);
    void p.finally(() => pending.delete(p));
  });
  // Longer than any client keeps an idle connection (the suite's: 4 s): a client that reuses a connection the server
  // is closing has its request reset, a race that grows with the load of the machine (issue 34: under
  // npm run test:stress, writes of the run were reset and graded could not test).
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const local = `http://${addr.address.includes(':') ? `[${addr.address}]` : addr.address}:${addr.port}`;
  const urls = Object.fromEntries(
    (['baseUrl', 'authBaseUrl', 'transfersBaseUrl'] as const).map((k) => [
      k,
      local + new URL(config[k]).pathname.replace(/\/+$/, ''),
    ]),
  ) as Record<BaseUrlKey, string>;
  return {
    urls,
    inFlight: () => pending.size,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const bound = new Promise<void>((resolve) => setTimeout(resolve, config.http.timeoutMs + 1_000).unref());
      await Promise.race([Promise.all([...pending]).then(() => undefined), bound]);
      server.closeAllConnections();
      await Promise.race([closed, bound]);
      await dispatcher.close().catch(() => undefined);
    },
  };
}

/** What the proxy forwards with, and to whom it hands each exchange. */
interface Proxying {
  config: TargetConfig;
  dispatcher: Dispatcher;
  o: { onExchange(x: Observed): void; onRefused?(line: string): void };
  /** The next exchange's index (from 1). */
  next(): number;
}

async function handle(rec: Proxying, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { config, o } = rec;
  const path = req.url ?? '/';
  const key = upstreamFor(path.split('?')[0]!, config);
  if (!key) {
    res
      .writeHead(404, { 'content-type': 'text/plain' })
      .end(`dbsi-conformance recorder: ${path} is under none ` + `of the configured base URLs\n`);
    o.onRefused?.(`${req.method} ${path}: under none of the configured base URLs (answered 404, not recorded)`);
    return;
  }
  const url = new URL(config[key]).origin + path;
  const requestHeaders = rawHeaders(req);
  // Recorded as the target received it: its own host.
  for (const k of Object.keys(requestHeaders)) if (k.toLowerCase() === 'host') requestHeaders[k] = new URL(url).host;
  const t0 = performance.now();
  // The start to the microsecond, so that the judge orders exchanges side by side as they were.
  const startMs = performance.timeOrigin + t0;
  const body = await readBody(req);
  const x: Observed = {
    index: rec.next(),
    startMs,
    startPrecisionMs: 0.001,
    endMs: startMs,
    startedAt: isoMicroseconds(startMs),
    durationMs: 0,
    method: (req.method ?? 'GET').toUpperCase(),
    url,
    requestHeaders,
    requestBody: undefined,
    status: 0,
    responseHeaders: {},
    responseBody: '',
  };
  const authorization = header(requestHeaders, 'authorization');
  if (authorization !== undefined) x.credential = credentialOf(authorization);
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    x.durationMs = Math.round((performance.now() - t0) * 10) / 10;
    x.endMs = x.startMs + x.durationMs;
    o.onExchange(x);
  };
  if (body === 'too-large') {
    x.abortReason = `request body larger than ${MAX_RECORDED_BODY} bytes: refused by the recorder`;
    finish();
    res.writeHead(413, { 'content-type': 'text/plain' }).end('dbsi-conformance recorder: request body too large\n');
    return;
  }
  if (body.length || req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined)
    x.requestBody = body.toString('utf8');
  await forward(rec, x, body, res, finish);
}

/** The request to the target, and its answer back to the client (recorded before the client has it). */
async function forward(rec: Proxying, x: Observed, body: Buffer, res: ServerResponse, finish: () => void) {
  const forwarded: Record<string, string> = {};
  for (const [k, v] of Object.entries(x.requestHeaders)) if (!HOP_BY_HOP.has(k.toLowerCase())) forwarded[k] = v;
  try {
    const up = await request(x.url, {
      method: x.method as Dispatcher.HttpMethod,
      headers: forwarded,
      body: x.requestBody === undefined ? undefined : body,
      dispatcher: rec.dispatcher,
      signal: AbortSignal.timeout(rec.config.http.timeoutMs),
    });
    const chunks: Buffer[] = [];
    let n = 0;
    for await (const c of up.body) {
      n += (c as Buffer).length;
      if (n > MAX_RECORDED_BODY) {
        up.body.destroy();
        throw new Error(`answer larger than ${MAX_RECORDED_BODY} bytes`);
      }
      chunks.push(c as Buffer);
    }
    const data = Buffer.concat(chunks);
    x.status = up.statusCode;
    x.responseHeaders = flattenHeaders(up.headers);
    x.responseBody = data.toString('utf8');
    const back: Record<string, string> = {};
    for (const [k, v] of Object.entries(x.responseHeaders)) if (!HOP_BY_HOP.has(k)) back[k] = v;
    // Recorded before the client has the answer: a client that saw an answer finds it in the HAR.
    finish();
    res.writeHead(up.statusCode, back).end(data);
  } catch (e) {
    const err = e as Error & { code?: string; cause?: { code?: string } };
    const why = err.code ?? err.cause?.code ?? err.name;
    x.abortReason = `the recorder got no answer from the target: ${why}: ${err.message}`;
    finish();
    const text = `dbsi-conformance recorder: no answer from the target (${why})\n`;
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(text);
    else res.destroy();
  }
}
