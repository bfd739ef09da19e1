import { INITIAL_DISCLOSURES } from '../fixtures';
import { json, type Req, type Res, type Route } from '../http';
import type { UserDisclosure } from '../state';
import type { Next } from './holdout';
import type { AreaContext } from './types';

/** The hold-out faults of operations 1–7 (reference-target/faults/holdout-disclosures.ts). */

type Json = Record<string, any>;
export const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const served = (r: Res) => r.status >= 200 && r.status < 300;
const initialIds = new Set(INITIAL_DISCLOSURES.map((d) => d.institutionDisclosureId));

export function holdoutInstitution(ctx: AreaContext) {
  const { state } = ctx;
  const f = ctx.fault;

  /** ho-op3-by-id-reads-a-prefix: a change of an id no disclosure has goes to the longest id it begins with. */
  async function byPrefix(req: Req, next: Next): Promise<Res | undefined> {
    const id = req.params.institutionDisclosureId!;
    if (!f('ho-op3-by-id-reads-a-prefix') || state.disclosures.has(id)) return undefined;
    const hit = [...state.disclosures.keys()].filter((k) => id.startsWith(k)).sort((a, b) => b.length - a.length)[0];
    if (!hit) return undefined;
    req.params.institutionDisclosureId = hit;
    const answer = await next();
    // The answer echoes the id of the path, as sent.
    if (served(answer) && isJson(answer.body)) answer.body.institutionDisclosureId = id;
    return answer;
  }

  /** Variant ho-op1-omits-optional-after-change: whether a change was served. */
  let changed = false;

  return async (route: Route, req: Req, next: Next): Promise<Res> => {
    const change = route.method === 'PUT';
    if (change) {
      const prefixed = await byPrefix(req, next);
      if (prefixed) return prefixed;
    }
    const id = req.params.institutionDisclosureId;
    const statusBefore = id ? state.disclosures.get(id)?.institutionDisclosureStatus : undefined;
    const answer = await next();
    if (!served(answer) || !isJson(answer.body)) return answer;
    const body = answer.body;
    if (route.method === 'GET' && Array.isArray(body.institutionDisclosures)) {
      // Only the disclosures created through the interface take the faulty path (the fixtures are another table).
      for (const e of (body.institutionDisclosures as unknown[]).filter(isJson)) {
        // A list served from a summary once anything changed: "A list response may contain elements that omit …".
        if (changed && initialIds.has(e.institutionDisclosureId) && f('ho-op1-omits-optional-after-change'))
          for (const k of ['institutionDisclosureData', 'institutionDisclosureDataType', 'institutionDisclosureStatus'])
            delete e[k];
        if (initialIds.has(e.institutionDisclosureId)) continue;
        if (f('ho-op1-status-string-for-created') && typeof e.institutionDisclosureStatus === 'boolean')
          e.institutionDisclosureStatus = String(e.institutionDisclosureStatus);
        if (f('ho-op1-data-object-for-created') && typeof e.institutionDisclosureData === 'string')
          e.institutionDisclosureData = { url: e.institutionDisclosureData };
      }
    }
    if (route.method === 'POST' && typeof body.institutionDisclosureId === 'string') {
      const created = body.institutionDisclosureId;
      const d = state.disclosures.get(created);
      // A name column 16 characters wide: the answer shows the name sent, the list the name cut.
      if (d && f('ho-op2-name-cut-in-store')) d.institutionDisclosureName = d.institutionDisclosureName.slice(0, 16);
    }
    if (change && id) {
      changed = true;
      const d = state.disclosures.get(id);
      if (d && f('ho-op3-false-not-stored') && statusBefore === true && d.institutionDisclosureStatus === false)
        d.institutionDisclosureStatus = true;
      const first = [...state.disclosures.keys()][0];
      if (f('ho-op3-answers-first-id') && first !== undefined && first !== id) body.institutionDisclosureId = first;
    }
    return answer;
  };
}

const copyOf = (records: Map<string, UserDisclosure>) => new Map([...records].map(([k, v]) => [k, { ...v }]));

export function holdoutUser(ctx: AreaContext) {
  const { state } = ctx;
  const f = ctx.fault;
  /** ho-op6-later-changes-lost: how many times each record's status moved. */
  const moves = new Map<string, number>();
  /** ho-op4-status-boolean-after-change: the records a change moved. */
  const changed = new Set<string>();
  const userOf = (req: Req) => {
    const token = /^Bearer\s+(.+)$/i.exec(req.headers['authorization'] ?? '')?.[1];
    return token ? state.bearerUsers.get(token)?.userId : undefined;
  };
  const recordsOf = (userId: string | undefined) =>
    [...state.userDisclosures.values()].filter((u) => u.institutionUserId === userId);

  return async (route: Route, req: Req, next: Next): Promise<Res> => {
    const pathId = req.params.institutionUserDisclosureId;
    const before = copyOf(state.userDisclosures);
    const hadRecords = recordsOf(userOf(req)).length > 0;
    const answer = await next();
    if (!served(answer)) return answer;
    const statusBefore = (u: UserDisclosure) =>
      before.get(u.institutionUserDisclosureId)?.institutionUserDisclosureStatus;
    const moved = [...state.userDisclosures.values()].filter(
      (u) => statusBefore(u) !== u.institutionUserDisclosureStatus,
    );
    if (route.method === 'GET') {
      const items = isJson(answer.body) ? answer.body.institutionUserDisclosures : undefined;
      for (const e of Array.isArray(items) ? items.filter(isJson) : []) {
        if (f('ho-op4-not-accepted-without-institution-id') && e.institutionUserDisclosureStatus === 'NOT_ACCEPTED')
          delete e.institutionId;
        if (f('ho-op4-status-boolean-after-change') && changed.has(e.institutionUserDisclosureId))
          e.institutionUserDisclosureStatus = e.institutionUserDisclosureStatus === 'ACCEPTED';
      }
    } else if (route.method === 'POST') {
      if (f('ho-op5-not-accepted-stored-accepted'))
        for (const u of moved)
          if (u.institutionUserDisclosureStatus === 'NOT_ACCEPTED') u.institutionUserDisclosureStatus = 'ACCEPTED';
      if (f('ho-op5-201-when-user-has-records') && hadRecords)
        return json(201, { institutionUserDisclosureId: moved[0]?.institutionUserDisclosureId ?? 'unknown' });
    } else if (route.method === 'PUT') {
      for (const u of moved) changed.add(u.institutionUserDisclosureId);
      if (f('ho-op6-later-changes-lost'))
        for (const u of moved) {
          const n = moves.get(u.institutionUserDisclosureId) ?? 0;
          moves.set(u.institutionUserDisclosureId, n + 1);
          if (n >= 1) u.institutionUserDisclosureStatus = statusBefore(u)!;
        }
      const r = pathId ? state.userDisclosures.get(pathId) : undefined;
      const first = recordsOf(r?.institutionUserId)[0];
      if (f('ho-op6-path-form-changes-first-record') && r && first && first !== r) {
        first.institutionUserDisclosureStatus = r.institutionUserDisclosureStatus;
        r.institutionUserDisclosureStatus = statusBefore(r)!;
      }
      if (f('ho-op6-200-when-unchanged') && moved.length === 0) return json(200, { message: 'no change' });
    } else if (route.method === 'DELETE') {
      const removed = [...before.values()].filter((u) => !state.userDisclosures.has(u.institutionUserDisclosureId));
      if (f('ho-op7-path-delete-keeps-record') && pathId)
        for (const u of removed) state.userDisclosures.set(u.institutionUserDisclosureId, u);
      if (f('ho-op7-delete-removes-all-of-user') && removed.length)
        for (const u of recordsOf(removed[0]!.institutionUserId))
          state.userDisclosures.delete(u.institutionUserDisclosureId);
    }
    return answer;
  };
}
