import type { HttpResult } from '../log/entry';
import { fail, notApplicable, pass, receivedSummary, type CheckVerdict } from './verdict';

const is2xx = (s: number) => s >= 200 && s < 300;

/** The answer has exactly one of the documented status codes. */
export function status_code_conformance(res: HttpResult, documented: number | number[]): CheckVerdict {
  const codes = Array.isArray(documented) ? documented : [documented];
  const d = `answers ${codes.join(' or ')}`;
  // A 429 says the request was not processed ("Rate limits …: not shown"): it says nothing of the answer it would get.
  if (res.status === 429 && !codes.includes(429))
    return notApplicable(
      'status_code_conformance',
      d,
      'the target answered 429 (too many requests): not processed',
      res,
    );
  return codes.includes(res.status)
    ? pass('status_code_conformance', d, res)
    : fail('status_code_conformance', d, `status ${codes.join(' or ')}`, receivedSummary(res), res);
}

/** Where the success status is not shown, any 2xx is success; the code is recorded. */
export function success_status(res: HttpResult): CheckVerdict {
  const d = 'answers a 2xx (the success status is not shown, so any 2xx passes)';
  return is2xx(res.status)
    ? pass('success_status', d, res, `answered ${res.status}`)
    : fail('success_status', d, 'a 2xx status', receivedSummary(res), res);
}

/** A request that must not be served (no or invalid credentials, a broken rule): no 2xx. */
export function not_served(res: HttpResult, why: string): CheckVerdict {
  const d = `is not served (${why}): no 2xx; the error status and body are not required`;
  return !is2xx(res.status)
    ? pass('not_served', d, res, `answered ${res.status}`)
    : fail('not_served', d, 'any status outside 2xx', receivedSummary(res), res);
}
