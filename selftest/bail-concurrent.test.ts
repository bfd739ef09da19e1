import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { startReferenceTarget } from '../reference-target/server';
import { runMain } from './_main';

const runCli = (args: string[], o: { timeoutMs?: number } = {}) => runMain(args, { timeoutMs: 150_000, ...o });

/**
 * --bail in a run whose tests run side by side (http.concurrency above 1): the first failure stops the tests
 * still running (their requests abort, their clean-ups run), they are reported "not run to the end", and the
 * console never shows a test that did not run as passed. (A run at --concurrency 1: console-and-cli.test.ts.)
 */
describe('--bail with tests running side by side', { timeout: 300_000 }, () => {
  test('stops the running tests, reports them not run, and their clean-ups put the target back', async () => {
    // Every answer 150 ms late: when the first failure arrives, the longer tests are still running.
    const target = await startReferenceTarget({ faults: ['op1-envelope-renamed'], latencyMs: 150 });
    const records = () => [...target.state.userDisclosures.keys()].sort();
    const customers = () => JSON.stringify([...target.state.customers]);
    const before = { records: records(), customers: customers() };
    try {
      const first = await runCli(['--version']);
      const url = target.urls.baseUrl.replace(/\/dbsi$/, '');
      const cfg = join(first.reports, 'target.json');
      const allow = {
        moneyMovement: true,
        contactUpdate: true,
        tokenRevocation: true,
        institutionDisclosureWrites: true,
      };
      const urls = { baseUrl: `${url}/dbsi`, authBaseUrl: `${url}/identity`, transfersBaseUrl: `${url}/banking` };
      writeFileSync(
        cfg,
        JSON.stringify({
          name: 'bail test target',
          ...urls,
          credentials: REFERENCE_CREDENTIALS,
          testData: REFERENCE_TEST_DATA,
          allow,
          http: { concurrency: 8 },
        }),
      );
      const run = await runCli(['--config', cfg, '--bail'], { timeoutMs: 250_000 });
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stderr).toContain('--bail 1: 1 test failed; stopping the run (clean-ups still run)');
      const summary = JSON.parse(readFileSync(join(run.reports, 'conformance-summary.json'), 'utf8'));
      const cases = summary.cases as Array<{ outcome: string; reason?: string }>;
      expect(cases.filter((c) => c.outcome === 'failed').length).toBeLessThanOrEqual(2);
      const stopped = cases.filter((c) => c.reason?.includes('--bail 1 stopped the run'));
      expect(stopped.length, 'tests running at the first failure were stopped').toBeGreaterThan(0);
      for (const c of stopped) expect(c.outcome).toBe('could-not-test');
      expect(run.stdout, 'no test that did not run is shown as passed').not.toMatch(/^✓ .*\(0 ms\)$/m);
      expect(records(), 'the user disclosure records the run created were deleted').toEqual(before.records);
      expect(customers(), 'the customers were put back').toBe(before.customers);
    } finally {
      await target.close();
    }
  });
});
