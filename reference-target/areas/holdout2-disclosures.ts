import { INITIAL_DISCLOSURES } from '../fixtures';
import { json, type Req, type Res, type Route } from '../http';
import type { InstitutionDisclosure, ReferenceState, UserDisclosure } from '../state';
import type { Next } from './holdout';
import { isJson, served } from './holdout-disclosures';
import type { AreaContext } from './types';

/** The second hold-out set's faults of operations 1–7 (reference-target/faults/holdout2-disclosures.ts). */

const initialIds = new Set(INITIAL_DISCLOSURES.map((d) => d.institutionDisclosureId));
const copyOf = <T extends object>(m: Map<string, T>) => new Map([...m].map(([k, v]) => [k, { ...v }]));

export function holdout2Institution(ctx: AreaContext) {
  const { state } = ctx;
  const f = ctx.fault;
  /** ho2-op3-second-change-ignored: how many changes each disclosure took. */
  const changes = new Map<string, number>();

  function afterCreate(body: Record<string, any>, before: Map<string, InstitutionDisclosure>): void {
    const id = body.institutionDisclosureId;
    const d = typeof id === 'string' ? state.disclosures.get(id) : undefined;
    if (!d) return;
    if (f('ho2-op2-false-stored-true') && d.institutionDisclosureStatus === false) d.institutionDisclosureStatus = true;
  }

  function afterChange(id: string, body: Record<string, any>, before: Map<string, InstitutionDisclosure>): void {
    const d = state.disclosures.get(id);
    const old = before.get(id);
    if (!d) return;
    if (f('ho2-op3-false-ignored') && d.institutionDisclosureStatus === false && old)
      d.institutionDisclosureStatus = old.institutionDisclosureStatus;
    const n = (changes.get(id) ?? 0) + 1;
    changes.set(id, n);
    if (f('ho2-op3-second-change-ignored') && n >= 2 && old) Object.assign(d, old);
    // An UPDATE … WHERE id LIKE 'id%': every disclosure whose id the path id begins takes the change too.
    if (f('ho2-op3-changes-prefix-siblings'))
      for (const o of state.disclosures.values())
        if (o !== d && o.institutionDisclosureId.startsWith(id)) {
          o.institutionDisclosureName = d.institutionDisclosureName;
          o.institutionDisclosureStatus = d.institutionDisclosureStatus;
        }
    if (f('ho2-op3-answers-old-name') && old) body.institutionDisclosureName = old.institutionDisclosureName;
  }

  return async (route: Route, req: Req, next: Next): Promise<Res> => {
    const before = copyOf(state.disclosures);
    const id = req.params.institutionDisclosureId;
    // Variant op3-refuses-change-of-initial: the disclosures on record at the start are not the clients' to change.
    if (route.method === 'PUT' && id && initialIds.has(id) && f('op3-refuses-change-of-initial'))
      return json(403, { error: 'forbidden', message: 'this disclosure is managed by the institution' });
    const answer = await next();
    if (!served(answer) || !isJson(answer.body)) return answer;
    const body = answer.body;
    if (route.method === 'GET' && Array.isArray(body.institutionDisclosures) && f('ho2-op1-false-as-string'))
      for (const e of (body.institutionDisclosures as unknown[]).filter(isJson))
        if (e.institutionDisclosureStatus === false) e.institutionDisclosureStatus = 'false';
    if (route.method === 'POST') afterCreate(body, before);
    if (route.method === 'PUT' && id) afterChange(id, body, before);
    return answer;
  };
}

/** A user's acceptance record, as its key: disclosure and account. */
const keyOf = (u: UserDisclosure) => `${u.institutionUserId}|${u.institutionDisclosureId}|${u.accountId}`;

/** The statuses that differ from `before` (new records included). */
const movedSince = (state: ReferenceState, before: Map<string, UserDisclosure>) =>
  [...state.userDisclosures.values()].filter(
    (u) =>
      before.get(u.institutionUserDisclosureId)?.institutionUserDisclosureStatus !== u.institutionUserDisclosureStatus,
  );

/** The faults of operations 5–7, after the route served the write (`before`: the records before it). */
class UserFaults {
  /** ho2-op5-recreate-after-delete-lost: the keys of the records deleted (a soft delete never purged). */
  private readonly buried = new Set<string>();
  private creates = 0;
  constructor(private readonly ctx: AreaContext) {}

  recordsOf(userId: string | undefined): UserDisclosure[] {
    return [...this.ctx.state.userDisclosures.values()].filter((u) => u.institutionUserId === userId);
  }

  afterCreate(before: Map<string, UserDisclosure>): Res | undefined {
    const { state, fault: f } = this.ctx;
    const created = [...state.userDisclosures.values()].filter((u) => !before.has(u.institutionUserDisclosureId));
    if (f('ho2-op5-not-accepted-as-accepted'))
      for (const u of movedSince(state, before))
        if (u.institutionUserDisclosureStatus === 'NOT_ACCEPTED') u.institutionUserDisclosureStatus = 'ACCEPTED';
    if (f('ho2-op5-recreate-after-delete-lost'))
      for (const u of created)
        if (this.buried.has(keyOf(u))) state.userDisclosures.delete(u.institutionUserDisclosureId);
    this.creates += 1;
    if (f('ho2-op5-201-after-first') && this.creates >= 2) return json(201, { result: 'created' });
    return undefined;
  }

  afterChange(req: Req, before: Map<string, UserDisclosure>): Res | undefined {
    const { state, fault: f } = this.ctx;
    const moved = movedSince(state, before);
    const was = (u: UserDisclosure) => before.get(u.institutionUserDisclosureId)!.institutionUserDisclosureStatus;
    if (f('ho2-op6-accepted-ignored'))
      for (const u of moved)
        if (u.institutionUserDisclosureStatus === 'ACCEPTED' && was(u) === 'NOT_ACCEPTED')
          u.institutionUserDisclosureStatus = was(u);
    const pathId = req.params.institutionUserDisclosureId;
    const r = pathId ? state.userDisclosures.get(pathId) : undefined;
    const newest = this.recordsOf(r?.institutionUserId).at(-1);
    if (f('ho2-op6-path-changes-newest') && r && newest && newest !== r && moved.includes(r)) {
      newest.institutionUserDisclosureStatus = r.institutionUserDisclosureStatus;
      r.institutionUserDisclosureStatus = was(r);
    }
    return undefined;
  }

  afterDelete(before: Map<string, UserDisclosure>): Res | undefined {
    const { state, fault: f } = this.ctx;
    const removed = [...before.values()].filter((u) => !state.userDisclosures.has(u.institutionUserDisclosureId));
    for (const u of removed) this.buried.add(keyOf(u));
    if (f('ho2-op7-200-for-not-accepted') && removed.some((u) => u.institutionUserDisclosureStatus === 'NOT_ACCEPTED'))
      return json(200, { deleted: removed.length });
    return undefined;
  }
}

export function holdout2User(ctx: AreaContext) {
  const { state } = ctx;
  const faults = new UserFaults(ctx);
  const userOf = (req: Req) => {
    const token = /^Bearer\s+(.+)$/i.exec(req.headers['authorization'] ?? '')?.[1];
    return token ? state.bearerUsers.get(token)?.userId : undefined;
  };
  return async (route: Route, req: Req, next: Next): Promise<Res> => {
    const bare = route.method === 'PUT' && !req.params.institutionUserDisclosureId;
    if (bare && ctx.fault('ho2-op6-bare-form-404-with-two') && faults.recordsOf(userOf(req)).length >= 2)
      return json(404, { error: 'not_found', message: 'more than one record: name it in the path' });
    const before = copyOf(state.userDisclosures);
    const answer = await next();
    if (!served(answer)) return answer;
    const changed =
      route.method === 'POST'
        ? faults.afterCreate(before)
        : route.method === 'PUT'
          ? faults.afterChange(req, before)
          : route.method === 'DELETE'
            ? faults.afterDelete(before)
            : undefined;
    return changed ?? answer;
  };
}
