import type { HttpResult } from '../log/entry';
import { cutAtToken } from '../text';

/**
 * What a check function returns: the property it states, and whether the target has it.
 * The case context adds the requirement, grade and section from the catalog.
 */
export interface CheckVerdict {
  check: string;
  description: string;
  outcome: 'passed' | 'failed' | 'not-applicable';
  expected?: string;
  received?: string;
  note?: string;
  res?: HttpResult;
}

export const pass = (check: string, description: string, res?: HttpResult, note?: string): CheckVerdict => ({
  check,
  description,
  outcome: 'passed',
  res,
  note,
});
export const fail = (
  check: string,
  description: string,
  expected: string,
  received: string,
  res?: HttpResult,
): CheckVerdict => ({ check, description, outcome: 'failed', expected, received, res });
export const notApplicable = (check: string, description: string, note: string, res?: HttpResult): CheckVerdict => ({
  check,
  description,
  outcome: 'not-applicable',
  note,
  res,
});

/** "status 404, body {"x":1}" from the redacted exchange, short enough for one line. */
export function receivedSummary(res: HttpResult, max = 200): string {
  const body = res.exchange.response?.body ?? '';
  const shown = body.length > max ? `${cutAtToken(body, max)} (${res.exchange.response?.bytes} bytes)` : body;
  return `status ${res.status}${shown ? `, body ${shown}` : ', no body'}`;
}
