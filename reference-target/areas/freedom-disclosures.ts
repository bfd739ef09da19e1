import { json, type Req, type Res, type Route } from '../http';
import { idsGivenOut, idsTakenBack } from './freedom-ids';
import type { Next } from './holdout';
import { isJson, served } from './holdout-disclosures';
import type { AreaContext } from './types';

/** The conformant choices of operations 1–7 (reference-target/faults/freedom-variants.ts). */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const STATUSES = ['ACCEPTED', 'NOT_ACCEPTED'];

/** Fisher–Yates, so that two lists of the same records seldom come in the same order. */
function shuffled<T>(xs: T[]): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/**
 * Variant fr-disc-strict-common-headers: "Disclosures: headers sent with every operation": a TransactionId that is
 * not a "UUID string", or a request without callingAppId, is refused (400) before anything else is looked at.
 */
function commonHeadersRefused(ctx: AreaContext, req: Req): Res | undefined {
  if (!ctx.fault('fr-disc-strict-common-headers')) return undefined;
  const id = req.headers['transactionid'];
  if (id === undefined || !UUID.test(id)) return json(400, { errors: [{ reason: 'TransactionId must be a UUID' }] });
  if (!req.headers['callingappid']) return json(400, { errors: [{ reason: 'callingAppId is required' }] });
  return undefined;
}

/**
 * Variant fr-disc-errors-html: refusals as the vendor's web server writes them: a 401 with a WWW-Authenticate
 * challenge and no body, every other refusal an HTML page. "Errors of the disclosures operations: not shown."
 */
function dressedRefusal(ctx: AreaContext, answer: Res): Res {
  if (served(answer) || !ctx.fault('fr-disc-errors-html')) return answer;
  if (answer.status === 401) return { status: 401, headers: { 'www-authenticate': 'Bearer realm="disclosures"' } };
  return {
    status: answer.status,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!doctype html><html><body><h1>${answer.status}</h1><p>Request refused.</p></body></html>`,
  };
}

/**
 * Variant fr-lists-crowded: the FI has many more disclosures than the run's, and the user many more records: the
 * lists add 30 of each, names repeated (some a disclosure's on record, under another id), some without the optional
 * members. Nothing is said of how many a list holds, nor that names are unique.
 */
function crowd(member: string, items: unknown[]): unknown[] {
  const first = items.find(isJson);
  const extra = Array.from({ length: 30 }, (_, i) => {
    const name = i % 3 === 0 && first ? String(first.institutionDisclosureName) : `Disclosure ${i % 10}`;
    if (member === 'institutionDisclosures')
      return i % 2
        ? {
            institutionDisclosureId: `legacy-${i}`,
            institutionId: first?.institutionId,
            institutionDisclosureName: name,
          }
        : {
            institutionDisclosureId: `legacy-${i}`,
            institutionId: first?.institutionId,
            institutionDisclosureName: name,
            institutionDisclosureData: `https://fi.example/legacy/${i}.pdf`,
            institutionDisclosureDataType: 'URL',
            institutionDisclosureStatus: i % 4 === 0,
          };
    if (!first) return undefined;
    return {
      institutionId: first.institutionId,
      institutionUserId: first.institutionUserId,
      institutionUserDisclosureStatus: i % 2 ? 'ACCEPTED' : 'NOT_ACCEPTED',
      institutionDisclosureName: name,
      institutionUserDisclosureId: `legacy-uds-${i}`,
      institutionDisclosureId: `legacy-${i}`,
      accountId: `legacy-account-${i}`,
    };
  }).filter((e) => e !== undefined);
  return [...items, ...extra];
}

/** Variants fr-gets-203, fr-lists-crowded and fr-lists-shuffled on a served list (operations 1 and 4). */
function listDressed(ctx: AreaContext, answer: Res, member: string): Res {
  if (!served(answer) || !isJson(answer.body)) return answer;
  const body = { ...answer.body };
  if (ctx.fault('fr-lists-crowded') && Array.isArray(body[member])) body[member] = crowd(member, body[member]);
  if (ctx.fault('fr-lists-shuffled') && Array.isArray(body[member])) body[member] = shuffled(body[member]);
  return { ...answer, status: ctx.fault('fr-gets-203') ? 203 : answer.status, body };
}

export function freedomInstitution(ctx: AreaContext) {
  return async (route: Route, req: Req, next: Next): Promise<Res> => {
    const refused = commonHeadersRefused(ctx, req);
    if (refused) return dressedRefusal(ctx, refused);
    const encoded = ctx.fault('fr-ids-need-encoding');
    if (encoded) idsTakenBack(req);
    let answer = await next();
    if (route.method === 'GET') answer = listDressed(ctx, answer, 'institutionDisclosures');
    // Variant fr-op2-202: the create is accepted (202) with the whole record and where it lives.
    if (route.method === 'POST' && served(answer) && isJson(answer.body) && ctx.fault('fr-op2-202')) {
      const id = String(answer.body.institutionDisclosureId);
      const d = ctx.state.disclosures.get(id);
      const headers = { ...(answer.headers ?? {}), location: `/db-disclosures/v1/institution-disclosures/${id}` };
      answer = { ...answer, status: 202, headers, body: { ...d, ...answer.body } };
    }
    return dressedRefusal(ctx, encoded ? idsGivenOut(answer) : answer);
  };
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The status a create or change carries: the body's member, else the header. */
function statusOf(req: Req): string | undefined {
  const b = isJson(req.body) ? req.body : {};
  return (
    text(b.institutionUserDisclosureStatus) ??
    text(b.institutionDisclosureStatus) ??
    req.headers['institutionuserdisclosurestatus']
  );
}

/**
 * What a strict vendor refuses of a user's acceptance records (400), each where the spec leaves it open:
 * fr-user-status-values ("Other status values: not shown": only the two shown, in any letter case);
 * fr-user-empty-names-refused (an empty institutionDisclosureName); fr-op7-account-type-mandatory (every disclosure
 * of the FI is a multi-statement one: AccountType "mandatory for multi-statement disclosures");
 * fr-op6-op7-customer-mandatory (every user is a business banking one: InstitutionCustomerId "mandatory for
 * business banking requests").
 */
function userRefusal(ctx: AreaContext, route: Route, req: Req): string | undefined {
  const f = ctx.fault;
  const b = isJson(req.body) ? req.body : {};
  const write = route.method === 'POST' || route.method === 'PUT';
  const status = statusOf(req);
  if (write && f('fr-user-status-values') && status !== undefined && !STATUSES.includes(status.toUpperCase()))
    return `status ${status} is not one of ${STATUSES.join(', ')}`;
  const names = [text(b.institutionDisclosureName), req.headers['institutiondisclosurename']];
  if (route.method !== 'GET' && f('fr-user-empty-names-refused') && names.some((n) => n !== undefined && !n.trim()))
    return 'institutionDisclosureName must not be empty';
  if (route.method === 'DELETE' && f('fr-op7-account-type-mandatory') && !req.query.get('AccountType'))
    return 'AccountType is required for this disclosure';
  const business = route.method === 'PUT' || route.method === 'DELETE';
  if (business && f('fr-op6-op7-customer-mandatory') && !req.query.get('InstitutionCustomerId'))
    return 'InstitutionCustomerId is required';
  return undefined;
}

function knownUser(ctx: AreaContext, req: Req): boolean {
  const token = /^Bearer\s+(.+)$/i.exec(req.headers['authorization'] ?? '')?.[1];
  return token !== undefined && ctx.state.bearerUsers.has(token);
}

export function freedomUser(ctx: AreaContext) {
  return async (route: Route, req: Req, next: Next): Promise<Res> => {
    const refused = commonHeadersRefused(ctx, req);
    if (refused) return dressedRefusal(ctx, refused);
    // The credentials are looked at first: a refusal of the request's content is for a known user only.
    const reason = knownUser(ctx, req) ? userRefusal(ctx, route, req) : undefined;
    if (reason) return dressedRefusal(ctx, json(400, { errors: [{ reason }] }));
    // fr-user-status-values: the two values shown are kept in capitals, whatever case they came in.
    if (ctx.fault('fr-user-status-values')) {
      if (isJson(req.body))
        for (const k of ['institutionUserDisclosureStatus', 'institutionDisclosureStatus'])
          if (typeof req.body[k] === 'string') req.body[k] = req.body[k].toUpperCase();
      const h = req.headers['institutionuserdisclosurestatus'];
      if (h !== undefined) req.headers['institutionuserdisclosurestatus'] = h.toUpperCase();
    }
    const encoded = ctx.fault('fr-ids-need-encoding');
    if (encoded) idsTakenBack(req);
    let answer = await next();
    if (route.method === 'GET') answer = listDressed(ctx, answer, 'institutionUserDisclosures');
    return dressedRefusal(ctx, encoded ? idsGivenOut(answer) : answer);
  };
}
