/**
 * How long a check that answers at once (a refusal, a stat) may take before the self-test calls it hung: ten
 * times the second the product allows itself, so that a machine ten times slower than a quiet one stays green.
 * A bound, never a speed measurement.
 */
export const HANG_MS = 10_000;

/**
 * "Does not hang" without reading a clock in an assertion: the promise rejects when `work` has not
 * settled within `ms`. A bound, never a speed measurement: the machine may be shared and slow.
 */
export function within<T>(ms: number, work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Waits until `done()` holds, looking every 50 ms, for at most `ms` (a hang stopper, not a deadline: the caller
 * asserts what it waited for, so a machine that took longer fails with the assertion's message).
 */
export async function until(done: () => boolean, ms = HANG_MS): Promise<void> {
  const end = performance.now() + ms;
  while (!done() && performance.now() < end) await new Promise((r) => setTimeout(r, 50));
}
