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
  /** Whether the child was killed (killAfterMs, killAfterSignalMs) rather than ending by itself. */
  killed: boolean;
}

/**
 * How the main job is started: `node launch/conformance.mjs` (what `npm run conformance` runs: the job
 * compiled by launch/build.mjs, one process), `node --import tsx bin/conformance.ts` (the TypeScript
 * through tsx's loader, one process), `tsx bin/conformance.ts` (what `npx tsx` runs: a tsx process
 * that relays signals to the job's process), or `npm run conformance` (the README's command: npm, a
 * shell, then the job).
 */
export type Launcher = 'compiled' | 'node-import' | 'tsx' | 'npm';

function command(launcher: Launcher, args: string[]): [string, string[]] {
  if (launcher === 'tsx')
    return [process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'bin/conformance.ts', ...args]];
  if (launcher === 'npm') return ['npm', ['run', '--silent', 'conformance', '--', ...args]];
  if (launcher === 'node-import') return [process.execPath, ['--import', 'tsx', 'bin/conformance.ts', ...args]];
  return [process.execPath, ['launch/conformance.mjs', ...args]];
}

/**
 * Run the main job (`bin/conformance.ts`) as a child process, started by `launcher` (default: its
 * compiled build, as npm runs it). `raw` is written as the target configuration when given. `signal`
 * is sent once the output matches `once`, after `afterMs`, and again after each of `againAfterMs`; with `group`, to the
 * whole process group, as a terminal's Ctrl-C does (the child then leads its own group). The child
 * is killed after `killAfterMs`, or `killAfterSignalMs` after the first signal: a bound the run must
 * keep is asserted as `killed: false`, not as an elapsed time.
 */
export function runCli(
  args: string[],
  opts: {
    raw?: unknown;
    killAfterMs?: number;
    killAfterSignalMs?: number;
    launcher?: Launcher;
    signal?: { name: NodeJS.Signals; afterMs: number; once: RegExp; group?: boolean; againAfterMs?: number[] };
  } = {},
): Promise<CliRun> {
  const dir = mkdtempSync(join(tmpdir(), 'dbsi-cli-'));
  const reportsDir = join(dir, 'reports');
  const extra: string[] = [];
  if (opts.raw !== undefined) {
    writeFileSync(join(dir, 'target.json'), JSON.stringify(opts.raw));
    extra.push('--config', join(dir, 'target.json'));
  }
  const t0 = performance.now();
  const [file, argv] = command(opts.launcher ?? 'compiled', [...extra, '--reports', reportsDir, ...args]);
  const child = spawn(file, argv, {
    cwd: ROOT,
    env: { ...process.env, DBSI_CONFIG: '', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: opts.signal?.group === true,
  });
  const send = (name: NodeJS.Signals) => {
    try {
      if (opts.signal?.group) process.kill(-child.pid!, name);
      else child.kill(name);
    } catch {
      // already gone
    }
  };
  let stdout = '';
  let stderr = '';
  let signalledAt: number | undefined;
  let armed = false;
  let killed = false;
  const timers: NodeJS.Timeout[] = [];
  const kill = () => {
    killed = true;
    if (opts.signal?.group) send('SIGKILL');
    else child.kill('SIGKILL');
  };
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    if (opts.signal && !armed && opts.signal.once.test(stdout)) {
      armed = true;
      const { name, afterMs, againAfterMs = [] } = opts.signal;
      timers.push(
        setTimeout(() => {
          signalledAt = performance.now();
          send(name);
          if (opts.killAfterSignalMs !== undefined) timers.push(setTimeout(kill, opts.killAfterSignalMs));
          for (const ms of againAfterMs) timers.push(setTimeout(() => send(name), ms));
        }, afterMs),
      );
    }
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  timers.push(setTimeout(kill, opts.killAfterMs ?? 50_000));
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      // No timer outlives the run: a late signal or kill would reach a process group that is gone (or reused).
      for (const t of timers) clearTimeout(t);
      const now = performance.now();
      const afterSignalMs = signalledAt === undefined ? undefined : now - signalledAt;
      resolve({ code, signal, stdout, stderr, elapsedMs: now - t0, reportsDir, afterSignalMs, killed });
    });
  });
}
