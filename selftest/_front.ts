import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { TargetConfig } from '../harness/config';

/**
 * An independent target built from the reference target: a small HTTP front on 127.0.0.1 that passes
 * each request on, rewrites its path, or answers it itself, as a rule decides per request. What the
 * diagnosis table (selftest/diagnosis-table.test.ts) makes of targets and mistakes the reference
 * target does not have by itself: a service at another version segment, a token that expires during
 * the run. It stops by itself after `lifetimeMs`.
 */
export interface FrontRequest {
  method: string;
  /** The path with its query, as received. */
  path: string;
  headers: IncomingHttpHeaders;
  /** 1-based number of the request. */
  n: number;
  body: string;
  /** The requests before this one, with the status the front answered (0: no answer yet). */
  history: Array<{ method: string; path: string; status: number }>;
}

export type FrontAction =
  | { kind: 'forward'; path?: string; headers?: Record<string, string> }
  | { kind: 'answer'; status: number; body?: unknown; headers?: Record<string, string> };

export type FrontRule = (r: FrontRequest) => FrontAction;

export interface Front {
  /** The front's origin (http://127.0.0.1:port). */
  origin: string;
  seen: FrontRequest[];
  close(): Promise<void>;
}

export async function startFront(upstream: string, rule: FrontRule, opts: { lifetimeMs?: number } = {}) {
  const up = new URL(upstream);
  const seen: FrontRequest[] = [];
  const statuses = new Map<FrontRequest, number>();
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: FrontRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        n: seen.length + 1,
        body: Buffer.concat(chunks).toString('utf8'),
        history: seen.map((x) => ({ method: x.method, path: x.path, status: statuses.get(x) ?? 0 })),
      };
      seen.push(r);
      const action = rule(r);
      if (action.kind === 'answer') {
        const body = action.body === undefined ? '' : JSON.stringify(action.body);
        const type = action.body === undefined ? {} : { 'content-type': 'application/json' };
        statuses.set(r, action.status);
        res.writeHead(action.status, { ...type, ...action.headers });
        res.end(body);
        return;
      }
      const headers = { ...req.headers, ...action.headers, host: up.host };
      const fwd = request(
        { host: up.hostname, port: up.port, method: r.method, path: action.path ?? r.path, headers },
        (answer) => {
          statuses.set(r, answer.statusCode ?? 502);
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      fwd.on('error', () => res.destroy());
      fwd.end(Buffer.concat(chunks));
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  // Idle connections kept longer than the client keeps them (4 s), as reference-target/server.ts does: no reset of a
  // reused connection on a loaded machine.
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= new Promise<void>((resolve) => {
      clearTimeout(timer);
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }));
  const timer = setTimeout(() => void close(), opts.lifetimeMs ?? 60_000);
  timer.unref();
  return { origin, seen, close } satisfies Front;
}

/** The configuration with every base URL sent through the front (same paths, the front's origin). */
export function throughFront(cfg: TargetConfig, front: Front): TargetConfig {
  const at = (url: string) => {
    const u = new URL(url);
    return `${front.origin}${u.pathname.replace(/\/$/, '')}`;
  };
  return {
    ...cfg,
    baseUrl: at(cfg.baseUrl),
    authBaseUrl: at(cfg.authBaseUrl),
    transfersBaseUrl: at(cfg.transfersBaseUrl),
    ...(cfg.contactInfoBaseUrl ? { contactInfoBaseUrl: at(cfg.contactInfoBaseUrl) } : {}),
  };
}
