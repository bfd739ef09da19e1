import type { TargetConfig } from '../config';
import { BURST_WINDOW_MS, isShedStatus, type Pacer } from './pacing';
import { SAFE_METHODS } from './resolve';
import { sleep } from './transport';

/** What the two questions of a request's answer while the target sheds load read of the client. */
interface Shedding {
  pacer: Pacer;
  config: TargetConfig;
  maxRetryWaitMs: number;
}

/**
 * Whether an answer is one of a target shedding load (harness/http/pacing.ts): counted in a burst
 * (`inBurst`), and whether the request is re-checked alone (a read). A 500 no burst covers yet waits
 * until what was in flight with it has been answered: it may be the first answer of a burst. A 429 is
 * left to the retry after its Retry-After. Undefined: not such an answer, judged as it is.
 */
export async function shedVerdict(
  host: Shedding,
  a: { status: number; at: number; throttled: boolean; method: string; stop: AbortSignal; rechecks: number },
): Promise<{ inBurst: boolean; recheck: boolean } | undefined> {
  const { pacer, config } = host;
  const { status, at, stop, rechecks } = a;
  if (!isShedStatus(status) || status === 429) return undefined;
  // A 500 that names a throttle was not processed (./throttling.ts): re-checked alone like a read, any method.
  if (a.throttled) return { inBurst: pacer.covers(at) || pacer.shedding, recheck: true };
  // A re-check was sent alone at a calm moment: nothing was in flight with it.
  if (status === 500 && !pacer.covers(at) && !stop.aborted && rechecks === 0) {
    await pacer.settle(at, Math.min(BURST_WINDOW_MS, config.http.timeoutMs));
  }
  // A re-check's own answer is not counted (harness/http/pacing.ts): the others' show whether the
  // target still sheds load.
  const inBurst = pacer.covers(at) || (rechecks > 0 && pacer.shedding);
  const read = SAFE_METHODS.has(a.method);
  // A read answered 500 while the client is paced (its limit is near) is re-checked once, also without a burst.
  if (!inBurst && !(read && status === 500 && pacer.pacedTo && rechecks === 0)) return undefined;
  return { inBurst, recheck: read };
}

/**
 * Wait at least `ms`, then until no 429/5xx answer came for a calm period (CALM_MS), at most the
 * longest wait the run allows (maxRetryWaitMs) in all. Returns how long it waited.
 */
export async function untilCalm(host: Shedding, ms: number, stop: AbortSignal): Promise<number> {
  const { pacer, maxRetryWaitMs } = host;
  const t0 = Date.now();
  await sleep(ms, stop);
  for (;;) {
    const left = t0 + maxRetryWaitMs - Date.now();
    const calmIn = pacer.calmInMs;
    if (calmIn <= 0 || left <= 0 || stop.aborted) break;
    await sleep(Math.min(calmIn, left), stop);
  }
  return Date.now() - t0;
}
