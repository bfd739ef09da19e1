import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../harness/run/main';
import { terminalText } from '../harness/run/terminal-text';
import { within } from './_within';

export { ROOT } from './_cli';

/** What the main command printed and returned, as runCli of _cli.ts reports it. */
export interface MainRun {
  code: number;
  stdout: string;
  stderr: string;
  reports: string;
}

/**
 * main() runs one at a time in a worker: a run installs SIGINT/SIGTERM handlers and guards
 * the process's listener methods while it runs, which two runs side by side would undo for each other.
 */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Run the main command in-process (main() of harness/run/main.ts, as bin/conformance.ts calls it),
 * with its reports in a fresh folder: the CLI's behaviour without the cost of a process. Use
 * _cli.ts or _spawn-cli.ts only where the launcher, a signal or a FIFO is the subject.
 */
export function runMain(args: string[], opts: MainOptions = {}): Promise<MainRun> {
  const run = queue.then(() => within(opts.timeoutMs ?? 240_000, runOne(args, opts), `main(${args.join(' ')})`));
  queue = run.catch(() => undefined);
  return run;
}

export interface MainOptions {
  env?: NodeJS.ProcessEnv;
  /** Written as the target configuration (target.json) and given as --config. */
  raw?: unknown;
  /** Every chunk printed on stdout (lines and the progress display), as it is printed. */
  onData?: (chunk: string) => void;
  /** main() must have returned by then (it proves "does not hang"; default 240 s, room for a slow machine). */
  timeoutMs?: number;
}

async function runOne(args: string[], opts: MainOptions): Promise<MainRun> {
  const reports = mkdtempSync(join(tmpdir(), 'dbsi-reports-'));
  if (opts.raw !== undefined) {
    writeFileSync(join(reports, 'target.json'), JSON.stringify(opts.raw));
    args = ['--config', join(reports, 'target.json'), ...args];
  }
  let stdout = '';
  let stderr = '';
  const write = (t: string) => {
    stdout += t;
    opts.onData?.(t);
  };
  const io = { out: (l: string) => write(l + '\n'), err: (l: string) => (stderr += l + '\n'), write, tty: false };
  const env = { ...process.env, DBSI_CONFIG: '', ...opts.env };
  try {
    return { code: await main(['--reports', reports, ...args], env, io), stdout, stderr, reports };
  } catch (e) {
    // As bin/conformance.ts answers an unexpected error: one line, exit 3.
    stderr += `dbsi-conformance: unexpected error: ${terminalText((e as Error)?.message ?? String(e))}\n`;
    return { code: 3, stdout, stderr, reports };
  }
}
