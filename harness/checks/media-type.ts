import type { HttpResult } from '../log/entry';
import { fail, notApplicable, pass, type CheckVerdict } from './verdict';

/** The Content-Type of an answer, whatever the case of the header's name (a capture may write it in lower case). */
function contentType(res: HttpResult): string | undefined {
  for (const [k, v] of Object.entries(res.headers ?? {})) if (k.toLowerCase() === 'content-type') return v;
  return undefined;
}

/**
 * A JSON media type: application/json, or a structured +json type (application/problem+json), any letter case,
 * with or without parameters (charset=UTF-8).
 */
export function isJsonMediaType(value: string): boolean {
  const type = value.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(type);
}

/**
 * "Bodies are JSON objects": a body the suite reads as a JSON object is labelled as JSON. An answer that says
 * it is text/html or text/plain is not a JSON body to a client that reads the label. No label at all is not
 * judged here (HTTP leaves the recipient to sniff it).
 */
export function json_media_type(res: HttpResult): CheckVerdict {
  const d = 'labels its JSON body with a JSON media type (Content-Type)';
  const label = contentType(res);
  if (label === undefined) return notApplicable('json_media_type', d, 'the answer carries no Content-Type', res);
  return isJsonMediaType(label)
    ? pass('json_media_type', d, res)
    : fail('json_media_type', d, 'application/json (or a +json type)', `Content-Type: ${label}`, res);
}
