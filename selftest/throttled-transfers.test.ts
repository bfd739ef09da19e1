import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { CaseContext, runCase, type RunSettings } from '../harness/case';
import { resolveConfig, secretValues } from '../harness/config';
import { DbsiClient, TransportError, type SendOptions } from '../harness/http/client';
import { throttleNamed } from '../harness/http/throttling';
import { Redactor } from '../harness/redact';
import { regradeCase, SetupProof } from '../harness/setup/proof';
import { transferBudget } from '../harness/transfer-budget';
import { referenceConfig } from '../reference-target/config';
import { startReferenceTarget, THROTTLED_ANSWER } from '../reference-target/server';
import { FEATURES_BY_AREA } from '../suites';
import { configFor, startMisbehavingServer, type MisbehavingServer } from './_misbehaving-server';
import { explain } from './_reference';

/**
 * Issue 31 (with issue 34): under the embedded spike arrest (`--throttle`), an answer 500 CMN_90002 never fails a
 * requirement, and the budget of transfers accepted by mistake (harness/transfer-budget.ts) is never spent by a
 * request the spike arrest refused: it was not processed. The spike arrest is tight (a few requests per second)
 * and the client runs many side by side, so that several transfer requests are refused in each run.
 */
async function throttledTransfers(seed: number, perSecond: number) {
  const target = await startReferenceTarget({ throttlePerSecond: perSecond });
  try {
    const config = referenceConfig(target, { allow: { moneyMovement: true }, http: { concurrency: 16 } });
    const settings: RunSettings = { config, seed, strict: false, runId: 'rthr', specUrl: 'spec.md' };
    const client = new DbsiClient(config, new Redactor(secretValues(config)));
    const sent = await Promise.all(
      FEATURES_BY_AREA['money-movement'].flatMap((f) =>
        f.cases.map((c) => runCase(new CaseContext(settings, client, f, c))),
      ),
    );
    await client.close();
    const proof = new SetupProof(sent);
    return { cases: sent.map((c) => regradeCase(c, proof)), budget: transferBudget(client.run, config) };
  } finally {
    await target.close();
  }
}

const throttled = (body: string | undefined) => body?.includes(THROTTLED_ANSWER.body.code) === true;

describe('money movement against a conformant target behind a tight spike arrest', () => {
  test.each([
    [1, 4],
    [2, 8],
  ])('seed %i, %i requests/s: no 500 fails a requirement, no refused request spends the budget', async (seed, rate) => {
    const { cases, budget } = await throttledTransfers(seed, rate);
    const failed = cases.filter((c) => c.outcome === 'failed' || c.outcome === 'error');
    expect(explain(failed), 'no test may fail').toBe('');
    const exchanges = cases.flatMap((c) => c.exchanges);
    // The spike arrest did refuse transfer requests: the run met the case this test is about.
    const refused = exchanges.filter(
      (e) =>
        e.request.method === 'POST' &&
        (throttled(e.response?.body) || e.retries.some((r) => /500 answered naming a throttle/.test(r))),
    );
    expect(refused.length).toBeGreaterThan(0);
    // Nothing spent the budget: every request built to be refused was refused (4xx) or by the spike arrest.
    expect(budget.spent).toEqual([]);
    expect(
      cases.filter((c) => /budget of transfers accepted by mistake/.test(c.reason ?? '')).map((c) => c.id),
    ).toEqual([]);
  });
});

let server: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const spike = (res: ServerResponse) => {
  res.writeHead(500, { 'content-type': 'application/json' });
  res.end(JSON.stringify(THROTTLED_ANSWER.body));
};
const WRITE: SendOptions = { operation: 'createTransfer', body: { amount: 1 } };

function clientFor(url: string) {
  const raw = configFor(url, { timeoutMs: 2_000, retries: 1 });
  const allow = { moneyMovement: true, contactUpdate: true, tokenRevocation: true, institutionDisclosureWrites: true };
  const config = resolveConfig({ ...raw, allow }, {});
  return new DbsiClient(config, new Redactor(secretValues(config)));
}

describe('a 500 that names a throttle (harness/http/throttling.ts)', () => {
  test('is recognised by the words of its body, for a 500 only', () => {
    expect(throttleNamed(500, JSON.stringify(THROTTLED_ANSWER.body))).toBe('Spike limit violation');
    expect(throttleNamed(500, '{"error":"rate limit exceeded"}')).toBe('rate limit');
    expect(throttleNamed(500, '<h1>Too Many Requests</h1>')).toBe('Too Many Requests');
    expect(throttleNamed(500, '{"code":"CMN_90002"}')).toBeUndefined();
    expect(throttleNamed(500, '{"message":"internal error"}')).toBeUndefined();
    expect(throttleNamed(400, '{"message":"rate limit exceeded"}')).toBeUndefined();
  });

  test('a write answered so is re-checked alone and judged on the answer that follows', async () => {
    server = await startMisbehavingServer((_req, res, n) => (n === 1 ? spike(res) : res.end('{}')));
    const client = clientFor(server.url);
    const res = await client.send(WRITE);
    await client.close();
    expect(res.status).toBe(200);
    expect(server.received).toHaveLength(2);
    expect(res.exchange.retries.join('\n')).toMatch(/500 answered naming a throttle \("Spike limit violation"\)/);
  });

  test('one that repeats is not judged: the request was not processed', async () => {
    server = await startMisbehavingServer((_req, res) => spike(res));
    const client = clientFor(server.url);
    const e = await client.send(WRITE).catch((x: unknown) => x);
    await client.close();
    expect(e).toBeInstanceOf(TransportError);
    expect((e as TransportError).notProcessed).toBe(true);
    expect((e as TransportError).message).toMatch(/naming a throttle .*it did not process the request/);
    expect(server.received.length).toBeGreaterThan(1);
  });
});
