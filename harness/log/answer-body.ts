import { JsonTooDeep, parseJson } from '../json-depth';
import type { HttpResult } from './entry';

/**
 * How either source reads an answer's body (the client's, harness/http/transport.ts; a capture's,
 * harness/traffic/judge.ts): JSON within the bound of harness/json-depth.ts, or why it is not.
 */

/** A whole body (`shown`: as reports show it, redacted) parsed as JSON, or why it is not. */
export function parsedText(text: string, shown: string): Pick<HttpResult, 'json' | 'jsonError' | 'tooDeep'> {
  if (text.trim() === '') return { json: undefined };
  try {
    return { json: parseJson(text) };
  } catch (e) {
    const what =
      e instanceof JsonTooDeep
        ? `the body is JSON, but ${e.message}`
        : `the body is not JSON (${(e as Error).message})`;
    return {
      json: undefined,
      jsonError: `${what}; it starts: ${JSON.stringify(shown.slice(0, 80))}`,
      ...(e instanceof JsonTooDeep && { tooDeep: true }),
    };
  }
}
