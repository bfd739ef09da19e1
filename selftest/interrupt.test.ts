import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { caseId } from '../harness/case';
import { EXIT } from '../harness/run/results';
import { FEATURES_BY_AREA } from '../suites';
import { runCli } from './_cli';

/**
 * Interrupting a run (SIGINT, SIGTERM) stops it promptly and still writes what it has: the summary
 * and JUnit, with every selected test given a verdict; exit 130. The target is the embedded
 * reference target with an added latency.
 */
describe('interrupting a run', () => {
  const all = Object.values(FEATURES_BY_AREA).flatMap((fs) => fs.flatMap((f) => f.cases.map((c) => caseId(f, c)))).sort();

  // SIGINT lands while the runner starts (2 s answers, signal 1.5 s after the banner); SIGTERM lands
  // while requests are in flight (15 s answers, signal 6 s after the banner): an uninterrupted run
  // would need 15 s more, so an exit within 5 s of the signal is the proof of promptness.
  test.each([
    ['SIGINT', 2_000, 1_500],
    ['SIGTERM', 15_000, 6_000],
  ] as const)('%s: prompt exit 130, reports written, every test has a verdict', async (name, latency, afterMs) => {
    const run = await runCli(['--latency', String(latency)], { signal: { name, afterMs, once: /areas: / }, killAfterMs: 40_000 });
    expect(run.signal, run.stderr).toBeNull();
    expect(run.code, run.stdout + run.stderr).toBe(EXIT.INTERRUPTED);
    expect(run.stderr).toMatch(new RegExp(`${name} received: stopping`));
    // Prompt: well before the in-flight answers (2 s each, one after another) would have come.
    expect(run.afterSignalMs).toBeLessThan(5_000);
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
