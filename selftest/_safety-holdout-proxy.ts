import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { forward, passBack } from './_proxy-forward';
import type { AddressInfo, Socket } from 'node:net';
import { startReferenceTarget, type ReferenceTarget } from '../reference-target/server';

/**
 * A hostile real target for the safety hold-out set (selftest/safety-holdout.test.ts): the reference target behind a
 * proxy on 127.0.0.1 that, per request, passes it on (its body rewritten or not), answers it itself without passing
 * it on, or passes it on (the write lands) and then loses, replaces or never sends the answer. Written for the hold-out
 * set without the flaky proxy's plans (selftest/_flaky-proxy.ts): the moments are the ones that set lists.
 * It stops by itself after `lifetimeMs`.
 */
export interface HostileRequest {
  method: string;
  /** The path with its query, decoded. */
  path: string;
  body: string;
  /** The body as JSON, {} when it is none. */
  json: Record<string, any>;
  headers: IncomingHttpHeaders;
  /** 1-based number of the request, and of the write (anything but GET) among writes. */
  n: number;
  nWrite: number;
}

export type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

export type Hostile =
  /** Passed on (its body replaced by `body` when given), the target's answer passed back. */
  | { kind: 'forward'; body?: string }
  /** Answered by the proxy; never reaches the target. */
  | ({ kind: 'answer' } & Answer)
  /**
   * Passed on and applied; then the answer is replaced, or never sent ('silent'), or the connection reset. With
   * `landed`, only when the target served it (2xx; `landed` is then called): else its answer is passed back.
   */
  | { kind: 'applied'; then: Answer | 'silent' | 'reset' | 'pass'; landed?: () => void }
  /** Never reaches the target, never answered. */
  | { kind: 'silent' }
  /** Never reaches the target; the connection is reset. */
  | { kind: 'reset' };

export type HostilePlan = (r: HostileRequest) => Hostile;

export interface HostileTarget {
  target: ReferenceTarget;
  urls: ReferenceTarget['urls'];
  seen: HostileRequest[];
  close(): Promise<void>;
}

function send(res: ServerResponse, a: Answer): void {
  const body = a.body === undefined ? '' : typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
  const type = a.body === undefined ? {} : { 'content-type': 'application/json' };
  res.writeHead(a.status, { ...type, ...a.headers, 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

const parse = (s: string): Record<string, any> => {
  try {
    const v: unknown = JSON.parse(s);
    return v && typeof v === 'object' ? (v as Record<string, any>) : {};
  } catch {
    return {};
  }
};

async function act(
  action: Hostile,
  up: URL,
  r: HostileRequest,
  raw: { headers: IncomingHttpHeaders; url: string; body: Buffer; socket: Socket },
  res: ServerResponse,
): Promise<void> {
  if (action.kind === 'silent') return;
  if (action.kind === 'reset') return void raw.socket.destroy();
  if (action.kind === 'answer') return send(res, action);
  const body = action.kind === 'forward' && action.body !== undefined ? Buffer.from(action.body) : raw.body;
  const answer = await forward(up, r.method, raw.url, raw.headers, body);
  if (action.kind === 'forward') return passBack(res, answer);
  if (action.landed && (answer.status < 200 || answer.status > 299)) return passBack(res, answer);
  action.landed?.();
  if (action.then === 'pass') return passBack(res, answer);
  if (action.then === 'silent') return;
  if (action.then === 'reset') return void raw.socket.destroy();
  send(res, action.then);
}

export async function startHostileTarget(
  plan: HostilePlan,
  opts: { lifetimeMs?: number; target?: ReferenceTarget } = {},
): Promise<HostileTarget> {
  const target = opts.target ?? (await startReferenceTarget());
  const up = new URL(target.urls.baseUrl);
  const seen: HostileRequest[] = [];
  const sockets = new Set<Socket>();
  let writes = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const method = req.method ?? 'GET';
      const text = body.toString('utf8');
      const r: HostileRequest = {
        method,
        path: decodeURIComponent(req.url ?? '/'),
        body: text,
        json: parse(text),
        headers: req.headers,
        n: seen.length + 1,
        nWrite: method === 'GET' ? 0 : ++writes,
      };
      seen.push(r);
      const raw = { headers: req.headers, url: req.url ?? '/', body, socket: req.socket };
      act(plan(r), up, r, raw, res).catch(() => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const swap = (u: string) => origin + new URL(u).pathname;
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= (async () => {
      clearTimeout(timer);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await target.close();
    })());
  const timer = setTimeout(() => void close(), opts.lifetimeMs ?? 120_000);
  timer.unref();
  const urls = {
    baseUrl: swap(target.urls.baseUrl),
    authBaseUrl: swap(target.urls.authBaseUrl),
    transfersBaseUrl: swap(target.urls.transfersBaseUrl),
  };
  return { target, urls, seen, close };
}
