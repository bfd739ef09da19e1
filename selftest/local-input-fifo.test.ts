import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runCli } from './_cli';

/**
 * Issue 11, local input, as a process: the main command with --config naming a FIFO. A read of a
 * FIFO would block the thread that reads it, so this one runs in a process of its own, not in a
 * self-test worker (the rest of local input: local-input.test.ts).
 */
test('the main command with --config naming a FIFO: exit 2 naming --config, no hang', async () => {
  const fifo = join(mkdtempSync(join(tmpdir(), 'dbsi-local-input-')), 'cli.fifo');
  execFileSync('mkfifo', [fifo]);
  const run = await runCli(['--config', fifo], { timeoutMs: 30_000 });
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr).toContain('configuration error: cannot read the configuration file (--config: ');
  expect(run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
});
