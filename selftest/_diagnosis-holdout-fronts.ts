import { REFERENCE_CREDENTIALS } from '../reference-target/fixtures';
import type { FrontAction, FrontRequest, FrontRule } from './_front';

/**
 * The fronts of the hold-out set of the diagnosis (selftest/diagnosis-holdout.test.ts): each makes the reference
 * target an independent target that either knows the operator's values differently (a strict sandbox, for an
 * operator's mistake) or breaks the spec in a way that looks like a setup problem (a target's fault). A front is
 * made fresh for each run (it keeps what it served).
 */

/** The operation a request of the reference target's paths is, by method and path. */
export function operationOf(r: Pick<FrontRequest, 'method' | 'path'>): string {
  const path = r.path.split('?')[0]!;
  const m = r.method;
  if (path.endsWith('/db-disclosures/v1/institution-disclosures')) return m === 'GET' ? 'op1' : 'op2';
  if (path.includes('/db-disclosures/v1/institution-disclosures/')) return 'op3';
  if (path.includes('/db-disclosures/v1/institution-user-disclosures')) {
    const byId = path.includes('/institution-user-disclosures/');
    return { GET: 'op4', POST: 'op5', PUT: byId ? 'op6-id' : 'op6', DELETE: byId ? 'op7-id' : 'op7' }[m] ?? 'op?';
  }
  if (path.endsWith('/oauth2/v1/revoke')) return 'op8';
  if (path.endsWith('/db-transfers/v1/transfers')) return 'op9';
  if (path.includes(':contact-info')) return 'op10';
  return 'other';
}

const forward: FrontAction = { kind: 'forward' };
const served = (h: FrontRequest['history'][number]) => h.status >= 200 && h.status < 300;
const bearer = (token: string) => `Bearer ${token}`;

/** A rule that answers `answer` where `when` holds and passes everything else on. */
export function answering(when: (r: FrontRequest) => boolean, status: number, body: unknown): () => FrontRule {
  return () => (r) => (when(r) ? { kind: 'answer', status, body } : forward);
}

/**
 * A bearer token of another user (consumer-77): the target knows it (it serves the institution's list), but the
 * configured user's records are not this token's: 403 to the user disclosures of consumer-42, and to writes naming
 * consumer-42's account.
 */
export function tokenOfAnotherUser(other: string): () => FrontRule {
  const real = { authorization: bearer(REFERENCE_CREDENTIALS.bearerToken) };
  const forbidden: FrontAction = {
    kind: 'answer',
    status: 403,
    body: { error: 'forbidden', message: 'the token does not stand for this consumer' },
  };
  return () => (r) => {
    if (r.headers.authorization !== bearer(other)) return forward;
    const op = operationOf(r);
    if (op === 'op1' || op === 'op2' || op === 'op3') return { kind: 'forward', headers: real };
    if (op === 'op4' && !r.path.includes('InstitutionConsumerId=consumer-42'))
      return { kind: 'forward', headers: real };
    return forbidden;
  };
}

/** A sandbox that knows only account `account` for the user: a create of a user disclosure naming another is 400. */
export function knowsOnlyAccount(account: string): () => FrontRule {
  return () => (r) => {
    const given = r.headers.accountid;
    if (operationOf(r) !== 'op5' || given === account) return forward;
    return {
      kind: 'answer',
      status: 400,
      body: { error: 'bad_request', message: `AccountId ${String(given)} is not an account of this user` },
    };
  };
}

/** The target refuses the bearer token (401) on writes of user disclosures once it served one: reads go on. */
export function writesExpireAfterTheFirst(): () => FrontRule {
  return () => (r) => {
    const op = operationOf(r);
    const write = (o: string) => /^op[567]/.test(o);
    if (!write(op) || r.headers.authorization !== bearer(REFERENCE_CREDENTIALS.bearerToken)) return forward;
    const wrote = r.history.some((h) => served(h) && write(operationOf(h)));
    return wrote ? { kind: 'answer', status: 401, body: { error: 'unauthorized', message: 'token expired' } } : forward;
  };
}

/** The target serves operation 4 three times, then answers 404 to it (the path forgotten). */
export function forgetsThePathAfter(n: number, op: string): () => FrontRule {
  return () => (r) => {
    if (operationOf(r) !== op) return forward;
    const before = r.history.filter((h) => operationOf(h) === op && served(h)).length;
    return before >= n ? { kind: 'answer', status: 404, body: { error: 'not_found' } } : forward;
  };
}

/** Once an update of a customer was served, every later update of that customer is 404 "no such customer". */
export function forgetsTheCustomerAfterAWrite(): () => FrontRule {
  return () => (r) => {
    if (operationOf(r) !== 'op10') return forward;
    const path = r.path.split('?')[0];
    const wrote = r.history.filter((h) => h.path.split('?')[0] === path && served(h)).length >= 2;
    return wrote ? { kind: 'answer', status: 404, body: { error: 'not_found', message: 'no such customer' } } : forward;
  };
}

/** A transfers token valid for plain transfers that the target also serves as the "forbidden" token. */
export function forbiddenTokenAuthorized(token: string): () => FrontRule {
  const real = { authorization: bearer(REFERENCE_CREDENTIALS.transfersToken) };
  return () => (r) => (r.headers.authorization === bearer(token) ? { kind: 'forward', headers: real } : forward);
}

/** Whether the request's JSON body has a member (at its top level) of that name. */
export function bodyHas(r: FrontRequest, member: string): boolean {
  try {
    const b = JSON.parse(r.body) as Record<string, unknown>;
    return typeof b === 'object' && b !== null && member in b;
  } catch {
    return false;
  }
}

/** Whether the request's JSON body breaks a documented type of the transfer (amount.amount not a number). */
export function brokenTransferBody(r: FrontRequest): boolean {
  try {
    const b = JSON.parse(r.body) as { amount?: { amount?: unknown } };
    return b.amount !== undefined && typeof b.amount?.amount !== 'number';
  } catch {
    return true;
  }
}

/** A gateway that answers every refused transfer (400) with a generic message of its own, naming no member. */
export function declinedAs400(message: string): () => FrontRule {
  return () => (r) =>
    operationOf(r) === 'op9' && r.headers.authorization === bearer(REFERENCE_CREDENTIALS.transfersToken)
      ? { kind: 'answer', status: 400, body: { code: 'DECLINED', message } }
      : forward;
}

/** A token the target serves n times, then refuses (401) with `body` on every request that carries it. */
export function expiresAfter(n: number, token: string, body: unknown): () => FrontRule {
  return () => {
    let served = 0;
    return (r) =>
      r.headers.authorization !== bearer(token) || ++served <= n ? forward : { kind: 'answer', status: 401, body };
  };
}
