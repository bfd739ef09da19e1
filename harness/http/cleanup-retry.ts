import type { HttpResult } from '../log/entry';
import { TransportError } from './errors';
import { DEFAULT_TIMINGS } from './timings';

/**
 * The clean-up retry: separate from the one safe retry of ordinary requests (client.ts), and only
 * for requests a clean-up sends. Clean-ups are built to be idempotent or reconciling (set a value
 * back, confirm it, list and delete what is there), so a clean-up request whose answer was lost or
 * refused for the moment is sent again, with backoff, until it gets an answer that can be judged or
 * its deadline passes:
 * - 502, 503, 504: not processed (or processed: the request is idempotent either way), tried again;
 * - 429: tried again after its Retry-After (the deadline permitting);
 * - a timeout, a cut-off answer, a reset, a refused connection, an answer that is not HTTP.
 * Every other answer (2xx, 4xx, 500) is an answer: the clean-up judges it.
 *
 * While the client is paced (the target sheds load, harness/http/pacing.ts), a clean-up request is not
 * given up when its own time (`until`) passes: it keeps being tried, at the paced rate, until it is
 * answered or the clean-ups' deadline passes. A restore answered 503 inside a burst is sent again, and a
 * flaky target is left as found (issue 34).
 */

/** How long one clean-up request is tried, from its first try: three request timeouts, at least 5 s (but see
 * CLEANUP_MIN_TRIES). */
export function cleanupRequestDeadlineMs(timeoutMs: number, floorMs = DEFAULT_TIMINGS.cleanupRequestFloorMs): number {
  return Math.max(3 * timeoutMs, floorMs);
}

/** A clean-up request is tried at least this often (within the case's clean-up deadline), however quickly its time
 * passed: a target busy with 429s or 503s answers fast. */
export const CLEANUP_MIN_TRIES = 6;

/** How long the clean-ups of one case may take in all, from their start: ten request timeouts, at least 15 s. */
export function cleanupDeadlineMs(timeoutMs: number, floorMs = DEFAULT_TIMINGS.cleanupCaseFloorMs): number {
  return Math.max(10 * timeoutMs, floorMs);
}

/** The clean-up's time ran out before a request could be tried (again). */
export class CleanupDeadlineError extends TransportError {
  override name = 'CleanupDeadlineError';
}

const RETRYABLE = new Set(['connection', 'timeout', 'protocol', 'unavailable']);

/** Whether a clean-up request that failed this way is tried again. */
export function retryableInCleanup(e: unknown): e is TransportError {
  return e instanceof TransportError && RETRYABLE.has(e.kind) && !(e instanceof CleanupDeadlineError);
}

function retryAfter(e: TransportError): number | undefined {
  const v = e.exchange?.response?.headers['retry-after'];
  if (!v) return undefined;
  const secs = Number(v);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

/**
 * Backoff with jitter (50–150 %): clean-ups retrying side by side must not fall into step with a target's
 * pattern.
 */
const backoff = (n: number, steps: readonly number[]) => steps[Math.min(n, steps.length - 1)]! * (0.5 + Math.random());

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

export interface CleanupAttempt {
  /** Aborted when the clean-up deadline passes: no attempt outlives it. */
  signal: AbortSignal;
  /** 0 for the first try, 1 for the first retry… */
  n: number;
}

/**
 * Send a clean-up request until it gets an answer that can be judged, or its own time (`until`,
 * epoch ms) has passed after at least CLEANUP_MIN_TRIES tries (unless `paced()` says the client is
 * slowed down to the target's pace), or the hard `deadline` (epoch ms; read again before every try, as
 * it can move closer) passes. `failed` sees each try that failed. The last failure is thrown when time
 * runs out.
 */
export async function sendUntilAnswered(
  attempt: (a: CleanupAttempt) => Promise<HttpResult>,
  opts: {
    deadline: () => number;
    until?: number;
    /** Whether the client is slowed down to the target's pace now: then `until` does not end the tries. */
    paced?: () => boolean;
    failed?: (e: TransportError, retrying: string | undefined) => void | Promise<void>;
    stop?: AbortSignal;
    /** The waits between retries (default DEFAULT_TIMINGS.cleanupBackoffMs, harness/http/timings.ts). */
    backoffMs?: readonly number[];
  },
): Promise<HttpResult> {
  let last: TransportError | undefined;
  // Every try so far failed before anything left the machine: the error thrown says so only then.
  let sentNothing = true;
  const thrown = (e: TransportError) => ((e.neverSent = sentNothing && e.neverSent), e);
  for (let n = 0; ; n++) {
    const remaining = opts.deadline() - Date.now();
    if (remaining <= 0 || opts.stop?.aborted) {
      const why = opts.stop?.aborted ? 'the run was left' : 'the clean-up deadline passed';
      if (!last) {
        throw Object.assign(new CleanupDeadlineError('timeout', `not tried: ${why}`), { neverSent: sentNothing });
      }
      const tried = `tried ${n} time${n === 1 ? '' : 's'}`;
      throw thrown(new CleanupDeadlineError(last.kind, `${last.message}; ${why} (${tried})`, last.exchange));
    }
    const within = AbortSignal.timeout(remaining);
    try {
      return await attempt({ signal: opts.stop ? AbortSignal.any([within, opts.stop]) : within, n });
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
      // Aborted by the deadline: the kind the client gives is "interrupted"; it is a timeout of the clean-up.
      const err =
        within.aborted && e.kind === 'interrupted'
          ? new TransportError('timeout', 'no answer before the clean-up deadline', e.exchange)
          : e;
      if (!retryableInCleanup(err)) throw thrown(err);
      sentNothing &&= err.neverSent;
      last = err;
      const wait = Math.max(retryAfter(err) ?? 0, backoff(n, opts.backoffMs ?? DEFAULT_TIMINGS.cleanupBackoffMs));
      const mine =
        n + 1 < CLEANUP_MIN_TRIES ||
        opts.until === undefined ||
        Date.now() + wait < opts.until ||
        opts.paced?.() === true;
      const willRetry = mine && Date.now() + wait < opts.deadline() && !opts.stop?.aborted;
      await opts.failed?.(err, willRetry ? `tried again after ${Math.round(wait)} ms (clean-up retry)` : undefined);
      if (!willRetry) {
        const tried = `tried ${n + 1} time${n === 0 ? '' : 's'}`;
        const message = `${err.message}; the clean-up deadline passed (${tried})`;
        throw thrown(new CleanupDeadlineError(err.kind, message, err.exchange));
      }
      await sleep(wait, opts.stop);
    }
  }
}
