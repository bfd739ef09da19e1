import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from '../reference-target/fixtures';

/**
 * A small HTTP server on 127.0.0.1 that misbehaves on purpose, for the broken-target self-tests.
 * It stops by itself after `lifetimeMs` (default 60 s) even if a test forgets to close it, and
 * never keeps the process alive.
 */
export type Misbehaviour =
  /** Accepts the connection, reads the request, never answers. */
  | 'silent'
  /** Reads the request, then resets the connection (TCP RST) without a byte of answer. */
  | 'reset'
  /** 200 with an HTML page where JSON is documented. */
  | 'non-json'
  /** 200 application/json whose body never ends: the server writes as fast as the client reads, up to `hugeBytes`. */
  | 'huge'
  /** Answers a JSON 200 after `delayMs`. */
  | 'slow'
  /** 503 always. */
  | 'unavailable'
  /** Writes bytes that are not HTTP, then closes. */
  | 'garbage';

export interface MisbehavingServer {
  url: string;
  /** Every request that reached the server (method and path). */
  received: Array<{ method: string; path: string }>;
  /** Bytes of body the 'huge' behaviour managed to hand to the socket, over all requests. */
  bytesWritten: number;
  /** Change what the server does from now on. */
  set(b: Misbehaviour | Custom): void;
  close(): Promise<void>;
}

/** A behaviour written in the test: n is the 1-based number of the request. */
export type Custom = (req: IncomingMessage, res: ServerResponse, n: number) => void;

export async function startMisbehavingServer(
  behaviour: Misbehaviour | Custom,
  opts: { delayMs?: number; hugeBytes?: number; lifetimeMs?: number } = {},
): Promise<MisbehavingServer> {
  let current = behaviour;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    t.unref();
    timers.add(t);
  };
  const state: MisbehavingServer = {
    url: '',
    received: [],
    bytesWritten: 0,
    set: (b) => {
      current = b;
    },
    close: async () => undefined,
  };

  const server = createServer((req, res) => {
    state.received.push({ method: req.method ?? '', path: (req.url ?? '').split('?')[0]! });
    const n = state.received.length;
    req.resume();
    req.on('end', () => {
      if (typeof current === 'function') return current(req, res, n);
      switch (current) {
        case 'silent':
          return;
        case 'reset':
          return void req.socket.resetAndDestroy();
        case 'non-json':
          res.writeHead(200, { 'content-type': 'text/html' });
          return void res.end('<html><body>Service temporarily rerouted</body></html>');
        case 'huge':
          return writeHuge(res, opts.hugeBytes ?? 50 * 1024 * 1024, (b) => (state.bytesWritten += b));
        case 'slow':
          return later(opts.delayMs ?? 60_000, () => {
            if (!res.destroyed) {
              res.writeHead(200, { 'content-type': 'application/json' });
              res.end('{"institutionDisclosures":[]}');
            }
          });
        case 'unavailable':
          res.writeHead(503, { 'content-type': 'application/json' });
          return void res.end('{"error":"unavailable"}');
        case 'garbage':
          return void req.socket.end('SSH-2.0-OpenSSH_9.6 this is not HTTP\r\n\r\n\x00\x01\x02');
      }
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let closed: Promise<void> | undefined;
  state.close = () =>
    (closed ??= new Promise<void>((resolve) => {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }));
  later(opts.lifetimeMs ?? 60_000, () => void state.close());
  return state;
}

/** Write a JSON-looking body of `total` bytes, respecting back-pressure: the server only gets as far as the client
 * reads. */
function writeHuge(res: ServerResponse, total: number, count: (bytes: number) => void): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.from('{"x":"' + 'a'.repeat(64 * 1024 - 8) + '"},');
  let sent = 0;
  const pump = () => {
    while (sent < total && !res.destroyed) {
      const ok = res.write(chunk);
      sent += chunk.length;
      count(chunk.length);
      if (!ok) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  res.write('[');
  pump();
}

/** A target configuration (raw JSON, as a user writes it) pointing every base URL at `url`. */
export function configFor(url: string, http: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'misbehaving test server',
    baseUrl: `${url}/dbsi`,
    authBaseUrl: `${url}/identity`,
    transfersBaseUrl: `${url}/banking`,
    credentials: { ...REFERENCE_CREDENTIALS },
    testData: REFERENCE_TEST_DATA,
    http: { timeoutMs: 500, retries: 1, ...http },
  };
}
