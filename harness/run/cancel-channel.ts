import { setMaxListeners } from 'node:events';
import { BroadcastChannel } from 'node:worker_threads';

/**
 * Tells the cases that the run was cancelled (Ctrl-C, SIGTERM). Vitest's own cancel aborts the signal
 * of the tests it believes are running, and its list of running tests loses entries when concurrent
 * tests finish (vitest 4.1: a finished test is removed with everything after it), so cases would go
 * on as if nothing had happened and their clean-ups would be cut off by the reports' deadline. The
 * main process announces the cancel on a channel every thread of the process hears; every case
 * listens to it (suites/_register.ts).
 */
const NAME = 'dbsi-conformance: run cancelled';

/** Main process: the run is cancelled. */
export function announceCancel(): void {
  const ch = new BroadcastChannel(NAME);
  ch.postMessage('cancel');
  ch.close();
}

let cancelled: AbortController | undefined;

/** Worker: aborted when the main process announces the cancel. */
export function runCancelledSignal(): AbortSignal {
  if (!cancelled) {
    const c = (cancelled = new AbortController());
    setMaxListeners(10_000, c.signal);
    const ch = new BroadcastChannel(NAME);
    ch.onmessage = () => {
      c.abort(new Error('the run was interrupted'));
      ch.close();
    };
    ch.unref();
  }
  return cancelled.signal;
}
