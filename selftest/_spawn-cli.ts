import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  elapsedMs: number;
  reportsDir: string;
  /** From the signal (opts.signal) to the child's exit. */
  afterSignalMs?: number;
}

/**
 * Run the main job (`bin/conformance.ts`) as a child process: one node process (tsx as a loader,
 * so signals reach the job itself). `raw` is written as the target configuration when given.
 * `onStdout` sees the output as it comes (to time a signal); the child is killed after `killAfterMs`.
 */
export function runCli(
  args: string[],
  opts: { raw?: unknown; killAfterMs?: number; signal?: { name: NodeJS.Signals; afterMs: number; once: RegExp } } = {},
): Promise<CliRun> {
  const dir = mkdtempSync(join(tmpdir(), 'dbsi-cli-'));
  const reportsDir = join(dir, 'reports');
  const extra: string[] = [];
  if (opts.raw !== undefined) {
    writeFileSync(join(dir, 'target.json'), JSON.stringify(opts.raw));
    extra.push('--config', join(dir, 'target.json'));
  }
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/conformance.ts', ...extra, '--reports', reportsDir, ...args], {
    cwd: ROOT,
    env: { ...process.env, DBSI_CONFIG: '', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let signalledAt: number | undefined;
  let armed = false;
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    if (opts.signal && !armed && opts.signal.once.test(stdout)) {
      armed = true;
      const { name, afterMs } = opts.signal;
      setTimeout(() => {
        signalledAt = performance.now();
        child.kill(name);
      }, afterMs);
    }
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), opts.killAfterMs ?? 50_000);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      const now = performance.now();
      resolve({ code, signal, stdout, stderr, elapsedMs: now - t0, reportsDir, afterSignalMs: signalledAt === undefined ? undefined : now - signalledAt });
    });
  });
}
