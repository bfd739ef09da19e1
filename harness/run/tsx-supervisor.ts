import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { pathToFileURL } from 'node:url';
import { STOP_SIGNALS } from './signal-guard';

/**
 * The job started by the tsx command (`npx tsx bin/conformance.ts`), interrupted, still writes its reports.
 *
 * The tsx command runs the job in a child process and relays a Ctrl-C to it: when the child has not told it
 * within 30 ms that the signal arrived, it sends the signal again, and when it has still not heard after another
 * 30 ms it kills the child (SIGKILL) and exits 130. The child tells it from its main thread, so a job whose main
 * thread is busy at that moment (loading the runner, a machine under load) was killed without reports or
 * clean-ups (issue 34: exit 130 and no `conformance-summary.json`, now and then in the stress mode). Under the
 * tsx command, the process tsx started therefore only supervises: its main thread stays idle and answers tsx at
 * once, while the job runs in a process of its own (Node with tsx's loader, no relay), in the same process group
 * (a terminal's Ctrl-C reaches it directly), and gets every stop signal (STOP_SIGNALS) the supervisor gets. The
 * job takes signals within SAME_CTRL_C_MS of the first for one Ctrl-C (harness/run/signal-guard.ts), so a signal it
 * gets twice (from the terminal and from the supervisor) is one. The supervisor exits with the job's exit code.
 */

/** Whether this process was started by the tsx command, which relays signals (its preflight is required). */
export function underTsxCommand(execArgv: readonly string[] = process.execArgv): boolean {
  return execArgv.some((a) => /[\\/]tsx[\\/]dist[\\/]preflight\.cjs$/.test(a));
}

/** The arguments of the job's own process: Node with tsx's loader, no tsx command (no relay), the same entry. */
export function jobArgs(entry: string, argv: readonly string[]): string[] {
  const loader = pathToFileURL(createRequire(pathToFileURL(entry)).resolve('tsx')).href;
  return ['--import', loader, entry, ...argv];
}

/** Runs `entry` with `argv` in a process of its own and resolves to its exit code (128 + n when ended by signal n). */
export function superviseJob(entry: string, argv: readonly string[]): Promise<number> {
  const job = spawn(process.execPath, jobArgs(entry, argv), { stdio: 'inherit' });
  const forward = (sig: NodeJS.Signals) => {
    if (job.exitCode === null && job.signalCode === null) job.kill(sig);
  };
  for (const sig of STOP_SIGNALS) process.on(sig, forward);
  return new Promise<number>((resolve) => {
    const done = (code: number) => {
      for (const sig of STOP_SIGNALS) process.off(sig, forward);
      resolve(code);
    };
    job.on('error', (e) => {
      process.stderr.write(`dbsi-conformance: could not start the job's process: ${e.message}\n`);
      done(3);
    });
    job.on('exit', (code, sig) => done(code ?? 128 + (sig ? (constants.signals[sig] ?? 0) : 0)));
  });
}
