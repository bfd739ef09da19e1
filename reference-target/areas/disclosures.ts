import { INVALID_JSON, json, noContent, type Req, type Res, type Route } from '../http';
import type { InstitutionDisclosure, UserDisclosure } from '../state';
import type { AreaContext, AreaRoutes } from './types';

const D = '/db-disclosures/v1';
const unauthorized = (): Res => json(401, { error: 'unauthorized' });
const badRequest = (message: string): Res => json(400, { error: 'bad_request', message });

/** Operations 1–7. Success statuses the spec does not show are chosen here as 200/201. */
export function disclosuresArea(ctx: AreaContext): AreaRoutes {
  const { state } = ctx;

  /** Bearer authentication of the area; returns the user the token stands for. */
  function authenticate(req: Req): { institutionId: string; userId: string } | undefined {
    const auth = req.headers['authorization'];
    const fallback = [...state.bearerUsers.values()][0]!;
    if (!auth) return ctx.fault('disc-serves-without-credentials') ? fallback : undefined;
    const m = /^Bearer\s+(.+)$/i.exec(auth);
    if (!m) return undefined;
    const user = state.bearerUsers.get(m[1]!);
    if (!user && ctx.fault('disc-accepts-any-bearer-token')) return fallback;
    return user;
  }

  const guarded = (h: (req: Req, user: { institutionId: string; userId: string }) => Res): Route['handler'] => (req) => {
    const user = authenticate(req);
    if (!user) return unauthorized();
    if (req.body === INVALID_JSON) return badRequest('body is not JSON');
    return h(req, user);
  };

  function listElement(d: InstitutionDisclosure): Record<string, unknown> {
    const e: Record<string, unknown> = { ...d };
    if (ctx.fault('op1-status-as-string') && typeof e.institutionDisclosureStatus === 'boolean') e.institutionDisclosureStatus = String(e.institutionDisclosureStatus);
    if (ctx.fault('op1-element-without-id')) delete e.institutionDisclosureId;
    if (ctx.fault('op1-unlisted-data-type') && e.institutionDisclosureDataType !== undefined) e.institutionDisclosureDataType = 'PDF';
    return e;
  }

  const listDisclosures = guarded(() => {
    if (ctx.fault('op1-html-body')) return { status: 200, headers: { 'content-type': 'text/html' }, body: '<html><body>Disclosures</body></html>' };
    const items = [...state.disclosures.values()].map(listElement);
    return json(200, ctx.fault('op1-envelope-renamed') ? { disclosures: items } : { institutionDisclosures: items });
  });

  const parseStatus = (v: unknown): boolean | undefined => (v === true || v === 'true' ? true : v === false || v === 'false' ? false : undefined);

  const createDisclosure = guarded((req) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const name = (b.institutionDisclosureName as string | undefined) ?? req.headers['institutiondisclosurename'];
    const institutionId = (b.institutionId as string | undefined) ?? req.headers['institutionid'];
    const status = parseStatus(b.institutionDisclosureStatus ?? req.headers['institutiondisclosurestatus']);
    if (typeof name !== 'string' || typeof institutionId !== 'string' || status === undefined) return badRequest('institutionId, institutionDisclosureName and institutionDisclosureStatus are required');
    const id = state.nextId('disc');
    const d: InstitutionDisclosure = { institutionDisclosureId: id, institutionId, institutionDisclosureName: name, institutionDisclosureData: `https://fi.example/disclosures/${id}.pdf`, institutionDisclosureDataType: 'URL', institutionDisclosureStatus: status };
    state.disclosures.set(id, d);
    return json(201, { institutionDisclosureId: id, institutionDisclosureName: name, institutionDisclosureData: d.institutionDisclosureData, institutionDisclosureDataType: d.institutionDisclosureDataType });
  });

  const changeDisclosure = guarded((req) => {
    const id = req.params.institutionDisclosureId!;
    const d = state.disclosures.get(id);
    if (!d) return json(404, { error: 'not_found' });
    const b = (req.body ?? {}) as Record<string, unknown>;
    const name = (b.institutionDisclosureName as string | undefined) ?? req.headers['institutiondisclosurename'];
    const status = parseStatus(b.institutionDisclosureStatus ?? req.headers['institutiondisclosurestatus']);
    if (typeof name !== 'string' || status === undefined) return badRequest('institutionDisclosureName and institutionDisclosureStatus are required');
    d.institutionDisclosureName = name;
    d.institutionDisclosureStatus = status;
    d.institutionDisclosureData ??= `https://fi.example/disclosures/${id}.pdf`;
    d.institutionDisclosureDataType ??= 'URL';
    return json(200, { institutionDisclosureId: id, institutionId: d.institutionId, institutionDisclosureName: d.institutionDisclosureName, institutionDisclosureData: d.institutionDisclosureData, institutionDisclosureDataType: d.institutionDisclosureDataType });
  });

  const userRecords = (userId: string) => [...state.userDisclosures.values()].filter((u) => u.institutionUserId === userId);

  const listUserDisclosures = guarded((req, user) => {
    const consumer = req.query.get('InstitutionConsumerId');
    if (!consumer) return badRequest('InstitutionConsumerId is required');
    if (consumer !== user.userId) return json(200, { institutionUserDisclosures: [] });
    return json(200, { institutionUserDisclosures: userRecords(consumer).map((u) => ({ ...u })) });
  });

  const createUserDisclosure = guarded((req, user) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const status = (b.institutionUserDisclosureStatus as string | undefined) ?? req.headers['institutionuserdisclosurestatus'];
    const name = (b.institutionDisclosureName as string | undefined) ?? req.headers['institutiondisclosurename'];
    const accountId = req.headers['accountid'];
    const disclosureId = req.headers['institutiondisclosureid'];
    if (!status || !name || !accountId || !disclosureId) return badRequest('status, name, AccountId and InstitutionDisclosureId are required');
    const existing = userRecords(user.userId).find((u) => u.institutionDisclosureId === disclosureId && u.accountId === accountId);
    const record: UserDisclosure = existing ?? { institutionId: user.institutionId, institutionUserId: user.userId, institutionUserDisclosureStatus: status, institutionDisclosureName: name, institutionUserDisclosureId: state.nextId('uds'), institutionDisclosureId: disclosureId, accountId };
    record.institutionUserDisclosureStatus = status;
    record.institutionDisclosureName = name;
    state.userDisclosures.set(record.institutionUserDisclosureId, record);
    return noContent();
  });

  /** The collection forms identify the record by disclosure id, or by name and account. */
  function findRecord(req: Req, userId: string): UserDisclosure | undefined {
    if (req.params.institutionUserDisclosureId) {
      const r = state.userDisclosures.get(req.params.institutionUserDisclosureId);
      return r && r.institutionUserId === userId ? r : undefined;
    }
    const b = (req.body ?? {}) as Record<string, unknown>;
    const disclosureId = (b.institutionDisclosureId as string | undefined) ?? req.headers['institutiondisclosureid'];
    const name = (b.institutionDisclosureName as string | undefined) ?? req.headers['institutiondisclosurename'];
    const accountId = (b.accountId as string | undefined) ?? req.headers['accountid'];
    return userRecords(userId).find((u) => (disclosureId ? u.institutionDisclosureId === disclosureId : u.institutionDisclosureName === name) && (!accountId || u.accountId === accountId));
  }

  const changeUserDisclosure = guarded((req, user) => {
    const r = findRecord(req, user.userId);
    if (!r) return json(404, { error: 'not_found' });
    const b = (req.body ?? {}) as Record<string, unknown>;
    const status = (b.institutionDisclosureStatus as string | undefined) ?? (b.institutionUserDisclosureStatus as string | undefined) ?? req.headers['institutionuserdisclosurestatus'];
    if (!status) return badRequest('a status is required');
    r.institutionUserDisclosureStatus = status;
    return noContent();
  });

  const deleteUserDisclosure = guarded((req, user) => {
    const r = findRecord(req, user.userId);
    if (!r) return json(404, { error: 'not_found' });
    state.userDisclosures.delete(r.institutionUserDisclosureId);
    return noContent();
  });

  const listPath = ctx.fault('op1-requires-version-less-path') ? '/db-disclosures/institution-disclosures' : `${D}/institution-disclosures`;
  return {
    base: 'baseUrl',
    routes: [
      { method: 'GET', path: listPath, handler: listDisclosures },
      { method: 'POST', path: `${D}/institution-disclosures`, handler: createDisclosure },
      { method: 'PUT', path: `${D}/institution-disclosures/{institutionDisclosureId}`, handler: changeDisclosure },
      { method: 'GET', path: `${D}/institution-user-disclosures`, handler: listUserDisclosures },
      { method: 'POST', path: `${D}/institution-user-disclosures`, handler: createUserDisclosure },
      { method: 'PUT', path: `${D}/institution-user-disclosures`, handler: changeUserDisclosure },
      { method: 'PUT', path: `${D}/institution-user-disclosures/{institutionUserDisclosureId}`, handler: changeUserDisclosure },
      { method: 'DELETE', path: `${D}/institution-user-disclosures`, handler: deleteUserDisclosure },
      { method: 'DELETE', path: `${D}/institution-user-disclosures/{institutionUserDisclosureId}`, handler: deleteUserDisclosure },
    ],
  };
}
