import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { runMain } from './_main';
import { startMisbehavingServer } from './_misbehaving-server';
import { joined } from './_regex';

/**
 * The console while a run waits, piped (not a terminal), through main() in-process: the progress
 * heartbeat at its real interval. The rest of the console and the command line: console-and-cli.test.ts.
 */

/** A configured target (as a user writes the file) on the given base URL, with the reference target's data. */
function targetFile(dir: string, url: string, extra: Record<string, unknown> = {}): string {
  const file = join(dir, 'target.json');
  const urls = { baseUrl: `${url}/dbsi`, authBaseUrl: `${url}/identity`, transfersBaseUrl: `${url}/banking` };
  const data = { credentials: { ...REFERENCE_CREDENTIALS }, testData: REFERENCE_TEST_DATA };
  writeFileSync(file, JSON.stringify({ name: 'console test target', ...urls, ...data, ...extra }));
  return file;
}

const runCli = (args: string[], opts: Parameters<typeof runMain>[1] = {}) =>
  runMain(args, { timeoutMs: 150_000, ...opts });

describe('a run', { timeout: 300_000 }, () => {
  test('piped, a run waiting on a target that does not answer is never silent for more than about 5 s', async () => {
    const server = await startMisbehavingServer('silent');
    try {
      const first = await runCli(['--version']);
      const cfg = targetFile(first.reports, server.url, { http: { timeoutMs: 11_000, retries: 0 } });
      const title = 'answers a JSON object holding the institutionDisclosures array';
      const run = await runCli(['--config', cfg, '--grep', title], { timeoutMs: 90_000 });
      expect(run.code, run.stdout + run.stderr).toBe(3);
      // The heartbeat names the test it waits for; vitest 4.1 may hold back the "test started" event until
      // the test ends (its update throttle, docs/benchmarks.md), and the heartbeat then says the tests are starting.
      const waiting = joined(
        '',
        /… 0\/1 test, 1 running, [\d.]+ s; waiting for "answers a JSON object holding the /,
        /institutionDisclosures array" since \d+ s/,
      );
      const starting = /… 0\/1 test, [\d.]+ s; starting the tests/;
      expect(waiting.test(run.stdout) || starting.test(run.stdout), run.stdout).toBe(true);
      // The run's own clock, as each line shows it (not the test's): the heartbeats, then the verdict's
      // duration. Every line follows the one before within about 5 s (a heartbeat after 4 s of silence, checked
      // every second), from the start to the verdict; a missed heartbeat would leave 8 s or more, and the 3 s
      // between are room for a busy machine whose timers fire late.
      const heartbeats = [...run.stdout.matchAll(/^… .*?, ([\d.]+) s(;|$)/gm)].map((m) => Number(m[1]) * 1000);
      const end = Number(/— 1 test in ([\d.]+) s/.exec(run.stdout)![1]) * 1000;
      const marks = [0, ...heartbeats, end];
      expect(heartbeats.length, run.stdout).toBeGreaterThanOrEqual(2);
      const gaps = marks.slice(1).map((t, i) => t - marks[i]!);
      expect(Math.max(...gaps), "longest silence on stdout (ms, by the run's clock)").toBeLessThan(8_000);
    } finally {
      await server.close();
    }
  });
});
