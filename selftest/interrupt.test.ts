import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { caseId, CaseContext, feature, runCase } from '../harness/case';
import { resolveConfig, secretValues } from '../harness/config';
import { DbsiClient } from '../harness/http/client';
import { Redactor } from '../harness/redact';
import { configFor, startMisbehavingServer } from './_misbehaving-server';
import { EXIT } from '../harness/run/results';
import { FEATURES_BY_AREA } from '../suites';
import { runCli } from './_spawn-cli';

/**
 * Interrupting a run (SIGINT, SIGTERM) stops it promptly and still writes what it has: the summary
 * and JUnit, with every selected test given a verdict; exit 130. The target is the embedded
 * reference target with an added latency.
 */
describe('interrupting a run', () => {
  const all = Object.values(FEATURES_BY_AREA).flatMap((fs) => fs.flatMap((f) => f.cases.map((c) => caseId(f, c)))).sort();

  // SIGINT lands while the runner starts (2 s answers, signal 1.5 s after the banner); SIGTERM lands
  // while requests are in flight (4 s answers, under the 5 s request timeout, signal 6 s after the
  // banner): an uninterrupted run would need up to 9 answers one after another (36 s). Clean-ups still
  // run after the signal, each request bounded by the request timeout: an exit within 8 s of the
  // signal is the proof of promptness.
  test.each([
    ['SIGINT', 2_000, 1_500],
    ['SIGTERM', 4_000, 6_000],
  ] as const)('%s: prompt exit 130, reports written, every test has a verdict', async (name, latency, afterMs) => {
    const run = await runCli(['--latency', String(latency)], { signal: { name, afterMs, once: /areas: / }, killAfterMs: 40_000 });
    expect(run.signal, run.stderr).toBeNull();
    expect(run.code, run.stdout + run.stderr).toBe(EXIT.INTERRUPTED);
    expect(run.stderr).toMatch(new RegExp(`${name} received: stopping`));
    // Prompt: well before the in-flight answers (2 s each, one after another) would have come.
    expect(run.afterSignalMs).toBeLessThan(8_000);
    const summary = JSON.parse(readFileSync(join(run.reportsDir, 'conformance-summary.json'), 'utf8')) as { facts: { verdict: string; exitCode: number }; cases: Array<{ id: string; outcome: string; reason?: string }> };
    expect(summary.facts.verdict).toBe('interrupted');
    expect(summary.facts.exitCode).toBe(EXIT.INTERRUPTED);
    expect(summary.cases.map((c) => c.id).sort()).toEqual(all);
    for (const c of summary.cases) expect(c.outcome).toMatch(/^(passed|failed|warning|not-applicable|not-allowed|could-not-test)$/);
    expect(summary.cases.some((c) => /interrupted/.test(c.reason ?? ''))).toBe(true);
    const junit = readFileSync(join(run.reportsDir, 'junit.xml'), 'utf8');
    expect((junit.match(/<testcase /g) ?? []).length).toBe(all.length);
  }, 60_000);
});

describe('an interrupted case', () => {
  test('stops its request at once, is "could not test: interrupted", and still runs its clean-up', async () => {
    // The list is never answered; the clean-up's delete is.
    const server = await startMisbehavingServer((req, res) => {
      if (req.method === 'DELETE') {
        res.writeHead(204);
        res.end();
      }
    });
    try {
      const config = resolveConfig(configFor(server.url, { timeoutMs: 10_000 }), {});
      const client = new DbsiClient(config, new Redactor(secretValues(config)));
      const f = feature('disclosures', 'listInstitutionDisclosures', [
        {
          title: 'creates, then waits',
          requirements: ['OP1-REQUEST'],
          async run(t) {
            t.cleanup('delete what was created', () => t.send({ operation: 'deleteUserDisclosureById', pathParams: { institutionUserDisclosureId: 'made-by-this-case' } }));
            await t.send({ operation: 'listInstitutionDisclosures' });
          },
        },
      ]);
      const stop = new AbortController();
      const settings = { config, seed: 1, strict: false, runId: 'rint', specUrl: 'spec.md' };
      setTimeout(() => stop.abort(new Error('the run was cancelled')), 200);
      const t0 = performance.now();
      const report = await runCase(new CaseContext(settings, client, f, f.cases[0]!, undefined, stop.signal));
      await client.close();
      expect(performance.now() - t0).toBeLessThan(3_000);
      expect(report.outcome).toBe('could-not-test');
      expect(report.reason).toMatch(/^could not test: the run was interrupted/);
      expect(server.received.map((r) => r.method)).toEqual(['GET', 'DELETE']);
      expect(report.exchanges.at(-1)!.response?.status).toBe(204);
    } finally {
      await server.close();
    }
  });
});
