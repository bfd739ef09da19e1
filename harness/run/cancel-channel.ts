import { setMaxListeners } from 'node:events';
import { BroadcastChannel } from 'node:worker_threads';

/**
 * Tells the cases that the run was cancelled (Ctrl-C, SIGTERM, --bail). Vitest's own cancel aborts the signal
 * of the tests it believes are running, and its list of running tests loses entries when concurrent
 * tests finish (vitest 4.1: a finished test is removed with everything after it), so cases would go
 * on as if nothing had happened and their clean-ups would be cut off by the reports' deadline. The
 * main process answers on a channel every thread of the process hears: it announces the cancel, and
 * a worker that starts listening later asks and is told.
 */
const NAME = 'dbsi-conformance: run cancelled';

/**
 * Each run has a channel of its own (`run`: a key the main process makes and hands to its workers):
 * runs in one process side by side (the self-tests call main() in several worker threads) never
 * hear each other's cancel.
 */
export const newRunKey = (): string => `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
const CANCEL = 'cancel:';

/** Why a run was cancelled, unless said otherwise: a Ctrl-C or SIGTERM. */
export const INTERRUPTED = 'the run was interrupted';

/**
 * Main process: open while the run is on; cancel(why) announces it (and answers later questions). `why` ends
 * "could not test: " in the reports of the cases it stops (default: the run was interrupted).
 */
export function openCancelChannel(run: string): { cancel(why?: string): void; close(): void } {
  const ch = new BroadcastChannel(`${NAME} ${run}`);
  let cancelled: string | undefined;
  ch.onmessage = (m) => {
    if ((m as MessageEvent).data === 'query' && cancelled !== undefined) ch.postMessage(CANCEL + cancelled);
  };
  ch.unref();
  return {
    cancel: (why = INTERRUPTED) => {
      if (cancelled !== undefined) return;
      cancelled = why;
      ch.postMessage(CANCEL + why);
    },
    close: () => ch.close(),
  };
}

const cancelledRuns = new Map<string, AbortController>();

/** Worker: aborted when the main process of run `run` announces the cancel (or already had); its reason says why. */
export function runCancelledSignal(run: string): AbortSignal {
  let cancelled = cancelledRuns.get(run);
  if (!cancelled) {
    const c = (cancelled = new AbortController());
    cancelledRuns.set(run, c);
    setMaxListeners(10_000, c.signal);
    const ch = new BroadcastChannel(`${NAME} ${run}`);
    ch.onmessage = (m) => {
      const data = (m as MessageEvent).data;
      if (typeof data !== 'string' || !data.startsWith(CANCEL)) return;
      c.abort(new Error(data.slice(CANCEL.length) || INTERRUPTED));
      ch.close();
    };
    ch.unref();
    ch.postMessage('query');
  }
  return cancelled.signal;
}

/** Worker: why run `run` was cancelled, once it was. */
export function runCancelledWhy(run: string): string | undefined {
  const cancelled = cancelledRuns.get(run);
  return cancelled?.signal.aborted ? (cancelled.signal.reason as Error).message : undefined;
}
