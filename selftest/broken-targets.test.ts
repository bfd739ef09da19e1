import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { CaseContext, runCase, type RunSettings } from '../harness/case';
import { resolveConfig, secretValues } from '../harness/config';
import { DbsiClient, TransportError } from '../harness/http/client';
import type { CaseReport } from '../harness/model';
import { Redactor } from '../harness/redact';
import { exitCodeFor, EXIT } from '../harness/run/results';
import { FEATURES_BY_AREA } from '../suites';
import { runMain } from './_main';
import { HANG_MS, within } from './_within';
import {
  configFor,
  startMisbehavingServer,
  type Custom,
  type Misbehaviour,
  type MisbehavingServer,
} from './_misbehaving-server';

/**
 * The suite against targets that are down, slow, half-built or hostile: every test gets a verdict,
 * nothing crashes or hangs, and the run ends within a bound set by the configuration.
 * Timeouts here are small (http.timeoutMs 400 ms) so that these tests stay quick.
 */

const TIMEOUT_MS = 400;
let server: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(b: Misbehaviour | Custom, opts?: Parameters<typeof startMisbehavingServer>[1]) {
  server = await startMisbehavingServer(b, opts);
  return server;
}

function clientFor(url: string, http: Record<string, unknown> = {}) {
  const config = resolveConfig(configFor(url, { timeoutMs: TIMEOUT_MS, ...http }), {});
  return { config, client: new DbsiClient(config, new Redactor(secretValues(config))) };
}

/** The disclosures cases in-process against the server, as a real run does them (minus reporting). */
async function runDisclosures(url: string, http: Record<string, unknown> = {}) {
  const { config, client } = clientFor(url, http);
  const settings: RunSettings = { config, seed: 7, strict: false, runId: 'rbrk', specUrl: 'spec.md' };
  const declared = FEATURES_BY_AREA.disclosures.reduce((n, f) => n + f.cases.length, 0);
  /**
   * No hang: the worst case is every exchange timing out, its retry too, one after the other. The
   * cases send at most a few exchanges each: the bound assumes four (a case that sends more ends
   * sooner, as the target is declared dead after three requests without an answer).
   */
  const boundMs = config.http.timeoutMs * (config.http.retries + 1) * 4 * declared + 2_000;
  const all = FEATURES_BY_AREA.disclosures.flatMap((f) =>
    f.cases.map((c) => runCase(new CaseContext(settings, client, f, c))),
  );
  const cases = await within(boundMs, Promise.all(all), 'the disclosures cases');
  await client.close();
  return { cases, declared, exitCode: exitCodeFor(cases) };
}

/** The outcomes of the cases that sent something: "not allowed" ones (safety switches off, the default) never do. */
const sent = (cases: CaseReport[]) => cases.filter((c) => c.outcome !== 'not-allowed');
const outcomes = (cases: CaseReport[]) => [...new Set(sent(cases).map((c) => c.outcome))].sort();

describe('a target that never answers', () => {
  test('every case could not be tested (timeout), within the configured bound', async () => {
    const s = await start('silent');
    const r = await runDisclosures(s.url);
    expect(r.cases).toHaveLength(r.declared);
    expect(outcomes(r.cases)).toEqual(['could-not-test']);
    for (const c of sent(r.cases)) expect(c.reason).toMatch(/no complete answer within the request timeout/);
    expect(r.exitCode).toBe(EXIT.COULD_NOT_TEST);
  });
});

describe('a target that answers after a very long delay', () => {
  test('is a timeout, not a wait for the answer', async () => {
    const s = await start('slow', { delayMs: 30_000 });
    const r = await runDisclosures(s.url);
    expect(outcomes(r.cases)).toEqual(['could-not-test']);
  });
});

describe('a target that trickles its answer a byte at a time', () => {
  test('the request timeout covers the whole answer, not each byte: a timeout', async () => {
    let written = 0;
    const s = await start((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const t = setInterval(() => (res.destroyed ? clearInterval(t) : (res.write(' '), written++)), 50);
      t.unref();
    });
    // 4 s for the whole answer, a byte every 50 ms: even a machine ten times slower writes several bytes before
    // it (at 400 ms, a stress run wrote one: issue 34). A timeout per byte would never fire: the request would not end.
    const trickleTimeoutMs = 4_000;
    const { client } = clientFor(s.url, { timeoutMs: trickleTimeoutMs });
    const sending = client.send({ operation: 'listInstitutionDisclosures' }).catch((e: unknown) => e);
    const err = (await within(trickleTimeoutMs + 10_000, sending, 'the request')) as TransportError;
    const writtenBeforeTheTimeout = written;
    await client.close();
    expect(err).toBeInstanceOf(TransportError);
    expect(err.kind).toBe('timeout');
    // The bytes kept coming until the timeout: it covered the whole answer.
    expect(writtenBeforeTheTimeout).toBeGreaterThan(1);
  });
});

describe('a target that resets connections', () => {
  test('every case could not be tested; a request that reached the target is never repeated', async () => {
    const s = await start('reset');
    // The answer comes at once: the request time-out only stops a hang (400 ms lost to a loaded machine's delay).
    const r = await runDisclosures(s.url, { timeoutMs: HANG_MS });
    expect(outcomes(r.cases)).toEqual(['could-not-test']);
    // Reset after reset on several operations: the target is declared dead, the rest is not sent.
    for (const c of sent(r.cases))
      expect(c.reason).toMatch(/connection reset by the target|other side closed|the target stopped answering/);
    const exchanges = r.cases.flatMap((c) => c.exchanges);
    expect(exchanges.every((e) => e.retries.length === 0)).toBe(true);
    // Each request reached the target at most once (those stopped by the dead-target breaker were in flight, or never
    // sent).
    expect(s.received.length).toBeLessThanOrEqual(exchanges.length);
    expect(s.received.length).toBeGreaterThanOrEqual(
      exchanges.filter((e) => e.error?.kind !== 'target-stopped').length,
    );
    expect(exchanges.some((e) => e.error?.kind === 'target-stopped')).toBe(true);
  });
});

describe('a target that writes bytes that are not HTTP', () => {
  test('every case could not be tested: the answer is not HTTP', async () => {
    const s = await start('garbage');
    // The answer comes at once: the request time-out only stops a hang (400 ms lost to a loaded machine's delay).
    const r = await runDisclosures(s.url, { timeoutMs: HANG_MS });
    expect(outcomes(r.cases)).toEqual(['could-not-test']);
    for (const c of sent(r.cases)) expect(c.reason).toMatch(/not HTTP|reset/);
    expect(r.exitCode).toBe(EXIT.COULD_NOT_TEST);
  });
});

describe('a target that answers non-JSON where JSON is documented', () => {
  test('is a spec break reported by CONV-JSON-BODIES (exit 1), not a crash', async () => {
    const s = await start('non-json');
    // The answer comes at once: the request time-out only stops a hang (400 ms lost to a loaded machine's delay).
    const r = await runDisclosures(s.url, { timeoutMs: HANG_MS });
    expect(r.cases.filter((c) => c.outcome === 'error' || c.outcome === 'could-not-test')).toEqual([]);
    const failedIds = new Set(
      r.cases.flatMap((c) => c.checks.filter((k) => k.outcome === 'failed').map((k) => k.requirement)),
    );
    expect(failedIds).toContain('CONV-JSON-BODIES');
    const failure = r.cases.flatMap((c) => c.checks).find((k) => k.requirement === 'CONV-JSON-BODIES')!;
    expect(failure.received).toMatch(/not JSON/);
    expect(failure.curl).toMatch(/^curl /);
    expect(r.exitCode).toBe(EXIT.NON_CONFORMANT);
  });
});

describe('a target that answers a body of tens of megabytes', () => {
  test('the body is cut off at http.maxBodyBytes, and the target gets no further than the socket buffers', async () => {
    const s = await start('huge', { hugeBytes: 40 * 1024 * 1024 });
    const limit = 256 * 1024;
    const { client } = clientFor(s.url, { maxBodyBytes: limit, timeoutMs: 5_000 });
    const res = await client.send({ operation: 'listInstitutionDisclosures', headers: { Authorization: 'Bearer x' } });
    await client.close();
    expect(res.truncated).toBe(true);
    expect(res.exchange.response!.bytes).toBe(limit);
    expect(res.text.length).toBe(limit);
    expect(res.jsonError).toMatch(/larger than http.maxBodyBytes/);
    await new Promise((r) => setTimeout(r, 200));
    // The server could hand the kernel no more than the limit plus what socket buffers hold.
    expect(s.bytesWritten).toBeLessThan(limit + 16 * 1024 * 1024);
    expect(s.bytesWritten).toBeLessThan(40 * 1024 * 1024);
  });

  test('a check that needed the rest of the body makes the case "could not test", not a failure', async () => {
    const s = await start('huge', { hugeBytes: 20 * 1024 * 1024 });
    const r = await runDisclosures(s.url, { maxBodyBytes: 64 * 1024, timeoutMs: 5_000 });
    expect(r.cases.filter((c) => c.outcome === 'failed' || c.outcome === 'error')).toEqual([]);
    const cut = r.cases.filter((c) => c.outcome === 'could-not-test');
    expect(cut.length).toBeGreaterThan(0);
    for (const c of cut) expect(c.reason).toMatch(/larger than http.maxBodyBytes/);
  });
});

describe('a target that answers 503 now and then', () => {
  const every2nd503: Custom = (_req, res, n) => {
    if (n % 2 === 1) {
      res.writeHead(503, { 'retry-after': '0' });
      return void res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"institutionDisclosures":[]}');
  };

  test('a read is repeated once, and the exchange says so', async () => {
    const s = await start(every2nd503);
    const { client } = clientFor(s.url);
    const res = await client.send({ operation: 'listInstitutionDisclosures' });
    await client.close();
    expect(res.status).toBe(200);
    expect(s.received).toHaveLength(2);
    expect(res.exchange.retries).toEqual([expect.stringMatching(/^503 answered; repeated after 0 ms \(Retry-After\)/)]);
  });

  test('a write that may have reached the target is not repeated: could not test (unavailable)', async () => {
    const s = await start(every2nd503);
    const { client } = clientFor(s.url);
    const err = await client.send({ operation: 'createUserDisclosure', body: { a: 1 } }).catch((e: unknown) => e);
    await client.close();
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).kind).toBe('unavailable');
    expect(s.received).toHaveLength(1);
  });

  test('the run still gives every case a verdict', async () => {
    const s = await start(every2nd503);
    const r = await runDisclosures(s.url);
    expect(r.cases).toHaveLength(r.declared);
    expect(r.cases.filter((c) => c.outcome === 'error')).toEqual([]);
    expect(r.cases.flatMap((c) => c.exchanges).some((e) => e.retries.length > 0)).toBe(true);
  });
});

describe('the main job (main() in-process) against a broken target', () => {
  const verdicts = (dir: string) => {
    const summary = JSON.parse(readFileSync(join(dir, 'conformance-summary.json'), 'utf8')) as {
      cases: Array<{ outcome: string }>;
    };
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    return { summary, testcases: (junit.match(/<testcase /g) ?? []).length };
  };
  const declared = FEATURES_BY_AREA.disclosures.reduce((n, f) => n + f.cases.length, 0);

  test(
    'never answers: exit 3 within the bound, reports written, every test given a ' +
      'verdict; the TLS warning is shown even with --quiet',
    async () => {
      const s = await start('silent');
      // Start-up (a few seconds) plus every request timing out with its retry, one after the other.
      const bound = 20_000 + TIMEOUT_MS * 2 * declared;
      const raw = configFor(s.url, { timeoutMs: TIMEOUT_MS, tls: { rejectUnauthorized: false } });
      const run = await runMain(['--area', 'disclosures', '--quiet'], { raw, timeoutMs: bound });
      expect(run.code, run.stdout + run.stderr).toBe(EXIT.COULD_NOT_TEST);
      const { summary, testcases } = verdicts(run.reports);
      expect(summary.cases).toHaveLength(declared);
      expect(summary.cases.every((c) => c.outcome === 'could-not-test' || c.outcome === 'not-allowed')).toBe(true);
      expect(summary.cases.some((c) => c.outcome === 'could-not-test')).toBe(true);
      expect(testcases).toBe(declared);
      expect(existsSync(join(run.reports, 'conformance-summary.md'))).toBe(true);
      expect(run.stderr).toMatch(/WARNING: TLS certificate verification is OFF/);
    },
  );

  test('non-JSON where JSON is documented: exit 1 (a spec break)', async () => {
    const s = await start('non-json');
    const run = await runMain(['--area', 'disclosures', '--quiet'], {
      raw: configFor(s.url, { timeoutMs: HANG_MS }),
    });
    expect(run.code, run.stdout + run.stderr).toBe(EXIT.NON_CONFORMANT);
    expect(run.stdout).toMatch(/CONV-JSON-BODIES/);
    expect(verdicts(run.reports).summary.cases).toHaveLength(declared);
  });

  test('bytes that are not HTTP: exit 3, reports written', async () => {
    const s = await start('garbage');
    const run = await runMain(['--area', 'disclosures', '--quiet'], {
      raw: configFor(s.url, { timeoutMs: HANG_MS }),
    });
    expect(run.code, run.stdout + run.stderr).toBe(EXIT.COULD_NOT_TEST);
    expect(verdicts(run.reports).testcases).toBe(declared);
  });
});
