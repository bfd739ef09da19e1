import type { HttpResult } from '../log/entry';
import { validate } from '../schemas';
import { fail, notApplicable, pass, receivedSummary, type CheckVerdict } from './verdict';

/** "Bodies are JSON objects": the response body parses as a JSON object. */
export function json_object_body(res: HttpResult): CheckVerdict {
  const d = 'answers with a body that is a JSON object';
  if (res.tooDeep && res.text.trimStart().startsWith('{'))
    return notApplicable('json_object_body', d, `an object whose members the suite cannot read: ${res.jsonError}`, res);
  if (res.tooDeep) return fail('json_object_body', d, 'a JSON object', `JSON of type array: ${res.jsonError}`, res);
  if (res.jsonError) return fail('json_object_body', d, 'a JSON object', `${res.jsonError}`, res);
  if (res.json === null || typeof res.json !== 'object' || Array.isArray(res.json))
    return fail(
      'json_object_body',
      d,
      'a JSON object',
      res.text.trim() === '' ? 'an empty body' : `JSON of type ${Array.isArray(res.json) ? 'array' : typeof res.json}`,
      res,
    );
  return pass('json_object_body', d, res);
}

/** "Response: 204, no content": no body bytes at all. */
export function empty_body(res: HttpResult): CheckVerdict {
  const d = 'answers with no content (an empty body)';
  return res.exchange.response && res.exchange.response.bytes === 0
    ? pass('empty_body', d, res)
    : fail('empty_body', d, 'no body', receivedSummary(res), res);
}

/** The body (or a part of it) matches the JSON Schema of its documented shape. */
export function schema_conformance(
  res: HttpResult,
  schema: string,
  data: unknown = res.json,
  where = 'the body',
): CheckVerdict {
  const d = `${where} matches schemas/${schema}.schema.json`;
  if (res.jsonError || data === undefined)
    return notApplicable('schema_conformance', d, 'the body is not JSON (reported by ' + 'json_object_body)', res);
  const errors = validate(schema, data);
  return errors.length === 0
    ? pass('schema_conformance', d, res)
    : fail(
        'schema_conformance',
        d,
        `the shape of schemas/${schema}.schema.json`,
        errors.slice(0, 5).join('; ') + (errors.length > 5 ? `; and ${errors.length - 5} more` : ''),
        res,
      );
}
