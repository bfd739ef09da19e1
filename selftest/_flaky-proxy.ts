import { knownFromConfig, RUN_LOG } from '../harness/log/run-log';
import { failuresOverTheLog, runLogReports } from '../harness/verdict/run-log-verdicts';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { forward, passBack, type Upstream } from './_proxy-forward';
import type { AddressInfo, Socket } from 'node:net';
import { expect } from 'vitest';
import { CaseContext, runCase, type RunSettings } from '../harness/case';
import { secretValues, type TargetConfig } from '../harness/config';
import { DbsiClient } from '../harness/http/client';
import type { Timings } from '../harness/http/timings';
import type { Area, CaseReport } from '../harness/model';
import { Redactor } from '../harness/redact';
import { openLeftovers, type OpenLeftover } from '../harness/run/leftovers';
import { exitCodeFor } from '../harness/run/results';
import { referenceConfig } from '../reference-target/config';
import { startReferenceTarget, type ReferenceTarget } from '../reference-target/server';
import { FEATURES_BY_AREA } from '../suites';

/**
 * A conformant but flaky target: the reference target behind a small proxy on 127.0.0.1 that
 * misbehaves at the transport level only, as a plan decides per request. Whether the request reaches
 * the target (and so is applied) is part of each action. It stops by itself after `lifetimeMs`.
 */
export interface ProxiedRequest {
  method: string;
  path: string;
  body: string;
  /** 1-based number of the request, and of the write (anything but GET) among writes. */
  n: number;
  nWrite: number;
}

export type Action =
  /** Passed on, the answer passed back. */
  | { kind: 'forward' }
  /** 503 with an HTML body; `applied`: passed on first (the write landed), else never reaches the target. */
  | { kind: '503'; applied: boolean }
  /** 429 with this Retry-After, not passed on. */
  | { kind: '429'; retryAfter: string }
  /** Passed on (applied); the answer comes after `ms`. */
  | { kind: 'late'; ms: number }
  /** Passed on (applied); the answer announces more bytes than it sends, then the connection closes. */
  | { kind: 'cut-off' }
  /** Passed on (applied); the answer comes one byte every `everyMs`. */
  | { kind: 'dribble'; everyMs: number }
  /** Not passed on; never answered. */
  | { kind: 'silent' };

export type Plan = (r: ProxiedRequest) => Action;

export interface FlakyTarget {
  target: ReferenceTarget;
  urls: ReferenceTarget['urls'];
  seen: ProxiedRequest[];
  close(): Promise<void>;
}

const FORWARD: Action = { kind: 'forward' };

type Later = (ms: number, fn: () => void) => NodeJS.Timeout;

export async function startFlakyTarget(plan: Plan, opts: { lifetimeMs?: number } = {}): Promise<FlakyTarget> {
  const target = await startReferenceTarget();
  const upstream = new URL(target.urls.baseUrl);
  const seen: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const later: Later = (ms, fn) => {
    const t = setTimeout(() => (timers.delete(t), fn()), ms);
    t.unref();
    timers.add(t);
    return t;
  };
  let writes = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const method = req.method ?? 'GET';
      const r: ProxiedRequest = {
        method,
        path: req.url ?? '/',
        body: body.toString('utf8'),
        n: seen.length + 1,
        nWrite: method === 'GET' ? 0 : ++writes,
      };
      seen.push(r);
      await act(plan(r), { upstream, later }, r, req, res, body);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  // Idle connections kept longer than the client keeps them (4 s), as reference-target/server.ts does: no reset of a
  // reused connection on a loaded machine.
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const swap = (u: string) => origin + new URL(u).pathname;
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= (async () => {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await target.close();
    })());
  later(opts.lifetimeMs ?? 120_000, () => void close());
  return {
    target,
    urls: {
      baseUrl: swap(target.urls.baseUrl),
      authBaseUrl: swap(target.urls.authBaseUrl),
      transfersBaseUrl: swap(target.urls.transfersBaseUrl),
    },
    seen,
    close,
  };
}

/** What the plan decided for one request, done. */
async function act(
  action: Action,
  p: { upstream: URL; later: Later },
  r: ProxiedRequest,
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
): Promise<void> {
  try {
    switch (action.kind) {
      case 'silent':
        return;
      case '429':
        res.writeHead(429, { 'retry-after': action.retryAfter, 'content-type': 'text/plain' });
        return void res.end('slow down');
      case '503':
        if (action.applied) await forward(p.upstream, r.method, r.path, req.headers, body);
        res.writeHead(503, { 'content-type': 'text/html' });
        return void res.end('<html><body><h1>503 Service Unavailable</h1></body></html>');
    }
    const answer = await forward(p.upstream, r.method, r.path, req.headers, body);
    deliver(action, p.later, req, res, answer);
  } catch {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  }
}

/** The target's answer passed back: whole, late, cut off or a byte at a time. */
function deliver(
  action: Exclude<Action, { kind: 'silent' | '429' | '503' }>,
  later: Later,
  req: IncomingMessage,
  res: ServerResponse,
  answer: Upstream,
): void {
  switch (action.kind) {
    case 'forward':
      return passBack(res, answer);
    case 'late':
      return void later(action.ms, () => !res.destroyed && passBack(res, answer));
    case 'cut-off':
      res.writeHead(answer.status, {
        'content-type': 'application/json',
        'content-length': String(answer.body.length + 100),
      });
      res.write(answer.body.subarray(0, Math.floor(answer.body.length / 2)));
      return void later(20, () => req.socket.destroy());
    case 'dribble': {
      res.writeHead(answer.status, {
        'content-type': 'application/json',
        'content-length': String(answer.body.length + 40),
      });
      const bytes = Buffer.concat([answer.body, Buffer.from(' '.repeat(40))]);
      let i = 0;
      const tick = () => {
        if (res.destroyed) return;
        if (i >= bytes.length) return void res.end();
        res.write(bytes.subarray(i, i + 1));
        i++;
        later(action.everyMs, tick);
      };
      return tick();
    }
  }
}

export const forwardAll: Plan = () => FORWARD;

/** Every nth request (of those `which` selects) gets `action`; the rest are passed on. */
export function everyNth(n: number, action: Action, which: 'all' | 'writes' = 'all'): Plan {
  return (r) => ((which === 'writes' ? r.nWrite > 0 && r.nWrite % n === 0 : r.n % n === 0) ? action : FORWARD);
}

export interface FlakyRun {
  /** The target's customers and user disclosure records before the run. */
  before: Snapshot;
  cases: CaseReport[];
  leftovers: OpenLeftover[];
  exitCode: number;
  flaky: FlakyTarget;
  /** How often the client's pace was decreased (harness/http/pacing.ts): a burst of load shedding was noticed. */
  decreases: number;
}

/** Run areas in-process through the flaky proxy (the same code path as a real run, minus reporting). */
export async function runFlaky(opts: {
  plan: Plan;
  areas: Area[];
  seed?: number;
  http?: Record<string, unknown>;
  configure?: (cfg: TargetConfig) => TargetConfig;
  /** Before the run: e.g. add a customer to the target's records. */
  prepare?: (t: ReferenceTarget) => void;
  /** Clean-up floors and back-offs (default: the product's; MILLISECOND_TIMINGS of _timings.ts). */
  timings?: Partial<Timings>;
}): Promise<FlakyRun> {
  const flaky = await startFlakyTarget(opts.plan);
  try {
    opts.prepare?.(flaky.target);
    const before = snapshot(flaky.target);
    let config = referenceConfig({ urls: flaky.urls }, { http: { timeoutMs: 2_000, concurrency: 16, ...opts.http } });
    if (opts.configure) config = opts.configure(config);
    const settings: RunSettings = { config, seed: opts.seed ?? 99, strict: false, runId: 'rflk', specUrl: 'spec.md' };
    const client = new DbsiClient(config, new Redactor(secretValues(config)), { timings: opts.timings });
    const cases = await Promise.all(
      opts.areas.flatMap((a) =>
        FEATURES_BY_AREA[a].flatMap((f) => f.cases.map((c) => runCase(new CaseContext(settings, client, f, c)))),
      ),
    );
    await client.close();
    // As a run does: the whole run's log judged the way a capture is (harness/verdict/run-log-verdicts.ts).
    const failures = failuresOverTheLog(client.run.get(RUN_LOG), knownFromConfig(config));
    cases.push(...runLogReports(failures, { cases, strict: false, redactor: client.redactor, config }));
    const decreases = client.pacer.decreases;
    return { before, cases, leftovers: openLeftovers(cases), exitCode: exitCodeFor(cases), flaky, decreases };
  } finally {
    await flaky.close();
  }
}

type Snapshot = { customers: unknown; userDisclosures: unknown };
const snapshot = (t: ReferenceTarget): Snapshot =>
  structuredClone({
    customers: Object.fromEntries(t.state.customers),
    userDisclosures: Object.fromEntries(t.state.userDisclosures),
  });

/** Every customer (phone number, country code, e-mail, postal address) and every user disclosure record, exactly as the
 * target had them before the run. */
export function expectTargetAsFound(r: Pick<FlakyRun, 'before' | 'flaky'>): void {
  const now = snapshot(r.flaky.target);
  expect(now.customers).toEqual(r.before.customers);
  expect(now.userDisclosures).toEqual(r.before.userDisclosures);
}

/** Cases that failed a MUST check (a false failure on a conformant target), one line each. */
export function falseFailures(cases: CaseReport[]): string[] {
  return cases
    .filter((c) => c.outcome === 'failed' || c.outcome === 'error')
    .map((c) => `${c.outcome}: ${c.id}: ` + `${(c.reason ?? '').split('\n')[0]}`);
}
