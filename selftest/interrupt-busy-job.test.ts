import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { EXIT } from '../harness/run/results';
import { jobArgs, underTsxCommand } from '../harness/run/tsx-supervisor';
import { ROOT } from './_spawn-cli';

/**
 * Started by the tsx command, an interrupted run writes its reports even when its main thread is busy as the
 * Ctrl-C comes (issue 34: the stress mode's "SIGINT through tsx", exit 130 and no summary). tsx kills a child
 * that has not acknowledged a Ctrl-C within about 60 ms; the job now runs in a process of its own under an idle
 * supervisor (harness/run/tsx-supervisor.ts). The busy main thread is made certain: the job's process is stopped
 * (SIGSTOP) before the Ctrl-C and let go after a while, far longer than tsx waits. Without the supervisor, tsx
 * killed the stopped job (exit 130, no reports); with it, the job takes the Ctrl-C when it runs again.
 * The job is stopped right after its banner: in CI once, before it listened for signals, and the Ctrl-C then
 * ended it by Node's default (exit 130 from tsx, no reports); the run now listens before its banner.
 */

/** The processes whose parent is `pid` (Linux: /proc), with their command lines. */
function childrenOf(pid: number): Array<{ pid: number; cmd: string }> {
  const found: Array<{ pid: number; cmd: string }> = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid)
        found.push({ pid: Number(name), cmd: readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ') });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

describe('the job started by the tsx command', () => {
  test('is told apart from one started otherwise, and runs with tsx’s loader but without its relay', () => {
    expect(underTsxCommand(['--require', '/x/node_modules/tsx/dist/preflight.cjs', '--import', 'file:///l.mjs'])).toBe(
      true,
    );
    expect(underTsxCommand(['--import', 'tsx'])).toBe(false);
    expect(underTsxCommand([])).toBe(false);
    const args = jobArgs(join(ROOT, 'bin/conformance.ts'), ['--quiet']);
    expect(args[0]).toBe('--import');
    expect(args[1]).toMatch(/^file:.*\/tsx\/dist\/loader\.mjs$/);
    expect(args.slice(2)).toEqual([join(ROOT, 'bin/conformance.ts'), '--quiet']);
    expect(underTsxCommand(args), 'the job does not supervise again').toBe(false);
  });

  test.runIf(process.platform === 'linux')(
    'a Ctrl-C while the job cannot answer: exit 130, the clean-ups run, the reports written',
    async () => {
      const reports = join(mkdtempSync(join(tmpdir(), 'dbsi-busy-')), 'reports');
      // A shell leads the process group as a terminal's shell would, and stays until the test ends (a stopped
      // process in a group nobody leads any more is sent SIGHUP): it runs tsx, says how tsx ended, and waits.
      const tsxCli = join(ROOT, 'node_modules/tsx/dist/cli.mjs');
      const script = 'trap : INT TERM; "$0" "$@"; echo "tsx exit $?" >&2; read _';
      const args = [tsxCli, 'bin/conformance.ts', '--reports', reports, '--latency', '1000'];
      const sh = spawn('sh', ['-c', script, process.execPath, ...args], {
        cwd: ROOT,
        env: { ...process.env, DBSI_CONFIG: '', NO_COLOR: '1' },
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      });
      const group = (sig: NodeJS.Signals) => {
        try {
          process.kill(-sh.pid!, sig);
        } catch {
          // already gone
        }
      };
      const timers: NodeJS.Timeout[] = [];
      let out = '';
      let err = '';
      let job: number | undefined;
      let depth = 0;
      sh.stderr.on('data', (d: Buffer) => (err += d.toString()));
      sh.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (job !== undefined || !/areas: /.test(out)) return;
        // The process that runs the job: the last of tsx's descendants running bin/conformance.ts (tsx → the
        // supervisor → the job; without the supervisor, tsx's own child).
        const tsx = childrenOf(sh.pid!)[0];
        let next = tsx && childrenOf(tsx.pid).find((c) => /conformance\.ts/.test(c.cmd));
        while (next) {
          job = next.pid;
          depth++;
          next = childrenOf(next.pid).find((c) => /conformance\.ts/.test(c.cmd));
        }
        if (job === undefined) return;
        process.kill(job, 'SIGSTOP');
        group('SIGINT');
        const resume = (pid: number) => {
          try {
            process.kill(pid, 'SIGCONT');
          } catch {
            // killed meanwhile (by tsx, without the supervisor)
          }
        };
        // Far longer than tsx waits for an acknowledgement (2 × 30 ms); then the job runs again.
        timers.push(setTimeout(resume, 1_500, job));
      });
      // Only a hang stopper: the clean-ups take a few answers of 1 s each.
      timers.push(setTimeout(() => group('SIGKILL'), 120_000));
      // The end: tsx has ended and so has the job (which outlives a supervisor tsx killed on a loaded machine).
      const gone = (pid: number) => {
        try {
          return / Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
        } catch {
          return true;
        }
      };
      const ended = new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (!/tsx exit \d+/.test(err) || (job !== undefined && !gone(job))) return;
          clearInterval(poll);
          resolve();
        }, 100);
        sh.on('close', () => (clearInterval(poll), resolve()));
      });
      await ended;
      sh.stdin.end();
      await new Promise((resolve) =>
        sh.exitCode === null && sh.signalCode === null ? sh.on('close', resolve) : resolve(0),
      );
      for (const t of timers) clearTimeout(t);
      expect(job, `the job's process\n${out}${err}`).toBeGreaterThan(0);
      expect(err.match(/tsx exit (\d+)/)?.[1], out + err).toBe(String(EXIT.INTERRUPTED));
      expect(err).toMatch(/SIGINT received: stopping/);
      expect(existsSync(join(reports, 'conformance-summary.json')), out + err).toBe(true);
      const summary = JSON.parse(readFileSync(join(reports, 'conformance-summary.json'), 'utf8'));
      expect(summary.facts.verdict).toBe('interrupted');
      expect(summary.leftovers).toEqual([]);
      expect(depth, 'tsx → the supervisor → the job').toBe(2);
    },
  );
});
