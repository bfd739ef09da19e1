import type { HttpResult } from '../log/entry';
import { fail, notApplicable, pass, type CheckVerdict } from './verdict';

function at(obj: unknown, path: string): unknown {
  return path.split('.').reduce<any>((o, k) => (o == null || typeof o !== 'object' ? undefined : o[k]), obj);
}

/**
 * The answer describes what was sent: every listed member the answer carries has the value the
 * request carried. Members the answer omits are not required (listed in the note).
 */
export function reflects_request(
  answer: unknown,
  sent: Record<string, unknown>,
  what: string,
  res?: HttpResult,
): CheckVerdict {
  const paths = Object.keys(sent);
  const d = `${what} reflects the request where it carries ${paths.join(', ')}`;
  const carried = paths.filter((p) => at(answer, p) !== undefined);
  if (carried.length === 0)
    return notApplicable('reflects_request', d, `the answer carries none of ${paths.join(', ')}`, res);
  const differ = carried.filter((p) => JSON.stringify(at(answer, p)) !== JSON.stringify(sent[p]));
  if (differ.length) {
    return fail(
      'reflects_request',
      d,
      differ.map((p) => `${p} ${JSON.stringify(sent[p])} (as sent)`).join('; '),
      differ.map((p) => `${p} ${JSON.stringify(at(answer, p))}`).join('; '),
      res,
    );
  }
  const omitted = paths.filter((p) => !carried.includes(p));
  return pass(
    'reflects_request',
    d,
    res,
    omitted.length ? `not carried by the answer (accepted): ` + `${omitted.join(', ')}` : undefined,
  );
}
