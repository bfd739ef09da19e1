/**
 * What a write's answer says of its effect, one equality for every fold and rule: 2xx applied; a refusal
 * (4xx, 429 included, or 503) changed nothing; anything else (no answer, 1xx/3xx, another 5xx) is unknown.
 */
export type Outcome = 'applied' | 'refused' | 'unknown';

export function outcomeOf(status: number): Outcome {
  if (status >= 200 && status < 300) return 'applied';
  if ((status >= 400 && status < 500) || status === 503) return 'refused';
  return 'unknown';
}
