import { REFERENCE_CREDENTIALS } from '../fixtures';
import { json, type Req, type Res, type Route } from '../http';
import { isJson, served } from './holdout-disclosures';
import type { AreaContext } from './types';

/**
 * The conformant choices of operations 1–7 of the second hold-out set of conformant choices (session 41,
 * reference-target/faults/freedom2-variants.ts): each applied around the route (`next` takes the request as the
 * vendor reads it).
 */
export type Next2 = (req: Req) => Promise<Res>;

/** The most acceptance records a user may hold (variant fr2-op5-record-cap). */
export const RECORD_CAP = 8;
/** The longest name a disclosure keeps (variant fr2-name-cut-64). */
export const NAME_CUT = 64;

/** The query parameters each operation documents (variant fr2-strict-query); any other is refused. */
const DOCUMENTED_QUERY: Record<string, string[]> = {
  'GET /institution-disclosures': [],
  'POST /institution-disclosures': [],
  'PUT /institution-disclosures': [],
  'GET /institution-user-disclosures': ['InstitutionConsumerId'],
  'POST /institution-user-disclosures': [],
  'PUT /institution-user-disclosures': ['InstitutionCustomerId'],
  'DELETE /institution-user-disclosures': ['InstitutionCustomerId', 'AccountType'],
};

/** Variant fr2-strict-query: "No body, no query parameter." and the parameters each operation names. */
export function undocumentedQuery(ctx: AreaContext, route: Route, req: Req): Res | undefined {
  if (!ctx.fault('fr2-strict-query')) return undefined;
  const family = route.path.includes('/institution-user-disclosures')
    ? '/institution-user-disclosures'
    : '/institution-disclosures';
  const allowed = DOCUMENTED_QUERY[`${route.method} ${family}`] ?? [];
  const unknown = [...req.query.keys()].filter((k) => !allowed.includes(k));
  if (!unknown.length) return undefined;
  return json(400, { errorCode: 'UNSUPPORTED_PARAMETER', errorMessage: `unknown query parameter ${unknown[0]}` });
}

const bodyOf = (req: Req): Record<string, unknown> => (isJson(req.body) ? req.body : {});

/** Variant fr2-name-cut-64: the name is kept cut to its first 64 characters, in the body and the header alike. */
function cutName(req: Req): Req {
  const b = bodyOf(req);
  const cut = (v: unknown) => (typeof v === 'string' && v.length > NAME_CUT ? v.slice(0, NAME_CUT) : v);
  const headers = { ...req.headers };
  const h = headers['institutiondisclosurename'];
  if (h !== undefined) headers['institutiondisclosurename'] = cut(h) as string;
  const body = isJson(req.body) ? { ...b, institutionDisclosureName: cut(b.institutionDisclosureName) } : req.body;
  return { ...req, headers, body };
}

/** Variant fr2-op3-name-collision-409: another disclosure of the institution already has this name. */
function nameTaken(ctx: AreaContext, req: Req): boolean {
  const b = bodyOf(req);
  const name = b.institutionDisclosureName ?? req.headers['institutiondisclosurename'];
  const institution = b.institutionId ?? req.headers['institutionid'];
  const self = req.params.institutionDisclosureId;
  return [...ctx.state.disclosures.values()].some(
    (d) =>
      d.institutionDisclosureName === name && d.institutionId === institution && d.institutionDisclosureId !== self,
  );
}

/**
 * Variant fr2-op1-data-shapes: institutionDisclosureData is a URL of another shape (a port, a query, a fragment, an
 * encoded path; a data: URL) and institutionDisclosureDataType names the document ("PDF", "HTML") for some
 * disclosures. "carries a URL"; "Data types other than URL: not shown."
 */
function reshaped(e: unknown, i: number): unknown {
  if (!isJson(e) || e.institutionDisclosureData === undefined) return e;
  const id = encodeURIComponent(String(e.institutionDisclosureId ?? i));
  if (i % 3 === 0)
    return {
      ...e,
      institutionDisclosureData: `https://docs.fi.example:8443/disclosures/${id}%20v3.pdf?lang=en&v=3#page=1`,
      institutionDisclosureDataType: 'PDF',
    };
  if (i % 3 === 1)
    return {
      ...e,
      institutionDisclosureData: 'data:text/html;base64,PGgxPlRlcm1zPC9oMT4=',
      institutionDisclosureDataType: 'HTML',
    };
  return e;
}

function dataShapes(answer: Res): Res {
  if (!served(answer) || !isJson(answer.body)) return answer;
  const list = answer.body.institutionDisclosures;
  if (Array.isArray(list)) return { ...answer, body: { ...answer.body, institutionDisclosures: list.map(reshaped) } };
  return { ...answer, body: reshaped(answer.body, 0) };
}

export function freedom2Institution(ctx: AreaContext) {
  const f = ctx.fault;
  const shaped = async (answer: Promise<Res>) => (f('fr2-op1-data-shapes') ? dataShapes(await answer) : answer);
  return async (route: Route, req: Req, next: Next2): Promise<Res> => shaped(institution(route, req, next));
  async function institution(route: Route, req: Req, next: Next2): Promise<Res> {
    const refused = undocumentedQuery(ctx, route, req);
    if (refused) return refused;
    if (route.method === 'GET') return next(req);
    const read = f('fr2-name-cut-64') ? cutName(req) : req;
    if (f('fr2-op3-name-collision-409') && nameTaken(ctx, read))
      return json(409, { errorCode: 'DUPLICATE_NAME', errorMessage: 'a disclosure of this institution has this name' });
    return next(read);
  }
}

/** The user the bearer token stands for. */
const tokenUser = (ctx: AreaContext, req: Req) =>
  ctx.state.bearerUsers.get(/^Bearer\s+(.+)$/i.exec(req.headers['authorization'] ?? '')?.[1] ?? '');

/** Variant fr2-op5-record-cap: a new record beyond RECORD_CAP for the user is refused (422). */
function overCap(ctx: AreaContext, req: Req): boolean {
  const user = tokenUser(ctx, req);
  if (!user) return false;
  const mine = [...ctx.state.userDisclosures.values()].filter((u) => u.institutionUserId === user.userId);
  const exists = mine.some(
    (u) =>
      u.institutionDisclosureId === req.headers['institutiondisclosureid'] && u.accountId === req.headers['accountid'],
  );
  return !exists && mine.length >= RECORD_CAP;
}

/** Variant fr2-op5-timestamp-window: the stamp must read as a date within two days of now. */
function staleStamp(req: Req, now = Date.now()): boolean {
  const stamp = req.headers['institutionuserdisclosurestatusupdatedatetime'];
  const t = stamp === undefined ? Number.NaN : Date.parse(stamp);
  return !(Math.abs(now - t) <= 2 * 86_400_000);
}

function userRefusal(ctx: AreaContext, route: Route, req: Req): Res | undefined {
  const f = ctx.fault;
  const refused = undocumentedQuery(ctx, route, req);
  if (refused) return refused;
  if (route.method === 'POST' && f('fr2-op5-timestamp-window') && staleStamp(req))
    return json(400, { errorCode: 'BAD_TIMESTAMP', errorMessage: 'the status update time is not a recent date-time' });
  if (route.method === 'POST' && f('fr2-op5-record-cap') && tokenUser(ctx, req) && overCap(ctx, req))
    return json(
      422,
      { type: 'about:blank', title: 'Limit reached', status: 422, detail: `at most ${RECORD_CAP} records per user` },
      { 'content-type': 'application/problem+json' },
    );
  if (route.method === 'PUT' && f('fr2-op6-cas-requires-id') && !req.headers['institutiondisclosureid'])
    return json(400, { errorCode: 'CAS_ID_REQUIRED', errorMessage: 'InstitutionDisclosureId is required' });
  return undefined;
}

/** What the list of operation 4 shows, as each list variant of the set makes it. */
function listed(ctx: AreaContext, answer: Res): Res {
  const f = ctx.fault;
  if (!served(answer) || !isJson(answer.body) || !Array.isArray(answer.body.institutionUserDisclosures)) return answer;
  let items = answer.body.institutionUserDisclosures as unknown[];
  // Variant fr2-op4-canonical-names: the name of the disclosure the record is for, as the FI has it now.
  if (f('fr2-op4-canonical-names'))
    items = items.map((e) => {
      const d = isJson(e) ? ctx.state.disclosures.get(String(e.institutionDisclosureId)) : undefined;
      return d && isJson(e) ? { ...e, institutionDisclosureName: d.institutionDisclosureName } : e;
    });
  // Variant fr2-op4-masked-accounts: the account is shown as banks show it, its last four characters.
  if (f('fr2-op4-masked-accounts'))
    items = items.map((e) =>
      isJson(e) && typeof e.accountId === 'string' ? { ...e, accountId: `****${e.accountId.slice(-4)}` } : e,
    );
  // Variant fr2-op4-accepted-only: "List the disclosures accepted by a user".
  if (f('fr2-op4-accepted-only'))
    items = items.filter((e) => isJson(e) && e.institutionUserDisclosureStatus === 'ACCEPTED');
  // Variant fr2-op4-unknown-consumer-404: nothing on record for the consumer is a 404.
  if (f('fr2-op4-unknown-consumer-404') && !items.length)
    return json(404, { errorCode: 'NOT_FOUND', errorMessage: 'no disclosures on record for this consumer' });
  return { ...answer, body: { ...answer.body, institutionUserDisclosures: items } };
}

export function freedom2User(ctx: AreaContext) {
  return async (route: Route, req: Req, next: Next2): Promise<Res> => {
    const refused = userRefusal(ctx, route, req);
    if (refused) return refused;
    const answer = await next(req);
    return route.method === 'GET' ? listed(ctx, answer) : answer;
  };
}

/** Variant fr2-disc-txid-reuse-409: a write whose TransactionId was already used is refused as a replay. */
export function transactionIdGuard(ctx: AreaContext) {
  const used = new Set<string>();
  return (route: Route, req: Req): Res | undefined => {
    if (!ctx.fault('fr2-disc-txid-reuse-409') || route.method === 'GET' || !route.path.includes('disclosures'))
      return undefined;
    if (req.headers['authorization'] !== `Bearer ${REFERENCE_CREDENTIALS.bearerToken}`) return undefined;
    const id = req.headers['transactionid'];
    if (!id) return undefined;
    if (used.has(id)) return json(409, { errorCode: 'DUPLICATE_TRANSACTION', errorMessage: 'TransactionId reused' });
    used.add(id);
    return undefined;
  };
}
