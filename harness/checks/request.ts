import type { HttpResult } from '../log/entry';
import { validate } from '../schemas';
import { fail, pass, type CheckVerdict } from './verdict';
import { parseJson } from '../json-depth';

/**
 * The request (not the answer) is as its operation documents it: it carries every header the spec
 * marks required (under its name, in any case: HTTP/2 writes names in lower case), and a body it
 * sends has the documented shape. For judging a client's recorded traffic.
 */
export function request_as_documented(
  res: HttpResult,
  requiredHeaders: readonly string[],
  bodySchema?: string,
): CheckVerdict {
  const req = res.exchange.request;
  const d =
    `the request carries ` +
    `${
      requiredHeaders.length
        ? `the required headers ` + `${requiredHeaders.join(', ')}`
        : 'what its operation documents'
    }${bodySchema ? ` and a body matching ` + `schemas/${bodySchema}.schema.json` : ''}`;
  const names = new Set(Object.keys(req.headers).map((h) => h.toLowerCase()));
  const missing = requiredHeaders.filter((h) => !names.has(h.toLowerCase()));
  const problems = missing.length ? [`without ${missing.join(', ')}`] : [];
  if (bodySchema && req.body !== undefined && req.body.trim() !== '') {
    let body: unknown;
    try {
      body = parseJson(req.body);
      const errors = validate(bodySchema, body);
      if (errors.length) problems.push(`a body that does not match: ${errors.slice(0, 3).join('; ')}`);
    } catch {
      problems.push(`a body that is not JSON: ${JSON.stringify(req.body.slice(0, 60))}`);
    }
  }
  return problems.length
    ? fail(
        'request_as_documented',
        d,
        d.replace(/^the request carries/, 'a request with'),
        `a request ${problems.join(', and ')}`,
        res,
      )
    : pass('request_as_documented', d, res);
}
