/**
 * Time bounds that read what arrived before they end. A timer that is due runs before the I/O the event loop
 * received in the same turn: after a process was starved of CPU past a bound (a busy machine, the stress mode),
 * an answer that came in time was taken for its absence (the reachability preflight concluded nothing, once). A
 * bound here runs one step later in that turn (setImmediate: after the loop's I/O), so what already arrived wins.
 */

export interface Bound {
  /** The bound is no longer needed: its callback will not run. */
  clear(): void;
}

/** Runs `fn` once `ms` have passed and the I/O received by then was handled; `unref`: it keeps no process alive. */
export function afterIo(ms: number, fn: () => void, o: { unref?: boolean } = {}): Bound {
  let immediate: NodeJS.Immediate | undefined;
  const timer = setTimeout(() => {
    immediate = setImmediate(fn);
    if (o.unref) immediate.unref();
  }, ms);
  if (o.unref) timer.unref();
  return {
    clear: () => {
      clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
    },
  };
}

/** AbortSignal.timeout(ms), whose abort comes after the I/O received by then (a TimeoutError, as Node's). */
export function timeoutSignal(ms: number): AbortSignal {
  const c = new AbortController();
  afterIo(ms, () => c.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), {
    unref: true,
  });
  return c.signal;
}
