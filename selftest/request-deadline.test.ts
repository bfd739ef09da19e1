import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { resolveConfig, secretValues } from '../harness/config';
import { Deadline, DeadlineExceeded } from '../harness/http/deadline';
import { DbsiClient, TransportError } from '../harness/http/client';
import { Redactor } from '../harness/redact';
import { within } from './_within';

/**
 * Issue 11: no request outlives http.timeoutMs, whatever undici does. The hang observed: after
 * undici refused a header value (a secret with a trailing CR), it held the following requests past
 * its own timeouts and abort signals. The configuration now refuses such values; the client's
 * deadline bounds every request anyway.
 */

const TIMEOUT_MS = 1_000;
/** Generous: proves "does not hang" on a loaded machine, not a speed. */
const BOUND_MS = TIMEOUT_MS + 4_000;

let server: Server;
let url = '';
beforeAll(async () => {
  server = createServer((_q, s) => {
    s.setHeader('content-type', 'application/json');
    s.end('{"institutionDisclosures":[]}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('the deadline', () => {
  test('rejects a promise that never settles once its time has passed, not before', async () => {
    // Only the clock is faked: the deadline ends one real turn of the event loop later, after the I/O received by
    // then (harness/http/loop-bound.ts), which a faked setImmediate would hold back for ever.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const d = new Deadline(50);
      let settled: unknown;
      const guarded = d.guard(new Promise(() => undefined)).catch((e: unknown) => (settled = e));
      await vi.advanceTimersByTimeAsync(49);
      expect(settled, 'before its time').toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      await guarded;
      expect(settled).toBeInstanceOf(DeadlineExceeded);
      d.clear();
    } finally {
      vi.useRealTimers();
    }
  });

  test('leaves a promise that settles in time alone', async () => {
    const d = new Deadline(5_000);
    await expect(d.guard(Promise.resolve(7))).resolves.toBe(7);
    d.clear();
  });
});

describe('a client whose undici refused an invalid header value', () => {
  test('answers every later request within http.timeoutMs: a timeout at worst, never a hang', async () => {
    const config = resolveConfig(
      {
        baseUrl: `${url}/api`,
        authBaseUrl: `${url}/id`,
        transfersBaseUrl: `${url}/x`,
        credentials: { bearerToken: 'deadline-token-1' },
        http: { timeoutMs: TIMEOUT_MS, retries: 0 },
      },
      {},
    );
    const client = new DbsiClient(config, new Redactor(secretValues(config)));
    try {
      // What a secret with a trailing CR (or a non-Latin-1 character) used to send: each refusal
      // leaks one of the pool's connections (8 here), and with all of them gone undici holds every
      // later request, past its own timeouts and the abort signal.
      for (const bad of [...Array(6).fill('deadline-token-1\r'), ...Array(6).fill('deadline-token-€')]) {
        const err = await client
          .send({ operation: 'listInstitutionDisclosures', headers: { Authorization: `Bearer ${bad}` } })
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(TransportError);
      }
      const outcomes = await Promise.all(
        [1, 2, 3].map(async () => {
          const sent = client
            .send({ operation: 'listInstitutionDisclosures', headers: { Authorization: 'Bearer deadline-token-1' } })
            .then(
              (res) => `answered ${res.status}`,
              (e: unknown) => (e instanceof TransportError ? e.kind : String(e)),
            );
          // A hang is a rejection: each request is bounded (not measured).
          return { r: await within(BOUND_MS, sent, 'a later request').catch((e: Error) => e.message) };
        }),
      );
      for (const o of outcomes) expect(['answered 200', 'timeout']).toContain(o.r);
    } finally {
      await Promise.race([client.close(), new Promise((r) => setTimeout(r, 1_000))]);
    }
  });
});
