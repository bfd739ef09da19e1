import { REFERENCE_CREDENTIALS } from '../reference-target/fixtures';
import type { FrontAction, FrontRequest, FrontRule } from './_front';
import { operationOf } from './_diagnosis-holdout-fronts';

/**
 * The fronts of the fifth hold-out set of the diagnosis (selftest/diagnosis-holdout5.test.ts): a strict sandbox that
 * knows the operator's values differently (an operator's mistake), or a target that breaks the spec in a way that looks
 * like a setup problem (a target's fault). Each is made fresh for each run: it may count what it served.
 */

const forward: FrontAction = { kind: 'forward' };
const served = (h: FrontRequest['history'][number]) => h.status >= 200 && h.status < 300;
const answer = (status: number, body: unknown): FrontAction => ({ kind: 'answer', status, body });

/** A query parameter of the request, decoded; undefined where absent. */
export function queryOf(r: FrontRequest, name: string): string | undefined {
  return new URL(r.path, 'http://x').searchParams.get(name) ?? undefined;
}

/** A header of the request (names are lower case). */
export function headerOf(r: FrontRequest, name: string): string | undefined {
  const v = r.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/** The request's JSON body, or {} where it has none. */
export function bodyOf(r: FrontRequest): Record<string, unknown> {
  try {
    const b = JSON.parse(r.body) as unknown;
    return b && typeof b === 'object' ? (b as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The operation's number-and-form (op1 … op10, op6-id, op7-id), as _diagnosis-holdout-fronts.ts names it. */
export const isOp =
  (...ops: string[]) =>
  (r: Pick<FrontRequest, 'method' | 'path'>): boolean =>
    ops.includes(operationOf(r));

/** Answer `status`/`body(r)` where `when` holds; pass everything else on. */
export function refusing(
  when: (r: FrontRequest) => boolean,
  status: number,
  body: (r: FrontRequest) => unknown,
): () => FrontRule {
  return () => (r) => (when(r) ? answer(status, body(r)) : forward);
}

/** How many requests of these operations the front served before this one. */
export function servedBefore(r: FrontRequest, ...ops: string[]): number {
  return r.history.filter((h) => served(h) && ops.includes(operationOf(h))).length;
}

/** Once `n` requests of `ops` were served, answer the later ones of `ops` that `when` picks with status/body. */
export function afterServing(
  n: number,
  ops: string[],
  status: number,
  body: (r: FrontRequest) => unknown,
  when: (r: FrontRequest) => boolean = () => true,
): () => FrontRule {
  return () => (r) => (isOp(...ops)(r) && when(r) && servedBefore(r, ...ops) >= n ? answer(status, body(r)) : forward);
}

/** The requests `when` picks answered status/body from the `n`-th on (in order of arrival; the first n-1 passed on). */
export function fromTheNth(
  n: number,
  when: (r: FrontRequest) => boolean,
  status: number,
  body: (r: FrontRequest) => unknown,
): () => FrontRule {
  return () => {
    let count = 0;
    return (r) => (when(r) && ++count >= n ? answer(status, body(r)) : forward);
  };
}

/** Every `every`-th request of `ops` (counting from the first) answered with status/body: an intermittent refusal. */
export function everyNth(every: number, ops: string[], status: number, body: unknown): () => FrontRule {
  return () => {
    let count = 0;
    return (r) => (isOp(...ops)(r) && ++count % every === 0 ? answer(status, body) : forward);
  };
}

/** The transfers token the reference target knows, as an Authorization header. */
export const TRANSFERS_AUTH = `Bearer ${REFERENCE_CREDENTIALS.transfersToken}`;
/** The bearer token the reference target knows, as an Authorization header. */
export const BEARER_AUTH = `Bearer ${REFERENCE_CREDENTIALS.bearerToken}`;

const BASIC_AUTH = `Basic ${Buffer.from(
  `${REFERENCE_CREDENTIALS.revocationClientId}:${REFERENCE_CREDENTIALS.revocationClientSecret}`,
).toString('base64')}`;

/**
 * The request carries the credential the reference target knows for its operation, exactly: a strict sandbox checks
 * the credentials first and the data after (a request refused as unauthenticated never reaches the data).
 */
export function authenticated(r: FrontRequest): boolean {
  const op = operationOf(r);
  const auth = headerOf(r, 'authorization');
  if (op === 'op8') return auth === BASIC_AUTH;
  if (op === 'op9') return auth === TRANSFERS_AUTH;
  return auth === BEARER_AUTH;
}

/** Both rules: the first that does not forward answers. */
export function both(a: () => FrontRule, b: () => FrontRule): () => FrontRule {
  return () => {
    const first = a();
    const second = b();
    return (r) => {
      const x = first(r);
      return x.kind === 'answer' ? x : second(r);
    };
  };
}
