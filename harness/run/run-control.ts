import type { startVitest } from 'vitest/node';
import type { Io } from './common';
import { plural } from './console';
import { EXIT } from './exit-codes';
import { SAME_CTRL_C_MS, STOP_SIGNALS, type StopSignal } from './signal-guard';

type Vitest = Awaited<ReturnType<typeof startVitest>>;

/** How the cases hear of a Ctrl-C or --bail (harness/run/cancel-channel.ts). */
interface CancelChannel {
  cancel(why?: string): void;
}

/**
 * How an active run stops early: a signal or --bail.
 *
 * A first SIGINT/SIGTERM/SIGHUP cancels the run: running cases abort their requests (test context
 * signal), run their clean-ups, and the reports are written with every selected test given a
 * verdict. One Ctrl-C can arrive several times within milliseconds (the terminal signals the
 * whole process group, npm forwards it, and tsx sends it again when the child does not
 * acknowledge it within 30 ms): signals within SAME_CTRL_C_MS of the first are that one Ctrl-C.
 * A second, deliberate one later leaves at once.
 *
 * --bail N: after N failed tests the run is cancelled like an interruption (running tests abort
 * their requests and run their clean-ups); the tests that did not finish are reported as not run.
 */
export class RunControl {
  interrupted = false;
  bailed = false;
  private interruptedAt = 0;
  private testsStarted = false;
  private vitest: Vitest | undefined;
  private readonly gate = openGate();
  /** Settles when an interruption stops the wait for the runner (at once, or after the clean-ups' grace period). */
  readonly interruptGate = this.gate.promise;
  /** The run's handler of each stop signal. */
  readonly handlers: Readonly<Record<StopSignal, () => void>> = {
    SIGINT: () => this.onSignal('SIGINT'),
    SIGTERM: () => this.onSignal('SIGTERM'),
    SIGHUP: () => this.onSignal('SIGHUP'),
  };

  constructor(
    private readonly o: {
      io: Io;
      cancelChannel: CancelChannel;
      /** How long each case's clean-ups may take (harness/http/cleanup-retry.ts). */
      cleanupDeadlineMs: number;
      bail?: number;
    },
  ) {}

  /** The run's handlers are registered (and stay: ownSignals) until stopListening. */
  listen(): void {
    for (const sig of STOP_SIGNALS) process.on(sig, this.handlers[sig]);
  }

  /** The reports are written: a signal may end the process as usual again. */
  stopListening(): void {
    for (const sig of STOP_SIGNALS) process.off(sig, this.handlers[sig]);
  }

  private onSignal(sig: string): void {
    const { io } = this.o;
    if (this.interrupted) {
      if (Date.now() - this.interruptedAt < SAME_CTRL_C_MS) return;
      io.err(`dbsi-conformance: second ${sig}: leaving now, without clean-ups or reports`);
      process.exit(EXIT.INTERRUPTED);
    }
    this.interrupted = true;
    this.interruptedAt = Date.now();
    io.err(`dbsi-conformance: ${sig} received: stopping, cleaning up and writing what ran`);
    void this.vitest?.cancelCurrentRun('keyboard-input');
    this.o.cancelChannel.cancel();
    if (!this.testsStarted) return this.gate.open(); // the runner is still starting: nothing ran, nothing to wait for
    // Running cases abort their requests and run their clean-ups (each case's within the clean-up
    // deadline, harness/http/cleanup-retry.ts); the reports do not wait longer than that.
    setTimeout(this.gate.open, this.o.cleanupDeadlineMs + 2_000).unref();
  }

  /**
   * Vitest's logger also listens for SIGINT/SIGTERM and exits at once (no reports): only ours stay,
   * until the reports are written. Its registrations are dropped (guardSignals; made while the runner is created,
   * which goes on after an early interruption, while the reports are written), and any made before
   * are removed here: a Ctrl-C the launcher sends twice must not end the run before its reports.
   */
  ownSignals(): void {
    for (const sig of STOP_SIGNALS) {
      for (const l of process.listeners(sig)) if (l !== this.handlers[sig]) process.off(sig, l as never);
    }
  }

  /** A reporter: startVitest only returns when the run is over, the runner is taken as soon as it exists. */
  readonly runnerHandle = {
    onInit: (v: Vitest) => {
      this.vitest = v;
      this.ownSignals();
      if (this.interrupted) void v.cancelCurrentRun('keyboard-input');
    },
    onTestRunStart: () => {
      this.ownSignals();
      this.testsStarted = true;
      if (this.interrupted) void this.vitest?.cancelCurrentRun('keyboard-input');
    },
  };

  /** A test failed (`failures` so far): with --bail N, the N-th stops the run. */
  readonly onFailure = (failures: number): void => {
    const { bail, io, cancelChannel } = this.o;
    if (bail === undefined || failures < bail || this.bailed) return;
    this.bailed = true;
    io.err(
      `dbsi-conformance: --bail ${bail}: ${plural(failures, 'test')} ` +
        `failed; stopping the run (clean-ups still run)`,
    );
    // Vitest's cancel reaches only the tests it believes are running (cancel-channel.ts): every case hears this
    // one, sent first so that a case stopped by either knows why.
    cancelChannel.cancel(`not run to the end, --bail ${bail} stopped the run`);
    void this.vitest?.cancelCurrentRun('test-failure');
  };
}

function openGate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
