import { setMaxListeners } from 'node:events';
import { BroadcastChannel } from 'node:worker_threads';

/**
 * Tells the cases that the run was cancelled (Ctrl-C, SIGTERM). Vitest's own cancel aborts the signal
 * of the tests it believes are running, and its list of running tests loses entries when concurrent
 * tests finish (vitest 4.1: a finished test is removed with everything after it), so cases would go
 * on as if nothing had happened and their clean-ups would be cut off by the reports' deadline. The
 * main process answers on a channel every thread of the process hears: it announces the cancel, and
 * a worker that starts listening later asks and is told.
 */
const NAME = 'dbsi-conformance: run cancelled';

/** Main process: open while the run is on; cancel() announces it (and answers later questions). */
export function openCancelChannel(): { cancel(): void; close(): void } {
  const ch = new BroadcastChannel(NAME);
  let cancelled = false;
  ch.onmessage = (m) => {
    if ((m as MessageEvent).data === 'query' && cancelled) ch.postMessage('cancel');
  };
  ch.unref();
  return {
    cancel: () => {
      cancelled = true;
      ch.postMessage('cancel');
    },
    close: () => ch.close(),
  };
}

let cancelled: AbortController | undefined;

/** Worker: aborted when the main process announces the cancel (or already had). */
export function runCancelledSignal(): AbortSignal {
  if (!cancelled) {
    const c = (cancelled = new AbortController());
    setMaxListeners(10_000, c.signal);
    const ch = new BroadcastChannel(NAME);
    ch.onmessage = (m) => {
      if ((m as MessageEvent).data !== 'cancel') return;
      c.abort(new Error('the run was interrupted'));
      ch.close();
    };
    ch.unref();
    ch.postMessage('query');
  }
  return cancelled.signal;
}
