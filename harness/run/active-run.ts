import type { CaseReport } from '../model';
import type { ActiveTarget } from './active-target';
import type { CliOptions } from './args';
import { CATEGORIES, type Io } from './common';
import { Collector } from './collector';
import type { CaseFilter } from './filter';
import { finishActiveRun } from './finish-active';
import type { LocalInput } from './local-input';
import { AllureReporter, cleanupDeadlineMs, FEATURES_BY_AREA, newRunKey, openCancelChannel } from './run-parts';
import { preflight, Progress, regradeCase, selects, SetupProof, waiveCase } from './run-parts';
import { RunControl } from './run-control';
import { announce, prepareRun, type ActiveRun } from './run-setup';
import { EXIT } from './exit-codes';
import { guardSignals } from './signal-guard';
import { startRunner } from './start-runner';

/**
 * An active run of the selected tests against its target: the banner, the runner (its progress shown, a signal or
 * --bail stopping it), then one finish (harness/run/finish-active.ts). Returns the exit code.
 */
export async function runTests(
  opts: CliOptions,
  env: NodeJS.ProcessEnv,
  io: Io,
  local: LocalInput,
  target: ActiveTarget,
): Promise<number> {
  const run = await prepareRun(opts, env, io, local, target);
  if (!run) return EXIT.USAGE;
  const { config, reference } = target;
  // How the cases hear of a Ctrl-C (harness/run/cancel-channel.ts).
  const runKey = newRunKey();
  const cancelChannel = openCancelChannel(runKey);
  const collector = new Collector();
  const timeoutMs = config.http.timeoutMs;
  const control = new RunControl({
    io,
    cancelChannel,
    cleanupDeadlineMs: cleanupDeadlineMs(timeoutMs),
    bail: opts.bail,
  });
  // Before the banner: a Ctrl-C that follows it is the run's, never Node's default (an exit with no reports; the
  // busy-job self-test, stopped right after the banner, met it in CI).
  control.listen();
  announce(run);
  const { progress, reporter } = progressOf(run, control);
  // Every origin the selected areas use refuses connections: nothing can be sent, the runner is not started.
  const unreachable = reference ? undefined : await preflight(config, run.activeAreas, run.filter, run.redactor);
  if (unreachable) collector.cases.push(...unreachable.cases);
  if (unreachable) io.err(`dbsi-conformance: ${unreachable.line}`);
  if (!opts.quiet) progress.start();
  const environmentInfo = run.environmentInfo;
  const allureReporter = new AllureReporter({
    resultsDir: run.resultsDir,
    environmentInfo,
    categories: CATEGORIES as never,
  });
  const signalGuard = guardSignals(() => Object.values(control.handlers));
  try {
    try {
      // No selected test at all: the runner is not started (an empty file list would mean "every file").
      const noRunner = run.activeAreas.length === 0 || unreachable !== undefined;
      const reporters = [control.runnerHandle, collector, allureReporter, reporter];
      const running = noRunner
        ? Promise.resolve()
        : startRunner((await import('vitest/node')).startVitest, run, runKey, reporters);
      running.catch(() => undefined);
      // An interruption stops the wait (at once if the runner had not started, else after a grace
      // period for clean-ups); the reports are then written from what has reported.
      await Promise.race([running, control.interruptGate]);
    } catch (e) {
      collector.problems.push(`suite error: the test runner failed: ${(e as Error).message}`);
    } finally {
      progress.stop();
      control.ownSignals();
      cancelChannel.close();
      await reference?.close();
    }
    return await finishActiveRun({ run, collector, unreachable, control, allureReporter });
  } finally {
    // The reports are written: a signal may end the process as usual again.
    signalGuard.release();
    control.stopListening();
  }
}

/**
 * The progress display, or with --quiet a failure counter (--bail still counts the failures): each judges a test
 * as it reports, with the setup proofs and the waivers so far.
 */
function progressOf(run: ActiveRun, control: RunControl): { progress: Progress; reporter: unknown } {
  const { opts, io, local } = run;
  // The setup proofs so far: a failure they may explain is shown as could not test, and --bail does not
  // count it (proofs only grow: a failure shown is final; the summary re-judges every test at the end).
  const proofSoFar = new SetupProof([], { embedded: !!run.target.reference });
  // A pass is shown as it came: its control may still be served later in the run.
  // …and with the waivers: a waived failure is shown as waived, and --bail does not count it.
  const waiving = { strict: opts.strict, now: run.startedAt };
  const waiveSoFar = (c: CaseReport) => (local.waiverFile ? waiveCase(c, local.waiverFile, waiving) : c);
  const judgeSoFar = (c: CaseReport) => (
    proofSoFar.observe(c), c.outcome === 'passed' ? c : waiveSoFar(regradeCase(c, proofSoFar))
  );
  const progress = new Progress({
    total: selectedCount(run.activeAreas, run.filter),
    tty: !!io.tty,
    write: (t) => (io.write ? io.write(t) : io.out(t.replace(/\n$/, ''))),
    columns: process.stdout.columns,
    onFailure: control.onFailure,
    judge: judgeSoFar,
  });
  let quietFailures = 0;
  const failureCounter = {
    onTestCaseResult: (t: Parameters<Progress['onTestCaseResult']>[0]) => {
      const c = t.meta().dbsi;
      if (c && judgeSoFar(c).outcome === 'failed') control.onFailure(++quietFailures);
    },
  };
  return { progress, reporter: opts.quiet ? failureCounter : progress };
}

/** How many tests the selection runs. */
function selectedCount(areas: ActiveRun['activeAreas'], filter: CaseFilter): number {
  return areas.reduce(
    (n, a) => n + FEATURES_BY_AREA[a].reduce((m, f) => m + f.cases.filter((c) => selects(filter, f, c)).length, 0),
    0,
  );
}
