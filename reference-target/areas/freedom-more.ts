import { REFERENCE_CREDENTIALS } from '../fixtures';
import { INVALID_JSON, json, type Req, type Res } from '../http';
import { isJson, served } from './holdout-disclosures';
import type { AreaContext } from './types';

/** The second batch of conformant choices (reference-target/faults/freedom-variants.ts), around every family. */

/**
 * Variant fr-415-not-json: the disclosures and contact operations answer 415 to a body that is not JSON. "Bodies
 * are JSON objects"; "Errors of the disclosures operations: not shown"; "Errors of the contact update operation:
 * not shown."
 */
export function notJsonRefused(ctx: AreaContext, req: Req): Res | undefined {
  if (!ctx.fault('fr-415-not-json') || req.body !== INVALID_JSON) return undefined;
  return { status: 415, headers: { 'content-type': 'text/plain' }, body: 'Unsupported Media Type' };
}

/**
 * Variant fr-bad-credentials-throttled: a brute-force guard. An Authorization refused once is answered 429 with
 * Retry-After while it is tried again within a minute (a request without one is not guessing); valid credentials
 * are never held back. Disclosures and contact update only, whose errors are "not shown" ("Rate limits […]: not
 * shown").
 */
export function badCredentialGuard(ctx: AreaContext, now: () => number = Date.now) {
  const refusedAt = new Map<string, number>();
  return {
    before(req: Req): Res | undefined {
      if (!ctx.fault('fr-bad-credentials-throttled')) return undefined;
      const auth = req.headers['authorization'];
      const at = auth === undefined ? undefined : refusedAt.get(auth);
      if (at === undefined || now() - at > 60_000) return undefined;
      return json(429, { error: 'too_many_attempts' }, { 'retry-after': '1' });
    },
    after(req: Req, answer: Res): void {
      const auth = req.headers['authorization'];
      if (auth !== undefined && (answer.status === 401 || answer.status === 403)) refusedAt.set(auth, now());
    },
  };
}

/** Jackson's NON_EMPTY: members that are null, "", [] or {} are left out, at every depth. */
function nonEmpty(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(nonEmpty);
  if (!isJson(v)) return v;
  const o: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const y = nonEmpty(x);
    const empty = y === null || y === '' || (Array.isArray(y) && !y.length) || (isJson(y) && !Object.keys(y).length);
    if (!empty) o[k] = y;
  }
  return o;
}

/**
 * Variant fr-op9-omits-empty-members: the Transfer answered leaves out every member that is null or empty (an empty
 * memo among them). "Which transfer fields are required: not shown."
 * Variant fr-op9-duplicate-refused: a transfer with the same body as one served in the last minute, under another
 * transactionId, is refused as a probable duplicate (400, code and message). "The conditions that lead to each
 * status […]: not shown."
 */
export function transferChoices(ctx: AreaContext, now: () => number = Date.now) {
  const servedBodies = new Map<string, number>();
  return {
    before(req: Req): Res | undefined {
      const token = /^Bearer\s+(.+)$/i.exec(req.headers['authorization'] ?? '')?.[1];
      if (!ctx.fault('fr-op9-duplicate-refused') || token !== REFERENCE_CREDENTIALS.transfersToken) return undefined;
      const at = servedBodies.get(req.text);
      if (at === undefined || now() - at > 60_000) return undefined;
      return json(400, { code: 'DUPLICATE_TRANSFER', message: 'the same transfer was made a moment ago' });
    },
    after(req: Req, answer: Res): Res {
      if (!served(answer)) return answer;
      servedBodies.set(req.text, now());
      return ctx.fault('fr-op9-omits-empty-members') ? { ...answer, body: nonEmpty(answer.body) } : answer;
    },
  };
}
