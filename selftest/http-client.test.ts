import { afterEach, describe, expect, test, vi } from 'vitest';
import { resolveConfig, secretValues } from '../harness/config';
import { DbsiClient, TransportError, type SendOptions } from '../harness/http/client';
import { Limiter } from '../harness/http/limiter';
import { Redactor } from '../harness/redact';
import { parseCli } from '../harness/run/args';
import { renderExchange } from '../harness/evidence/exchange-text';
import { buildSummary, summaryMarkdown, type RunFacts } from '../harness/evidence/summary';
import type { CaseReport } from '../harness/model';
import { configFor, startMisbehavingServer, type Custom, type MisbehavingServer } from './_misbehaving-server';
import { closedPort } from './_closed-port';

/**
 * The client retries only where it is safe, says so in the report, and keeps to its limits.
 * Limits are proved by counting (requests in flight, starts per window), never by timing the run.
 */

let server: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.useRealTimers();
});

const ALL_ALLOWED = {
  moneyMovement: true,
  contactUpdate: true,
  tokenRevocation: true,
  institutionDisclosureWrites: true,
};

function clientFor(url: string, http: Record<string, unknown> = {}) {
  const config = resolveConfig(
    { ...configFor(url, { timeoutMs: 2_000, retries: 2, ...http }), allow: ALL_ALLOWED },
    {},
  );
  return new DbsiClient(config, new Redactor(secretValues(config)));
}

/** The writes that change real things: none may be repeated once it may have reached the target. */
const WRITES: Array<[string, SendOptions]> = [
  ['a transfer', { operation: 'createTransfer', body: { amount: 1 } }],
  ['a token revocation', { operation: 'revokeToken' }],
  [
    'a contact update',
    { operation: 'updateContactInfo', pathParams: { customerId: 'c1' }, body: { phoneNumber: '1' } },
  ],
  ['a user disclosure creation', { operation: 'createUserDisclosure', body: {} }],
];

describe('retries only where they are safe', () => {
  test.each(WRITES)('%s is never repeated after the connection was reset', async (_name, o) => {
    server = await startMisbehavingServer('reset');
    const client = clientFor(server.url);
    const err = await client.send(o).catch((e: unknown) => e);
    await client.close();
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).kind).toBe('connection');
    expect((err as TransportError).exchange!.retries).toEqual([]);
    expect(server.received).toHaveLength(1);
  });

  test.each(WRITES)('%s is never repeated after a timeout', async (_name, o) => {
    server = await startMisbehavingServer('silent');
    const client = clientFor(server.url, { timeoutMs: 300 });
    const err = await client.send(o).catch((e: unknown) => e);
    await client.close();
    expect((err as TransportError).kind).toBe('timeout');
    expect(server.received).toHaveLength(1);
  });

  test(
    'a transfer is tried again when the connection was refused ' + '(nothing was sent), and the exchange says so',
    async () => {
      const port = await closedPort();
      const client = clientFor(`http://127.0.0.1:${port}`, { retries: 1 });
      const err = (await client.send(WRITES[0]![1]).catch((e: unknown) => e)) as TransportError;
      await client.close();
      expect(err.kind).toBe('connection');
      expect(err.message).toMatch(/ECONNREFUSED/);
      expect(err.exchange!.retries).toEqual([
        expect.stringMatching(/ECONNREFUSED.*nothing was sent, so it was tried again/),
      ]);
    },
  );

  test('a 503 on a write is not repeated', async () => {
    server = await startMisbehavingServer('unavailable');
    const client = clientFor(server.url);
    const err = (await client.send(WRITES[0]![1]).catch((e: unknown) => e)) as TransportError;
    await client.close();
    expect(err.kind).toBe('unavailable');
    expect(server.received).toHaveLength(1);
  });
});

describe('429 Too Many Requests', () => {
  const throttleFirst =
    (retryAfter: string): Custom =>
    (_req, res, n) => {
      if (n === 1) {
        res.writeHead(429, { 'retry-after': retryAfter });
        return void res.end();
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"institutionDisclosures":[]}');
    };

  test('is repeated after the Retry-After delay (even a transfer: 429 means not processed)', async () => {
    const arrivals: number[] = [];
    const answer = throttleFirst('1');
    server = await startMisbehavingServer((req, res, n) => {
      arrivals.push(performance.now());
      answer(req, res, n);
    });
    const client = clientFor(server.url);
    const res = await client.send(WRITES[0]![1]);
    await client.close();
    expect(res.status).toBe(200);
    expect(server.received).toHaveLength(2);
    // Honoured: the second request did not start before the delay the target asked for.
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(950);
    expect(res.exchange.retries).toEqual(['429 answered; repeated after 1000 ms (Retry-After)']);
  });

  test('an HTTP-date Retry-After is honoured too', async () => {
    server = await startMisbehavingServer(throttleFirst(new Date(Date.now() - 1000).toUTCString()));
    const client = clientFor(server.url);
    const res = await client.send({ operation: 'listInstitutionDisclosures' });
    await client.close();
    expect(res.status).toBe(200);
    expect(res.exchange.retries[0]).toMatch(/^429 answered; repeated after 0 ms/);
  });

  test('a Retry-After longer than the run may wait is not waited for: could not test', async () => {
    server = await startMisbehavingServer(throttleFirst('3600'));
    const client = clientFor(server.url);
    const err = (await client
      .send({ operation: 'listInstitutionDisclosures' })
      .catch((e: unknown) => e)) as TransportError;
    await client.close();
    expect(err.kind).toBe('unavailable');
    expect(err.message).toMatch(/429.*Retry-After: 3600/);
    expect(server.received).toHaveLength(1);
  });

  test('a target that keeps answering 429 is tried http.retries more times, then could not test', async () => {
    server = await startMisbehavingServer((_req, res) => {
      res.writeHead(429, { 'retry-after': '0' });
      res.end();
    });
    const client = clientFor(server.url, { retries: 2 });
    const err = (await client
      .send({ operation: 'listInstitutionDisclosures' })
      .catch((e: unknown) => e)) as TransportError;
    await client.close();
    expect(err.kind).toBe('unavailable');
    expect(server.received).toHaveLength(3);
    expect(err.exchange!.retries).toHaveLength(2);
  });
});

const FACTS: RunFacts = {
  target: {
    name: 't',
    baseUrl: 'http://127.0.0.1',
    authBaseUrl: 'http://127.0.0.1',
    transfersBaseUrl: 'http://127.0.0.1',
    embedded: false,
    faults: [],
  },
  suiteVersion: '0',
  spec: { file: 'spec.md', sha256: '0'.repeat(64) },
  seed: 1,
  strict: false,
  areas: ['disclosures'],
  filter: {},
  startedAt: new Date(0).toISOString(),
  durationMs: 1,
  node: process.version,
  exitCode: 0,
  verdict: 'conformant',
  problems: [],
};

describe('the report says when a retry happened', () => {
  test('in the rendered exchange (Allure attachment), and in the summary (JSON and Markdown)', async () => {
    server = await startMisbehavingServer((_req, res, n) => {
      res.writeHead(n === 1 ? 429 : 200, { 'retry-after': '0', 'content-type': 'application/json' });
      res.end('{}');
    });
    const client = clientFor(server.url);
    const res = await client.send({ operation: 'listInstitutionDisclosures' });
    await client.close();
    expect(renderExchange(res.exchange)).toMatch(/retries:\n {2}- 429 answered; repeated after 0 ms/);
    const report: CaseReport = {
      id: 'x/y/z',
      area: 'disclosures',
      operation: 'op',
      title: 'a case',
      requirements: [],
      outcome: 'passed',
      checks: [],
      exchanges: [res.exchange],
      durationMs: 1,
      parameters: {},
    };
    const summary = buildSummary(FACTS, [report], []);
    expect(summary.cases[0]!.retries).toEqual([expect.stringMatching(/^GET .*: 429 answered; repeated after 0 ms/)]);
    expect(summaryMarkdown(summary)).toMatch(/## Retries[\s\S]*a case: GET .*429 answered/);
  });
});

describe('concurrency and rate limits', () => {
  test('no more requests in flight than http.concurrency', async () => {
    let inFlight = 0;
    let most = 0;
    server = await startMisbehavingServer((_req, res) => {
      most = Math.max(most, ++inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      }, 20);
    });
    const client = clientFor(server.url, { concurrency: 3 });
    await Promise.all(Array.from({ length: 15 }, () => client.send({ operation: 'listInstitutionDisclosures' })));
    await client.close();
    expect(server.received).toHaveLength(15);
    expect(most).toBe(3);
  });

  test('--concurrency N overrides http.concurrency; 0 or a fraction is a usage error', () => {
    expect(parseCli(['--concurrency', '3']).concurrency).toBe(3);
    expect(parseCli([]).concurrency).toBeUndefined();
    expect(() => parseCli(['--concurrency', '0'])).toThrow(/--concurrency must be a whole number/);
    expect(() => parseCli(['--concurrency', '1.5'])).toThrow(/--concurrency must be a whole number/);
  });

  test('the limiter holds the (n+1)th request until one is released', async () => {
    const l = new Limiter(2, 0);
    const r1 = await l.acquire();
    await l.acquire();
    let third = false;
    const p = l.acquire().then(() => (third = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(third).toBe(false);
    r1();
    r1(); // a second release of the same slot frees nothing more
    await p;
    expect(third).toBe(true);
  });

  test('a request waiting for a slot stops waiting when its case is interrupted', async () => {
    const l = new Limiter(1, 0);
    await l.acquire();
    const stop = new AbortController();
    const waiting = l.acquire(stop.signal);
    stop.abort(new Error('interrupted'));
    await expect(waiting).rejects.toThrow('interrupted');
  });

  test('no more starts per second than http.rateLimitPerSecond (counted in fake time)', async () => {
    vi.useFakeTimers({ now: 0 });
    const l = new Limiter(100, 10);
    let started = 0;
    for (let i = 0; i < 10; i++) void l.acquire().then(() => started++);
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toBe(1);
    await vi.advanceTimersByTimeAsync(450);
    expect(started).toBe(5); // at 0, 100, 200, 300, 400 ms
    await vi.advanceTimersByTimeAsync(1000);
    expect(started).toBe(10);
  });
});
