import { randomUUID } from 'node:crypto';
import { INITIAL_DISCLOSURES } from '../fixtures';
import { dressed, INVALID_JSON, json, noContent, refusals, type Req, type Res, type Route } from '../http';
import type { InstitutionDisclosure, UserDisclosure } from '../state';
import type { AreaContext, AreaRoutes } from './types';
import { laterChangesLost, upsertedDisclosure } from './institution-quirks';
import { bury, recordByPrefix, revivedStatus, upserted } from './user-disclosure-quirks';

const D = '/db-disclosures/v1';

/** Operations 1–7. Success statuses the spec does not show are chosen here as 200/201. */
export function disclosuresArea(ctx: AreaContext): AreaRoutes {
  const { state } = ctx;

  /** Refusals: the reference target's own choice, or (variant disc-refusals-other-shapes) other statuses and bodies. */
  const otherRefusals = ctx.fault('disc-refusals-other-shapes');
  const { badRequest, unauthorized } = refusals(otherRefusals);
  const notFound = (): Res => (otherRefusals ? { status: 404 } : json(404, { error: 'not_found' }));

  /** New ids: the target's own (disc-1, uds-1), or (variant disc-uuid-and-numeric-ids) a UUID and digits. */
  let numericId = 100000;
  const newId = (prefix: 'disc' | 'uds'): string => {
    if (!ctx.fault('disc-uuid-and-numeric-ids')) return state.nextId(prefix);
    return prefix === 'disc' ? randomUUID() : String(++numericId);
  };
  /** A value sent as a header and as a body member: the body's wins, or (variant disc-headers-win) the header's. */
  const either = (bodyValue: unknown, headerValue: string | undefined): unknown =>
    ctx.fault('disc-headers-win') ? (headerValue ?? bodyValue) : (bodyValue ?? headerValue);

  /** Bearer authentication of the area; returns the user the token stands for. */
  function authenticate(req: Req): { institutionId: string; userId: string } | undefined {
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

  /** What an operation documents: header names (exact spelling), query parameters, body members. */
  interface Documented {
    headers?: string[];
    query?: string[];
    body?: string[];
  }
  const COMMON = ['Authorization', 'TransactionId', 'callingAppId'];

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

  const guarded =
    (h: (req: Req, user: { institutionId: string; userId: string }) => Res, doc: Documented = {}): Route['handler'] =>
    (req) => {
      const answer = ((): Res => {
        const user = authenticate(req);
        if (!user) return unauthorized();
        if (req.body === INVALID_JSON) return badRequest('body is not JSON');
        if (ctx.fault('disc-strict-header-names')) {
          const missing = undocumented(req, doc);
          if (missing.length) return badRequest(`missing ${missing.join(', ')}`);
        }
        return h(req, user);
      })();
      if (!ctx.fault('disc-charset-header-case')) return answer;
      // A 204 that still says Content-Type, as some frameworks send it.
      const type: Record<string, string> = answer.status === 204 ? { 'content-type': 'application/json' } : {};
      return dressed(answer, { ...type, 'x-correlation-id': req.headers['transactionid'] ?? 'none' });
    };

  function listElement(d: InstitutionDisclosure): Record<string, unknown> {
    const e: Record<string, unknown> = { ...d };
    if (ctx.fault('op1-status-as-string') && typeof e.institutionDisclosureStatus === 'boolean')
      e.institutionDisclosureStatus = String(e.institutionDisclosureStatus);
    if (ctx.fault('op1-element-without-id')) delete e.institutionDisclosureId;
    if (ctx.fault('op1-unlisted-data-type') && e.institutionDisclosureDataType !== undefined)
      e.institutionDisclosureDataType = 'PDF';
    const [first, ...rest] = INITIAL_DISCLOSURES;
    const [beforeLast, last] = rest.slice(-2);
    if (ctx.fault('op1-id-reused') && e.institutionDisclosureId === last?.institutionDisclosureId)
      e.institutionDisclosureId = beforeLast?.institutionDisclosureId;
    if (ctx.fault('op1-data-not-url') && e.institutionDisclosureId === first?.institutionDisclosureId)
      e.institutionDisclosureData = 'You agree to receive the disclosures of the FI electronically.';
    if (ctx.fault('op1-extra-members-reordered'))
      return Object.fromEntries(Object.entries({ ...e, lastModified: '2026-01-02T03:04:05Z', version: 3 }).reverse());
    return e;
  }

  const listDisclosures = guarded(() => {
    if (ctx.fault('op1-html-body'))
      return { status: 200, headers: { 'content-type': 'text/html' }, body: '<html><body>Disclosures</body></html>' };
    const items = [...state.disclosures.values()].map(listElement);
    if (ctx.fault('op1-extra-members-reordered'))
      return json(200, { totalCount: items.length, institutionDisclosures: items.reverse() });
    return json(200, ctx.fault('op1-envelope-renamed') ? { disclosures: items } : { institutionDisclosures: items });
  }, {});

  const parseStatus = (v: unknown): boolean | undefined =>
    v === true || v === 'true' ? true : v === false || v === 'false' ? false : undefined;

  const createDisclosure = guarded(
    (req, user) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      const name = either(b.institutionDisclosureName, req.headers['institutiondisclosurename']);
      const institutionId = either(b.institutionId, req.headers['institutionid']);
      const status = parseStatus(either(b.institutionDisclosureStatus, req.headers['institutiondisclosurestatus']));
      if (typeof name !== 'string' || typeof institutionId !== 'string' || status === undefined)
        return badRequest('institutionId, institutionDisclosureName and ' + 'institutionDisclosureStatus are required');
      if (institutionId !== user.institutionId && ctx.fault('op2-op3-institution-and-id-checked'))
        return json(403, { error: 'forbidden', message: 'the token does not stand for this institution' });
      const reused = ctx.fault('op2-reuses-id') ? INITIAL_DISCLOSURES.at(-1)?.institutionDisclosureId : undefined;
      const id = reused ?? newId('disc');
      const d: InstitutionDisclosure = {
        institutionDisclosureId: id,
        institutionId,
        institutionDisclosureName: name,
        institutionDisclosureData: `https://fi.example/disclosures/${id}.pdf`,
        institutionDisclosureDataType: 'URL',
        institutionDisclosureStatus: status,
      };
      if (!ctx.fault('op2-not-persisted')) state.disclosures.set(id, d);
      const answer: Record<string, unknown> = {
        institutionDisclosureId: id,
        institutionDisclosureName: name,
        institutionDisclosureData: d.institutionDisclosureData,
        institutionDisclosureDataType: d.institutionDisclosureDataType,
      };
      if (ctx.fault('op2-response-without-data')) delete answer.institutionDisclosureData;
      if (ctx.fault('op2-response-name-cut')) answer.institutionDisclosureName = name.slice(0, 16);
      if (ctx.fault('op2-data-as-object')) answer.institutionDisclosureData = { url: d.institutionDisclosureData };
      if (ctx.fault('op2-answers-200-full-record'))
        return json(200, { ...answer, institutionId, institutionDisclosureStatus: status, createdAt: new Date() });
      return json(201, answer);
    },
    {
      headers: ['InstitutionId', 'InstitutionDisclosureName', 'InstitutionDisclosureStatus'],
      body: ['institutionId', 'institutionDisclosureName', 'institutionDisclosureStatus'],
    },
  );

  const lost = laterChangesLost(ctx);
  const changeDisclosure = guarded(
    (req, user) => {
      const id = req.params.institutionDisclosureId!;
      const d = state.disclosures.get(id) ?? upsertedDisclosure(ctx, id, req.body, user.institutionId);
      if (!d) return notFound();
      const b = (req.body ?? {}) as Record<string, unknown>;
      if (ctx.fault('op2-op3-institution-and-id-checked')) {
        const institutionId = either(b.institutionId, req.headers['institutionid']);
        if (institutionId !== undefined && institutionId !== user.institutionId)
          return json(403, { error: 'forbidden', message: 'the token does not stand for this institution' });
        if (b.institutionDisclosureId !== undefined && b.institutionDisclosureId !== id)
          return badRequest('institutionDisclosureId of the body is not the one of the path');
      }
      const name = either(b.institutionDisclosureName, req.headers['institutiondisclosurename']);
      const status = parseStatus(either(b.institutionDisclosureStatus, req.headers['institutiondisclosurestatus']));
      if (typeof name !== 'string' || status === undefined)
        return badRequest('institutionDisclosureName and ' + 'institutionDisclosureStatus are required');
      const statusBefore = d.institutionDisclosureStatus;
      const stored = ctx.fault('op3-not-stored') || lost(id) ? { ...d } : d;
      stored.institutionDisclosureName = name;
      stored.institutionDisclosureStatus = status;
      stored.institutionDisclosureData ??= `https://fi.example/disclosures/${id}.pdf`;
      stored.institutionDisclosureDataType ??= 'URL';
      const answer: Record<string, unknown> = {
        institutionDisclosureId: ctx.fault('op3-response-other-id') ? newId('disc') : id,
        institutionId: stored.institutionId,
        institutionDisclosureName: stored.institutionDisclosureName,
        institutionDisclosureData: stored.institutionDisclosureData,
        institutionDisclosureDataType: stored.institutionDisclosureDataType,
      };
      if (ctx.fault('op3-response-without-institution-id')) delete answer.institutionId;
      if (ctx.fault('op3-response-stale-status')) answer.institutionDisclosureStatus = statusBefore ?? !status;
      if (ctx.fault('op3-answers-202')) return json(202, { ...answer, institutionDisclosureStatus: status });
      return json(200, answer);
    },
    {
      headers: ['InstitutionId', 'InstitutionDisclosureName', 'InstitutionDisclosureStatus'],
      body: ['institutionDisclosureId', 'institutionId', 'institutionDisclosureName', 'institutionDisclosureStatus'],
    },
  );

  const userRecords = (userId: string) =>
    [...state.userDisclosures.values()].filter((u) => u.institutionUserId === userId);

  function userListElement(u: UserDisclosure): Record<string, unknown> {
    const e: Record<string, unknown> = { ...u };
    if (ctx.fault('op4-omits-user-disclosure-id')) delete e.institutionUserDisclosureId;
    if (ctx.fault('op4-user-id-as-number')) e.institutionUserId = 42;
    if (ctx.fault('op4-element-without-user-id')) delete e.institutionUserId;
    if (ctx.fault('op4-own-user-ids') && typeof e.institutionUserId === 'string')
      e.institutionUserId = `user-${[...e.institutionUserId].reduce((n, c) => (n * 31 + c.charCodeAt(0)) % 100000, 7)}`;
    if (ctx.fault('op4-newest-first-extra-members')) e.lastUpdated = '2026-01-02T03:04:05Z';
    if (ctx.fault('op4-documented-members-only')) {
      const { institutionId, institutionUserId, institutionUserDisclosureStatus, institutionDisclosureName } = e;
      return { institutionId, institutionUserId, institutionUserDisclosureStatus, institutionDisclosureName };
    }
    return e;
  }

  const listUserDisclosures = guarded(
    (req, user) => {
      if (ctx.fault('op4-refuses-valid-token'))
        return json(403, { error: 'forbidden', message: 'the token is not allowed here' });
      const consumer = req.query.get(
        ctx.fault('op4-requires-other-query-name') ? 'consumerId' : 'InstitutionConsumerId',
      );
      if (!consumer) return badRequest('InstitutionConsumerId is required');
      let records: UserDisclosure[] = [];
      if (ctx.fault('op4-ignores-consumer-filter')) records = [...state.userDisclosures.values()];
      else if (consumer === user.userId || ctx.fault('op4-answers-for-token-user')) records = userRecords(user.userId);
      else if (ctx.fault('op4-refuses-other-consumer'))
        return json(403, { error: 'forbidden', message: 'the token does not stand for this consumer' });
      else if (state.refusesOtherKnownUsers && userRecords(consumer).length > 0)
        return json(403, { error: 'forbidden' });
      const items = records.map(userListElement);
      if (ctx.fault('op4-unlisted-status') && consumer === user.userId)
        items.push({
          institutionId: user.institutionId,
          institutionUserId: user.userId,
          institutionUserDisclosureStatus: 'PENDING_REVIEW',
          institutionDisclosureName: 'Legacy Consent',
        });
      if (ctx.fault('op4-newest-first-extra-members'))
        return json(200, { count: items.length, institutionUserDisclosures: items.reverse() });
      return json(
        200,
        ctx.fault('op4-envelope-renamed') ? { userDisclosures: items } : { institutionUserDisclosures: items },
        ctx.fault('op4-json-labelled-html') ? { 'content-type': 'text/html; charset=utf-8' } : {},
      );
    },
    { query: ['InstitutionConsumerId'] },
  );

  const createUserDisclosure = guarded(
    (req, user) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      const status = either(
        b.institutionUserDisclosureStatus,
        req.headers['institutionuserdisclosurestatus'],
      ) as string;
      const name = either(b.institutionDisclosureName, req.headers['institutiondisclosurename']) as string;
      const accountId = req.headers['accountid'];
      const disclosureId =
        req.headers[ctx.fault('op5-requires-other-header-name') ? 'disclosureid' : 'institutiondisclosureid'];
      if (!status || !name || !accountId || !disclosureId)
        return badRequest('status, name, AccountId and ' + 'InstitutionDisclosureId are required');
      const unknownDisclosure = state.refusesUnknownDisclosures && !state.disclosures.has(disclosureId);
      if (unknownDisclosure) return json(404, { error: 'not_found', message: 'no such disclosure' });
      const existing = userRecords(user.userId).find(
        (u) => u.institutionDisclosureId === disclosureId && u.accountId === accountId,
      );
      if (existing && ctx.fault('op5-duplicate-conflict'))
        return json(409, { error: 'conflict', message: 'the user already has a record for this disclosure' });
      const record: UserDisclosure = existing ?? {
        institutionId: user.institutionId,
        institutionUserId: user.userId,
        institutionUserDisclosureStatus: status,
        institutionDisclosureName: name,
        institutionUserDisclosureId: newId('uds'),
        institutionDisclosureId: disclosureId,
        accountId,
      };
      record.institutionUserDisclosureStatus = status;
      const revived = !existing && ctx.fault('op5-revives-deleted-record') ? revivedStatus(state, record) : undefined;
      if (revived) record.institutionUserDisclosureStatus = revived;
      record.institutionDisclosureName = name;
      if (!ctx.fault('op5-not-persisted')) state.userDisclosures.set(record.institutionUserDisclosureId, record);
      return ctx.fault('op5-200-with-body') ? json(200, { result: 'created' }) : noContent();
    },
    {
      headers: [
        'InstitutionUserDisclosureStatus',
        'InstitutionDisclosureName',
        'AccountId',
        'InstitutionDisclosureId',
        'InstitutionUserDisclosureStatusUpdateDateTime',
      ],
      body: ['institutionUserDisclosureStatus', 'institutionDisclosureName'],
    },
  );

  /** The collection forms identify the record by disclosure id, or by name and account. */
  function findRecord(req: Req, userId: string): UserDisclosure | undefined {
    const id = req.params.institutionUserDisclosureId;
    if (id) {
      const prefixed = req.method === 'DELETE' && ctx.fault('op7-by-id-reads-a-prefix');
      const r = state.userDisclosures.get(id) ?? (prefixed ? recordByPrefix(state, id, userId) : undefined);
      return r && r.institutionUserId === userId ? r : undefined;
    }
    const b = (req.body ?? {}) as Record<string, unknown>;
    const disclosureId = (b.institutionDisclosureId as string | undefined) ?? req.headers['institutiondisclosureid'];
    const name = (b.institutionDisclosureName as string | undefined) ?? req.headers['institutiondisclosurename'];
    const accountId = (b.accountId as string | undefined) ?? req.headers['accountid'];
    return userRecords(userId).find(
      (u) =>
        (disclosureId ? u.institutionDisclosureId === disclosureId : u.institutionDisclosureName === name) &&
        (!accountId || u.accountId === accountId),
    );
  }

  /** Variant disc-unknown-ids-no-content: a write by an id no record has answers 204 and changes nothing. */
  const unknownId = (req: Req) => !!req.params.institutionUserDisclosureId && ctx.fault('disc-unknown-ids-no-content');
  /** A target that knows its business customers (fixture set `retail`: none) finds no record for another. */
  const unknownCustomer = (req: Req): Res | undefined => {
    const customer = req.query.get('InstitutionCustomerId');
    if (customer === null || !state.businessCustomerIds || state.businessCustomerIds.has(customer)) return undefined;
    return json(404, { error: 'not_found', message: 'no such institution customer' });
  };

  const changeUserDisclosure = guarded(
    (req, user) => {
      const unknown = unknownCustomer(req);
      if (unknown) return unknown;
      const b = (req.body ?? {}) as Record<string, unknown>;
      const r =
        findRecord(req, user.userId) ??
        (ctx.fault('disc-lenient-writes') ? upserted(state, req, user, () => newId('uds'), either) : undefined);
      if (!r) return unknownId(req) ? noContent() : notFound();
      const status = either(
        b.institutionDisclosureStatus ?? b.institutionUserDisclosureStatus,
        req.headers['institutionuserdisclosurestatus'],
      ) as string;
      if (!status) return badRequest('a status is required');
      if (!ctx.fault('op6-not-stored')) r.institutionUserDisclosureStatus = status;
      // A forgotten condition: every record of the user on that account gets the status.
      if (ctx.fault('op6-changes-every-record'))
        for (const u of userRecords(user.userId))
          if (u.accountId === r.accountId) u.institutionUserDisclosureStatus = status;
      return ctx.fault('op6-200-with-body') ? json(200, { result: 'changed' }) : noContent();
    },
    {
      headers: ['InstitutionDisclosureId', 'InstitutionUserDisclosureStatus', 'InstitutionDisclosureName'],
      body: ['institutionDisclosureId', 'institutionDisclosureName', 'institutionDisclosureStatus'],
    },
  );

  const deleteUserDisclosure = guarded(
    (req, user) => {
      const unknown = unknownCustomer(req);
      if (unknown) return unknown;
      const r = findRecord(req, user.userId);
      if (!r) return ctx.fault('disc-lenient-writes') || unknownId(req) ? noContent() : notFound();
      if (ctx.fault('op5-revives-deleted-record')) bury(state, r);
      if (!ctx.fault('op7-keeps-record')) state.userDisclosures.delete(r.institutionUserDisclosureId);
      // A purge run with every delete: the user's declined records on that account go too.
      if (ctx.fault('op7-deletes-declined-records'))
        for (const u of userRecords(user.userId))
          if (u.accountId === r.accountId && u.institutionUserDisclosureStatus === 'NOT_ACCEPTED')
            state.userDisclosures.delete(u.institutionUserDisclosureId);
      return ctx.fault('op7-200-with-body') ? json(200, { result: 'deleted' }) : noContent();
    },
    { headers: ['InstitutionUserDisclosureStatus', 'AccountId'], body: ['institutionDisclosureName', 'accountId'] },
  );

  /** Faults that move or remove a route: the documented path answers 404 or 405. */
  const versionless = (name: string, path: string) => (ctx.fault(name) ? path.replace(D, '/db-disclosures') : path);
  const idForms = !ctx.fault('disc-user-id-forms-missing');
  const routes: Array<Route | false> = [
    {
      method: 'GET',
      path: versionless('op1-requires-version-less-path', `${D}/institution-disclosures`),
      handler: listDisclosures,
    },
    {
      method: 'POST',
      path: versionless('op2-requires-version-less-path', `${D}/institution-disclosures`),
      handler: createDisclosure,
    },
    {
      method: 'PUT',
      path: versionless('op3-requires-version-less-path', `${D}/institution-disclosures/{institutionDisclosureId}`),
      handler: changeDisclosure,
    },
    { method: 'GET', path: `${D}/institution-user-disclosures`, handler: listUserDisclosures },
    { method: 'POST', path: `${D}/institution-user-disclosures`, handler: createUserDisclosure },
    !ctx.fault('op6-collection-form-missing') && {
      method: 'PUT',
      path: `${D}/institution-user-disclosures`,
      handler: changeUserDisclosure,
    },
    idForms && {
      method: 'PUT',
      path: `${D}/institution-user-disclosures/{institutionUserDisclosureId}`,
      handler: changeUserDisclosure,
    },
    !ctx.fault('op7-collection-form-missing') && {
      method: 'DELETE',
      path: `${D}/institution-user-disclosures`,
      handler: deleteUserDisclosure,
    },
    idForms && {
      method: 'DELETE',
      path: `${D}/institution-user-disclosures/{institutionUserDisclosureId}`,
      handler: deleteUserDisclosure,
    },
  ];
  const served = routes.filter((r): r is Route => r !== false);
  // Variant disc-also-versionless: each operation also served without the v1 segment.
  const older = served
    .filter((r) => r.path.startsWith(D))
    .map((r) => ({ ...r, path: r.path.replace(D, '/db-disclosures') }));
  return { base: 'baseUrl', routes: ctx.fault('disc-also-versionless') ? [...served, ...older] : served };
}
