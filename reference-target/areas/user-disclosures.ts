import { json, noContent, type Req, type Res } from '../http';
import type { UserDisclosure } from '../state';
import type { DisclosuresKit, DisclosuresUser } from './disclosures-kit';
import { bury, recordByPrefix, revivedStatus, upserted } from './user-disclosure-quirks';

/* Operations 4–7, a user's acceptance records: their handlers, with the faults and variants each can show. */

export function userDisclosureHandlers(k: DisclosuresKit) {
  return {
    listUserDisclosures: k.guarded((req, user) => listUserDisclosures(k, req, user), {
      query: ['InstitutionConsumerId'],
    }),
    createUserDisclosure: k.guarded((req, user) => createUserDisclosure(k, req, user), {
      headers: [
        'InstitutionUserDisclosureStatus',
        'InstitutionDisclosureName',
        'AccountId',
        'InstitutionDisclosureId',
        'InstitutionUserDisclosureStatusUpdateDateTime',
      ],
      body: ['institutionUserDisclosureStatus', 'institutionDisclosureName'],
    }),
    changeUserDisclosure: k.guarded((req, user) => changeUserDisclosure(k, req, user), {
      headers: ['InstitutionDisclosureId', 'InstitutionUserDisclosureStatus', 'InstitutionDisclosureName'],
      body: ['institutionDisclosureId', 'institutionDisclosureName', 'institutionDisclosureStatus'],
    }),
    deleteUserDisclosure: k.guarded((req, user) => deleteUserDisclosure(k, req, user), {
      headers: ['InstitutionUserDisclosureStatus', 'AccountId'],
      body: ['institutionDisclosureName', 'accountId'],
    }),
  };
}

function userListElement(k: DisclosuresKit, u: UserDisclosure): Record<string, unknown> {
  const { ctx } = k;
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

function listUserDisclosures(k: DisclosuresKit, req: Req, user: DisclosuresUser): Res {
  const { ctx, state } = k;
  if (ctx.fault('op4-refuses-valid-token'))
    return json(403, { error: 'forbidden', message: 'the token is not allowed here' });
  const consumer = req.query.get(ctx.fault('op4-requires-other-query-name') ? 'consumerId' : 'InstitutionConsumerId');
  if (!consumer) return k.badRequest('InstitutionConsumerId is required');
  let records: UserDisclosure[] = [];
  if (ctx.fault('op4-ignores-consumer-filter')) records = [...state.userDisclosures.values()];
  else if (consumer === user.userId || ctx.fault('op4-answers-for-token-user')) records = k.userRecords(user.userId);
  else if (ctx.fault('op4-refuses-other-consumer'))
    return json(403, { error: 'forbidden', message: 'the token does not stand for this consumer' });
  else if (state.refusesOtherKnownUsers && k.userRecords(consumer).length > 0) return json(403, { error: 'forbidden' });
  const items = records.map((u) => userListElement(k, u));
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
}

function createUserDisclosure(k: DisclosuresKit, req: Req, user: DisclosuresUser): Res {
  const { ctx, state, either } = k;
  const b = (req.body ?? {}) as Record<string, unknown>;
  const status = either(b.institutionUserDisclosureStatus, req.headers['institutionuserdisclosurestatus']) as string;
  const name = either(b.institutionDisclosureName, req.headers['institutiondisclosurename']) as string;
  const accountId = req.headers['accountid'];
  const disclosureId =
    req.headers[ctx.fault('op5-requires-other-header-name') ? 'disclosureid' : 'institutiondisclosureid'];
  if (!status || !name || !accountId || !disclosureId)
    return k.badRequest('status, name, AccountId and ' + 'InstitutionDisclosureId are required');
  const unknownDisclosure = state.refusesUnknownDisclosures && !state.disclosures.has(disclosureId);
  if (unknownDisclosure) return json(404, { error: 'not_found', message: 'no such disclosure' });
  const existing = k
    .userRecords(user.userId)
    .find((u) => u.institutionDisclosureId === disclosureId && u.accountId === accountId);
  if (existing && ctx.fault('op5-duplicate-conflict'))
    return json(409, { error: 'conflict', message: 'the user already has a record for this disclosure' });
  const record: UserDisclosure = existing ?? {
    institutionId: user.institutionId,
    institutionUserId: user.userId,
    institutionUserDisclosureStatus: status,
    institutionDisclosureName: name,
    institutionUserDisclosureId: k.newId('uds'),
    institutionDisclosureId: disclosureId,
    accountId,
  };
  record.institutionUserDisclosureStatus = status;
  const revived = !existing && ctx.fault('op5-revives-deleted-record') ? revivedStatus(state, record) : undefined;
  if (revived) record.institutionUserDisclosureStatus = revived;
  record.institutionDisclosureName = name;
  if (!ctx.fault('op5-not-persisted')) state.userDisclosures.set(record.institutionUserDisclosureId, record);
  return ctx.fault('op5-200-with-body') ? json(200, { result: 'created' }) : noContent();
}

/** The collection forms identify the record by disclosure id, or by name and account. */
function findRecord(k: DisclosuresKit, req: Req, userId: string): UserDisclosure | undefined {
  const id = req.params.institutionUserDisclosureId;
  if (id) {
    const prefixed = req.method === 'DELETE' && k.ctx.fault('op7-by-id-reads-a-prefix');
    const r = k.state.userDisclosures.get(id) ?? (prefixed ? recordByPrefix(k.state, id, userId) : undefined);
    return r && r.institutionUserId === userId ? r : undefined;
  }
  const b = (req.body ?? {}) as Record<string, unknown>;
  const disclosureId = (b.institutionDisclosureId as string | undefined) ?? req.headers['institutiondisclosureid'];
  const name = (b.institutionDisclosureName as string | undefined) ?? req.headers['institutiondisclosurename'];
  const accountId = (b.accountId as string | undefined) ?? req.headers['accountid'];
  return k
    .userRecords(userId)
    .find(
      (u) =>
        (disclosureId ? u.institutionDisclosureId === disclosureId : u.institutionDisclosureName === name) &&
        (!accountId || u.accountId === accountId),
    );
}

/** Variant disc-unknown-ids-no-content: a write by an id no record has answers 204 and changes nothing. */
const unknownId = (k: DisclosuresKit, req: Req) =>
  !!req.params.institutionUserDisclosureId && k.ctx.fault('disc-unknown-ids-no-content');

/** A target that knows its business customers (fixture set `retail`: none) finds no record for another. */
function unknownCustomer(k: DisclosuresKit, req: Req): Res | undefined {
  const customer = req.query.get('InstitutionCustomerId');
  if (customer === null || !k.state.businessCustomerIds || k.state.businessCustomerIds.has(customer)) return undefined;
  return json(404, { error: 'not_found', message: 'no such institution customer' });
}

function changeUserDisclosure(k: DisclosuresKit, req: Req, user: DisclosuresUser): Res {
  const { ctx, state, either } = k;
  const unknown = unknownCustomer(k, req);
  if (unknown) return unknown;
  const b = (req.body ?? {}) as Record<string, unknown>;
  const r =
    findRecord(k, req, user.userId) ??
    (ctx.fault('disc-lenient-writes') ? upserted(state, req, user, () => k.newId('uds'), either) : undefined);
  if (!r) return unknownId(k, req) ? noContent() : k.notFound();
  const status = either(
    b.institutionDisclosureStatus ?? b.institutionUserDisclosureStatus,
    req.headers['institutionuserdisclosurestatus'],
  ) as string;
  if (!status) return k.badRequest('a status is required');
  if (!ctx.fault('op6-not-stored')) r.institutionUserDisclosureStatus = status;
  // A forgotten condition: every record of the user on that account gets the status.
  if (ctx.fault('op6-changes-every-record'))
    for (const u of k.userRecords(user.userId))
      if (u.accountId === r.accountId) u.institutionUserDisclosureStatus = status;
  return ctx.fault('op6-200-with-body') ? json(200, { result: 'changed' }) : noContent();
}

function deleteUserDisclosure(k: DisclosuresKit, req: Req, user: DisclosuresUser): Res {
  const { ctx, state } = k;
  const unknown = unknownCustomer(k, req);
  if (unknown) return unknown;
  const r = findRecord(k, req, user.userId);
  if (!r) return ctx.fault('disc-lenient-writes') || unknownId(k, req) ? noContent() : k.notFound();
  if (ctx.fault('op5-revives-deleted-record')) bury(state, r);
  if (!ctx.fault('op7-keeps-record')) state.userDisclosures.delete(r.institutionUserDisclosureId);
  // A purge run with every delete: the user's declined records on that account go too.
  if (ctx.fault('op7-deletes-declined-records'))
    for (const u of k.userRecords(user.userId))
      if (u.accountId === r.accountId && u.institutionUserDisclosureStatus === 'NOT_ACCEPTED')
        state.userDisclosures.delete(u.institutionUserDisclosureId);
  return ctx.fault('op7-200-with-body') ? json(200, { result: 'deleted' }) : noContent();
}
