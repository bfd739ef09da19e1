/**
 * What the answer to a write says it did: applied (2xx); refused (4xx, or 503: shed before it was served), which
 * changes nothing; unknown (no answer, 1xx/3xx, another 5xx), which may have landed.
 */
export type Outcome = 'applied' | 'refused' | 'unknown';

export function outcomeOf(status: number): Outcome {
  if (status >= 200 && status < 300) return 'applied';
  if ((status >= 400 && status < 500) || status === 503) return 'refused';
  return 'unknown';
}
