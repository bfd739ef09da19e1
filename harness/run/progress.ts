import type { TestCase } from 'vitest/node';
import type { CaseReport } from '../model';
import { casePath, failureLine, plural } from './console';

/** Strip what a terminal would interpret (escape sequences, control characters) from text the target chose. */
const printable = (s: string) =>
  s.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');

export interface ProgressOptions {
  /** How many tests the selection runs. */
  total: number;
  /** A terminal: one live status line, redrawn; else (a pipe, a CI log) plain lines. */
  tty: boolean;
  write(text: string): void;
  /** Piped: after this long without a line while the run is on, a status line. Default 4 s. */
  heartbeatMs?: number;
  /** TTY: the terminal's width; the live line is cut to fit, so that redrawing it stays on one line. */
  columns?: number;
  /** TTY: how often the live line is redrawn. Default 250 ms. */
  redrawMs?: number;
  /** The verdict as the run's setup proofs so far give it (harness/setup/proof.ts); default: as the test gave it. */
  judge?(c: CaseReport): CaseReport;
  /** Called for every test that failed the run (a MUST check, or any check under --strict). */
  onFailure?(failures: number, c: CaseReport): void;
}

/** A test the runner reports without having run it (a cancelled run). */
const NOT_RUN = 'not run';

/** "area › operation › title" of a test that left no report, as casePath writes it of one that did. */
function testPath(test: TestCase): string {
  const names = [test.name];
  for (let p = test.parent; p.type === 'suite'; p = p.parent) names.unshift(p.name);
  return names.join(' › ');
}

const MARK: Record<CaseReport['outcome'], string> = {
  passed: '✓',
  failed: '✗',
  warning: '!',
  'not-applicable': '-',
  'not-allowed': '↷',
  'could-not-test': '?',
  error: '?',
  waived: '~',
};

/**
 * Progress of a run, as a vitest reporter in the main process. On a terminal: one live line with the
 * counts and the elapsed time, and a line for each failure as it happens. Piped (CI): a line per
 * finished test, and a status line whenever nothing was printed for a few seconds, so that a slow
 * or hanging target never leaves the log silent.
 */
export class Progress {
  private readonly started = Date.now();
  private finished = 0;
  private failed = 0;
  private readonly counts = new Map<string, number>();
  private readonly running = new Map<string, { title: string; since: number }>();
  private lastWrite = Date.now();
  private timer?: NodeJS.Timeout;
  private liveShown = false;
  private readonly done = new Set<string>();

  constructor(private readonly o: ProgressOptions) {}

  start(): void {
    const every = this.o.tty ? (this.o.redrawMs ?? 250) : Math.min(1000, this.o.heartbeatMs ?? 4000);
    this.timer = setInterval(() => this.tick(), every);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    if (this.liveShown) this.o.write('\r\u001b[K');
    this.liveShown = false;
  }

  onTestCaseReady(test: TestCase): void {
    this.running.set(test.id, { title: test.name, since: Date.now() });
  }

  onTestCaseResult(test: TestCase): void {
    this.running.delete(test.id);
    // A cancelled run (--bail, Ctrl-C) may report a test again: each is counted once.
    if (this.done.has(test.id)) return;
    this.done.add(test.id);
    const sent = test.meta().dbsi as CaseReport | undefined;
    // As far as the run's setup proofs go so far: a failure the setup may explain shows as could not test.
    const report = sent && this.o.judge ? this.o.judge(sent) : sent;
    this.finished++;
    // Every case that runs leaves its report; a test without one crashed (failed), or never ran: a cancelled
    // run (--bail, Ctrl-C) reports the tests it did not start, as skipped.
    const outcome = report?.outcome ?? (test.result().state === 'failed' ? 'error' : NOT_RUN);
    this.counts.set(outcome, (this.counts.get(outcome) ?? 0) + 1);
    if (report?.outcome === 'failed') this.failed++;
    if (this.o.tty) {
      if (report?.outcome === 'failed') this.line(failureLine(report));
      this.drawLive();
    } else if (report?.outcome === 'failed') {
      this.line(failureLine(report));
    } else {
      const what = report ? `${casePath(report)} (${report.durationMs} ms)` : `${testPath(test)} (${outcome})`;
      this.line(`${outcome === NOT_RUN ? '?' : MARK[outcome as CaseReport['outcome']]} ${what}`);
    }
    if (report?.outcome === 'failed') this.o.onFailure?.(this.failed, report);
  }

  /** The counts so far, e.g. "12/62 tests, 10 passed, 1 failed, 3 running, 4.2 s". */
  status(): string {
    const parts = [`${this.finished}/${plural(this.o.total, 'test')}`];
    for (const [outcome, n] of this.counts) parts.push(`${n} ${outcome}`);
    if (this.running.size) parts.push(`${this.running.size} running`);
    parts.push(`${((Date.now() - this.started) / 1000).toFixed(1)} s`);
    return parts.join(', ');
  }

  private tick(): void {
    if (this.o.tty) return this.drawLive();
    if (Date.now() - this.lastWrite < (this.o.heartbeatMs ?? 4000)) return;
    const longest = [...this.running.values()].sort((a, b) => a.since - b.since)[0];
    const waiting = longest
      ? `; waiting for "${longest.title}" since ` + `${((Date.now() - longest.since) / 1000).toFixed(0)} s`
      : this.finished === 0
        ? '; starting the tests'
        : '';
    this.line(`… ${this.status()}${waiting}`);
  }

  private drawLive(): void {
    this.o.write(`\r\u001b[K${printable(this.status()).slice(0, Math.max(20, (this.o.columns ?? 80) - 1))}`);
    this.liveShown = true;
  }

  private line(text: string): void {
    this.o.write(`${this.liveShown ? '\r\u001b[K' : ''}${printable(text)}\n`);
    this.liveShown = false;
    this.lastWrite = Date.now();
    if (this.o.tty) this.drawLive();
  }
}
