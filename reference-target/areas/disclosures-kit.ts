import { randomUUID } from 'node:crypto';
import { dressed, INVALID_JSON, json, refusals, type Req, type Res, type Route } from '../http';
import type { ReferenceState, UserDisclosure } from '../state';
import type { AreaContext } from './types';

/*
 * What every route of operations 1–7 shares: authentication, refusals, new ids, which of a header and a body member
 * counts, the guard around each handler. Made once per target (disclosuresKit): a few of its choices keep state.
 */

export const D = '/db-disclosures/v1';

/** The user a bearer token stands for. */
export interface DisclosuresUser {
  institutionId: string;
  userId: string;
}

/** What an operation documents: header names (exact spelling), query parameters, body members. */
export interface Documented {
  headers?: string[];
  query?: string[];
  body?: string[];
}

export type Handler = (req: Req, user: DisclosuresUser) => Res;

export interface DisclosuresKit {
  ctx: AreaContext;
  state: ReferenceState;
  badRequest(message: string): Res;
  unauthorized(): Res;
  notFound(): Res;
  newId(prefix: 'disc' | 'uds'): string;
  /** A value sent as a header and as a body member: the one that counts. */
  either(bodyValue: unknown, headerValue: string | undefined): unknown;
  /** A handler behind the area's authentication and the checks every operation shares. */
  guarded(h: Handler, doc?: Documented): Route['handler'];
  userRecords(userId: string): UserDisclosure[];
}

const COMMON = ['Authorization', 'TransactionId', 'callingAppId'];

export function disclosuresKit(ctx: AreaContext): DisclosuresKit {
  const { state } = ctx;
  /** Refusals: the reference target's own choice, or (variant disc-refusals-other-shapes) other statuses and bodies. */
  const otherRefusals = ctx.fault('disc-refusals-other-shapes');
  const { badRequest, unauthorized } = refusals(otherRefusals);
  /** New ids: the target's own (disc-1, uds-1), or (variant disc-uuid-and-numeric-ids) a UUID and digits. */
  let numericId = 100000;
  const kit: DisclosuresKit = {
    ctx,
    state,
    badRequest,
    unauthorized,
    notFound: (): Res => (otherRefusals ? { status: 404 } : json(404, { error: 'not_found' })),
    newId: (prefix) => {
      if (!ctx.fault('disc-uuid-and-numeric-ids')) return state.nextId(prefix);
      return prefix === 'disc' ? randomUUID() : String(++numericId);
    },
    /** The body's wins, or (variant disc-headers-win) the header's. */
    either: (bodyValue, headerValue) =>
      ctx.fault('disc-headers-win') ? (headerValue ?? bodyValue) : (bodyValue ?? headerValue),
    guarded: (h, doc = {}) => guardedHandler(kit, h, doc),
    userRecords: (userId) => [...state.userDisclosures.values()].filter((u) => u.institutionUserId === userId),
  };
  return kit;
}

function guardedHandler(kit: DisclosuresKit, h: Handler, doc: Documented): Route['handler'] {
  const { ctx } = kit;
  return (req) => {
    const answer = ((): Res => {
      const user = authenticate(ctx, req);
      if (!user) return kit.unauthorized();
      if (req.body === INVALID_JSON) return kit.badRequest('body is not JSON');
      if (ctx.fault('disc-strict-header-names')) {
        const missing = undocumented(req, doc);
        if (missing.length) return kit.badRequest(`missing ${missing.join(', ')}`);
      }
      return h(req, user);
    })();
    if (!ctx.fault('disc-charset-header-case')) return answer;
    // A 204 that still says Content-Type, as some frameworks send it.
    const type: Record<string, string> = answer.status === 204 ? { 'content-type': 'application/json' } : {};
    return dressed(answer, { ...type, 'x-correlation-id': req.headers['transactionid'] ?? 'none' });
  };
}

/** Bearer authentication of the area; returns the user the token stands for. */
function authenticate(ctx: AreaContext, req: Req): DisclosuresUser | undefined {
  const { state } = ctx;
  const auth = req.headers['authorization'];
  const fallback = [...state.bearerUsers.values()][0]!;
  if (!auth) return ctx.fault('disc-serves-without-credentials') ? fallback : undefined;
  const m = /^Bearer\s+(.+)$/i.exec(auth);
  if (!m) return undefined;
  const given = m[1]!;
  const user =
    state.bearerUsers.get(given) ??
    (ctx.fault('disc-bearer-any-case')
      ? [...state.bearerUsers].find(([k]) => k.toLowerCase() === given.toLowerCase())?.[1]
      : undefined);
  if (!user && ctx.fault('disc-accepts-any-bearer-token')) return fallback;
  return user;
}

/** Variant disc-strict-header-names: refuse a request that lacks a documented name, spelled exactly. */
function undocumented(req: Req, doc: Documented): string[] {
  const missing = [...COMMON, ...(doc.headers ?? [])]
    .filter((n) => !req.rawHeaderNames.includes(n))
    .map((n) => `header ${n}`);
  for (const q of doc.query ?? []) if (!req.query.has(q)) missing.push(`query parameter ${q}`);
  const b = (req.body ?? {}) as Record<string, unknown>;
  for (const m of doc.body ?? []) if (typeof b !== 'object' || !(m in b)) missing.push(`body member ${m}`);
  return missing;
}
