import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  reports: string;
}

/** Run the main command as npm runs it (launch/conformance.mjs: compiled), with its reports in a fresh folder. */
export function runCli(
  args: string[],
  opts: {
    env?: NodeJS.ProcessEnv;
    timeoutMs?: number;
    onSpawn?: (pid: number) => void;
    onData?: (chunk: string) => void;
  } = {},
): Promise<CliRun> {
  const reports = mkdtempSync(join(tmpdir(), 'dbsi-reports-'));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'launch/conformance.mjs'), '--reports', reports, ...args], {
      cwd: ROOT,
      env: { ...process.env, DBSI_CONFIG: '', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    opts.onSpawn?.(child.pid!);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      opts.onData?.(String(d));
    });
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the CLI did not finish within ${opts.timeoutMs ?? 240_000} ms\n${stdout}\n${stderr}`));
    }, opts.timeoutMs ?? 240_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, reports });
    });
  });
}
