import { header, type Observed, type Seen } from './exchange';
import { parseJson } from '../json-depth';

/** What the rules read of a logged request, whichever source logged it. */

/** A request as sent, answered or not (a request in flight, harness/log/in-flight.ts, has no answer yet). */
export type Requested = { x: Pick<Observed, 'requestHeaders' | 'requestBody'> };

export const is2xx = (s: number) => s >= 200 && s < 300;
export const is4xx = (s: number) => s >= 400 && s < 500;
export const has = (s: Seen, name: string) => header(s.x.requestHeaders, name) !== undefined;
/** A request that carries no credentials at all, in a capture that keeps them. */
export const withoutCredentials = (s: Seen) => s.keepsAuthorization && !has(s, 'authorization');

export function requestJson(s: Requested): { json?: unknown; ok: boolean } {
  if (s.x.requestBody === undefined || s.x.requestBody.trim() === '') return { ok: false };
  try {
    return { json: parseJson(s.x.requestBody), ok: true };
  } catch {
    return { ok: false };
  }
}

export const isObject = (v: unknown): v is Record<string, any> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** A value sent both as a header and as a body member: known only where the two agree ("which wins: not shown"). */
export function sentOnce(s: Requested, headerName: string, member: string): { known: boolean; value?: string } {
  const h = header(s.x.requestHeaders, headerName);
  const parsed = requestJson(s).json;
  const b = isObject(parsed) ? parsed[member] : undefined;
  const bv = b === undefined ? undefined : String(b);
  if (h !== undefined && bv !== undefined && h !== bv) return { known: false };
  const value = h ?? bv;
  return { known: value !== undefined, value };
}
