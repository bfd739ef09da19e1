/**
 * An answer 500 whose body names a throttle: a spike arrest or rate limit that refused the request before
 * processing it (issue 31). A vendor's spike arrest answers 500 {"code":"CMN_90002","message":"Spike limit
 * violation"} above its limit (reference-target/server.ts, THROTTLED_ANSWER); gateways word it "rate limit
 * exceeded", "quota violation", "too many requests", "throttled". The target's own error names the cause, as a
 * 429 does: the request was not processed, so it is sent again (alone, at a calm moment) like a 429, never
 * judged as a failure of the operation, and never counted as a transfer the target may have made.
 */

const THROTTLE_WORDS = new RegExp(
  [
    'spike ?(?:limit|arrest)(?: violation)?',
    'rate[ -]?limit(?:ed|ing)?\\b',
    'quota (?:violation|exceeded)',
    'too many requests',
    'throttl(?:ed|ing)\\b',
  ].join('|'),
  'i',
);

/** The words of a 500's body that name a throttle ("Spike limit violation"), or undefined. */
export function throttleNamed(status: number, body: string): string | undefined {
  if (status !== 500 || body.length > 4_096) return undefined;
  return THROTTLE_WORDS.exec(body)?.[0];
}

/** Why a request the target did not process stands unanswered: the end of its error's message. */
export const LOWER_THE_PACE = 'lower http.rateLimitPerSecond or http.concurrency';

/** The error of a request whose last answer was a 500 that names a throttle, after `rechecks` re-checks alone. */
export function throttledMessage(status: number, throttle: string, rechecks: number, pace: string): string {
  const again = rechecks ? `, again after ${rechecks} re-check${rechecks === 1 ? '' : 's'} alone` : '';
  return (
    `the target answered ${status} naming a throttle ("${throttle}")${again}: it did not process the request ` +
    `(the pace now: ${pace}); ${LOWER_THE_PACE}`
  );
}

/** The wait a Retry-After header asks for (seconds or an HTTP date), else `fallback` (ms). */
export function retryAfterMs(h: Record<string, string>, fallback: number): number {
  const v = h['retry-after'];
  if (!v) return fallback;
  const secs = Number(v);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const date = Date.parse(v);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : fallback;
}
