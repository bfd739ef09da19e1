import type { HttpResult } from '../log/entry';
import { fail, pass, receivedSummary, type CheckVerdict } from './verdict';

/**
 * The documented path leads to the operation: a valid request is not answered 404 (no such
 * resource) or 405 (no such method there). Whether it succeeds is the business of other checks.
 * `servedAt`: the same request, changing nothing, sent with a path the spec rules out and served
 * there, named in the failure (a 404 alone may also mean that the resource, e.g. a customer, is not
 * on record: the caller judges that).
 */
export function operation_found(res: HttpResult, path: string, servedAt?: HttpResult): CheckVerdict {
  const d = `finds the operation at ${path} (not answered 404 or 405)`;
  if (res.status !== 404 && res.status !== 405)
    return pass('operation_found', d, res, `answered ${res.status} at ` + `${res.exchange.request.url}`);
  const elsewhere = servedAt
    ? `; the same request, changing nothing, was answered ` + `${servedAt.status} at ${servedAt.exchange.request.url}`
    : '';
  return fail(
    'operation_found',
    d,
    `the operation at ${res.exchange.request.url} ` + `(any answer but 404 or 405)`,
    `${receivedSummary(res)}${elsewhere}`,
    res,
  );
}

/** A request the spec says must succeed, for a stated reason, is answered 2xx. */
export function served(res: HttpResult, why: string): CheckVerdict {
  const d = `is served (${why}): a 2xx`;
  return res.status >= 200 && res.status < 300
    ? pass('served', d, res, `answered ${res.status}`)
    : fail('served', d, 'a 2xx status', receivedSummary(res), res);
}
