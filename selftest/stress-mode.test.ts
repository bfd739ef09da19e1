import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from './_cli';
import { until } from './_within';

/**
 * `npm run test:stress` (selftest/stress.ts, issue 34): the command it runs has CPU hogs beside it, two per core,
 * its exit code is the command's, and no hog outlives it. The command here is a one-line node script.
 */
function stress(env: NodeJS.ProcessEnv, command: string[], dash = ['--']) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    // As the npm script runs it: Node with tsx's loader, one process (the tsx command would kill it, hogs left
    // running, when a loaded machine made it slow to acknowledge a signal: harness/run/tsx-supervisor.ts).
    execFile(
      process.execPath,
      ['--import', 'tsx', 'selftest/stress.ts', ...dash, ...command],
      { cwd: ROOT, env: { ...process.env, ...env }, timeout: 120_000 },
      (e, stdout, stderr) => resolve({ code: e ? Number(e.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('npm run test:stress', () => {
  test('runs the command beside two hogs per core, passes its exit code on, and stops every hog', async () => {
    const run = await stress({ STRESS_HOGS: '' }, [process.execPath, '-e', 'process.exit(3)']);
    expect(run.code, run.stderr).toBe(3);
    const hogs = 2 * availableParallelism();
    expect(run.stdout).toMatch(new RegExp(`^test:stress: ${hogs} CPU hogs \\(pids [\\d,]+\\) beside: `, 'm'));
    expect(run.stdout).toMatch(/^test:stress: exit 3 after \d+ s/m);
    const pids = /pids ([\d,]+)/.exec(run.stdout)![1]!.split(',').map(Number);
    expect(pids).toHaveLength(hogs);
    // Killed when the command ended: none is left running (bounded wait for the kernel to reap them).
    await until(() => !pids.some(alive));
    expect(pids.filter(alive)).toEqual([]);
  });

  test('npm run test:stress -- CMD runs CMD (npm takes the "--"): not the whole self-test run', async () => {
    const run = await stress({ STRESS_HOGS: '1' }, [process.execPath, '-e', 'process.exit(4)'], []);
    expect(run.code, run.stderr).toBe(4);
    expect(run.stdout).toMatch(/^test:stress: 1 CPU hogs \(pids \d+\) beside: \S+ -e process\.exit\(4\)/m);
  });

  test('the npm script runs it in one process, not through the tsx command', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts['test:stress']).toBe('node --import tsx selftest/stress.ts');
  });

  test('STRESS_HOGS that is not a whole number from 0 to 64 is refused with one message, exit 2', async () => {
    const run = await stress({ STRESS_HOGS: 'lots' }, [process.execPath, '-e', '0']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe('test:stress: STRESS_HOGS must be a whole number from 0 to 64');
    expect(run.stdout).toBe('');
  });
});
