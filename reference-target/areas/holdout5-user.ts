import type { Req, Res, Route } from '../http';
import type { UserDisclosure } from '../state';
import type { Next } from './holdout';
import { isJson, served } from './holdout-disclosures';
import type { AreaContext } from './types';

/** The fifth hold-out set's faults of operations 4–7 (reference-target/faults/holdout5-disclosures.ts). */

type Records = Map<string, UserDisclosure>;
type Json = Record<string, any>;
const copyOf = (m: Records): Records => new Map([...m].map(([k, v]) => [k, { ...v }]));
const keyOf = (u: UserDisclosure) => `${u.institutionUserId}|${u.institutionDisclosureId}|${u.accountId}`;
const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** The status a change or create carries (body first, then the header), as the reference routes read it. */
function askedStatus(req: Req): string | undefined {
  const b = isJson(req.body) ? req.body : {};
  return (
    text(b.institutionDisclosureStatus) ??
    text(b.institutionUserDisclosureStatus) ??
    text(req.headers['institutionuserdisclosurestatus'])
  );
}

/** The record a change addresses: by its id in the path, else by disclosure id (or name) and account. */
function addressed(req: Req, records: Records): UserDisclosure | undefined {
  const id = req.params.institutionUserDisclosureId;
  if (id) return records.get(id);
  const b = isJson(req.body) ? req.body : {};
  const disclosureId = text(b.institutionDisclosureId) ?? text(req.headers['institutiondisclosureid']);
  const name = text(b.institutionDisclosureName) ?? text(req.headers['institutiondisclosurename']);
  const account = text(b.accountId) ?? text(req.headers['accountid']);
  return [...records.values()].find(
    (u) =>
      (disclosureId ? u.institutionDisclosureId === disclosureId : u.institutionDisclosureName === name) &&
      (!account || u.accountId === account),
  );
}

/** The faults of a list's elements; `previous`: the consumer of the list before, where it was another one. */
function rewriteElements(f: AreaContext['fault'], items: unknown[], previous: string | undefined): void {
  const elements = items.filter(isJson);
  for (const e of elements) {
    if (previous !== undefined && f('ho5-op4-user-id-of-last-consumer')) e.institutionUserId = previous;
    if (e.institutionUserDisclosureStatus === 'NOT_ACCEPTED' && f('ho5-op4-not-accepted-drops-user-id'))
      delete e.institutionUserId;
  }
  // A list from the fifth element on built from a summary row without the status.
  for (const e of elements.slice(4))
    if (f('ho4-op4-fifth-record-drops-status')) delete e.institutionUserDisclosureStatus;
  if (elements.length >= 3 && f('ho5-op4-third-record-wrong-name'))
    elements[2]!.institutionDisclosureName = elements[0]!.institutionDisclosureName;
  if (items.length > 5 && f('ho5-op4-sixth-record-dropped')) items.length = 5;
}

/** ho5-op7-delete-not-accepted-kept, and what a delete buries (ho5-op5-recreate-keeps-deleted-status). */
function afterDelete(ctx: AreaContext, buried: Map<string, string>, before: Records): void {
  const { state } = ctx;
  for (const [id, was] of before) {
    if (state.userDisclosures.has(id)) continue;
    buried.set(keyOf(was), was.institutionUserDisclosureStatus);
    // A soft delete that only flags accepted records.
    if (was.institutionUserDisclosureStatus === 'NOT_ACCEPTED' && ctx.fault('ho5-op7-delete-not-accepted-kept'))
      state.userDisclosures.set(id, was);
  }
}

export function holdout5User(ctx: AreaContext) {
  const { state } = ctx;
  const f = ctx.fault;
  const tokenUser = () => [...state.bearerUsers.values()][0]!.userId;
  /** ho5-op5-recreate-keeps-deleted-status: the last status of every record deleted, by user, disclosure, account. */
  const buried = new Map<string, string>();
  /** ho5-op6-second-change-stale: per record, the changes served and the status the last one carried. */
  const changes = new Map<string, { count: number; last: string }>();
  /** ho5-op4-other-consumer-sees-new-records: the records created through the interface. */
  const created = new Set<string>();
  /** ho5-op4-user-id-of-last-consumer. */
  let lastConsumer: string | undefined;

  function afterCreate(before: Records): void {
    for (const [id, r] of state.userDisclosures) {
      if (before.has(id)) continue;
      created.add(id);
      const was = buried.get(keyOf(r));
      if (was !== undefined && f('ho5-op5-recreate-keeps-deleted-status')) r.institutionUserDisclosureStatus = was;
      const mine = [...state.userDisclosures.values()].filter((u) => u.institutionUserId === r.institutionUserId);
      const declined = r.institutionUserDisclosureStatus === 'NOT_ACCEPTED';
      if (mine.length >= 4 && declined && f('ho5-op5-fourth-create-not-accepted-stored-accepted'))
        r.institutionUserDisclosureStatus = 'ACCEPTED';
    }
  }

  function afterChange(req: Req, before: Records): void {
    const asked = askedStatus(req);
    const target = addressed(req, before);
    if (!asked || !target) return;
    const id = target.institutionUserDisclosureId;
    const r = state.userDisclosures.get(id);
    if (!r) return;
    const same = target.institutionUserDisclosureStatus === asked;
    // A toggle endpoint behind the change: the same value twice reads as "switch".
    if (same && f('ho5-op6-same-value-toggles'))
      r.institutionUserDisclosureStatus = asked === 'ACCEPTED' ? 'NOT_ACCEPTED' : 'ACCEPTED';
    const seen = changes.get(id) ?? { count: 0, last: asked };
    seen.count += 1;
    // A write-behind cache that flushes the previous value.
    if (seen.count >= 2 && f('ho5-op6-second-change-stale')) r.institutionUserDisclosureStatus = seen.last;
    seen.last = asked;
    changes.set(id, seen);
    if (f('ho5-op6-put-moves-all-user-records'))
      for (const u of state.userDisclosures.values())
        if (u.institutionUserId === r.institutionUserId) u.institutionUserDisclosureStatus = asked;
  }

  function afterList(req: Req, body: Json): void {
    const consumer = req.query.get('InstitutionConsumerId') ?? '';
    const items = body.institutionUserDisclosures;
    if (!Array.isArray(items)) return;
    if (consumer !== tokenUser() && f('ho5-op4-other-consumer-sees-new-records'))
      for (const id of created) {
        const r = state.userDisclosures.get(id);
        if (r) items.push({ ...r });
      }
    const previous = lastConsumer;
    lastConsumer = consumer;
    rewriteElements(f, items, previous !== consumer ? previous : undefined);
  }

  return async (route: Route, req: Req, next: Next): Promise<Res> => {
    const before = copyOf(state.userDisclosures);
    const answer = await next();
    if (!served(answer)) return answer;
    if (route.method === 'GET' && isJson(answer.body)) afterList(req, answer.body);
    if (route.method === 'POST') afterCreate(before);
    if (route.method === 'PUT') afterChange(req, before);
    if (route.method === 'DELETE') afterDelete(ctx, buried, before);
    return answer;
  };
}
