import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { EXIT } from '../harness/run/results';
import { runCli } from './_spawn-cli';

/**
 * A deliberate second Ctrl-C, more than a second after the first, leaves at once, without clean-ups or
 * reports: through tsx, signalled to the process group as a terminal does (interrupt.test.ts: one).
 */
describe('interrupting a run twice', () => {
  test('a deliberate second Ctrl-C, more than a second after the first, leaves at once (through tsx)', async () => {
    // 4 s answers: the clean-ups of the first Ctrl-C are still running when the second comes. The first comes 6 s
    // after the first verdict line, so the tests are running with writes to clean up: counted from the banner, a
    // loaded machine was still starting the runner, nothing was left to clean up and the run had ended before the
    // second Ctrl-C (issue 34, npm run test:stress).
    const run = await runCli(['--latency', '4000'], {
      launcher: 'tsx',
      signal: { name: 'SIGINT', afterMs: 6_000, once: /^✓ /m, group: true, againAfterMs: [1_500] },
      killAfterMs: 55_000,
      killAfterSignalMs: 1_500 + 3_000,
    });
    expect(run.code, run.stdout + run.stderr).toBe(EXIT.INTERRUPTED);
    expect(run.stderr).toMatch(/SIGINT received: stopping/);
    expect(run.stderr).toMatch(/second SIGINT: leaving now/);
    // It left before the clean-ups of the first were done (they take 4 s answers): no reports written.
    expect(run.killed, 'killed 3 s after the second signal').toBe(false);
    expect(existsSync(join(run.reportsDir, 'conformance-summary.json'))).toBe(false);
  });
});
