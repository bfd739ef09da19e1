import { json, type Req, type Res, type Route } from '../http';
import type { UserDisclosure } from '../state';
import type { Next } from './holdout';
import { isJson, served } from './holdout-disclosures';
import type { AreaContext } from './types';

/** The fourth hold-out set's faults of operations 4–7 (reference-target/faults/holdout4-disclosures.ts). */

type Records = Map<string, UserDisclosure>;
const copyOf = (m: Records): Records => new Map([...m].map(([k, v]) => [k, { ...v }]));
const keyOf = (u: UserDisclosure) => `${u.institutionUserId}|${u.institutionDisclosureId}|${u.accountId}`;

/** The records whose status a write changed (present before and after). */
function changed(before: Records, after: Records): string[] {
  return [...after.keys()].filter((id) => {
    const was = before.get(id);
    return was !== undefined && was.institutionUserDisclosureStatus !== after.get(id)!.institutionUserDisclosureStatus;
  });
}

export function holdout4User(ctx: AreaContext) {
  const { state } = ctx;
  const f = ctx.fault;
  /** ho4-op5-recreate-after-delete-not-listed: user, disclosure and account of every record deleted. */
  const deleted = new Set<string>();
  /** ho4-op6-change-back-ignored: the records a change moved away from ACCEPTED. */
  const movedAway = new Set<string>();

  function afterCreate(before: Records): void {
    for (const [id, r] of [...state.userDisclosures]) {
      const was = before.get(id);
      const written = !was || JSON.stringify(was) !== JSON.stringify(r);
      if (!written) continue;
      // The status column is a flag "accepted", set on every create.
      if (r.institutionUserDisclosureStatus === 'NOT_ACCEPTED' && f('ho4-op5-not-accepted-stored-accepted'))
        r.institutionUserDisclosureStatus = 'ACCEPTED';
      if (was) continue;
      // A soft delete: the tombstone hides the new record of the same key.
      if (deleted.has(keyOf(r)) && f('ho4-op5-recreate-after-delete-not-listed')) state.userDisclosures.delete(id);
      // One record per user and account: the new one replaces the others.
      if (f('ho4-op5-second-disclosure-replaces-first'))
        for (const [other, u] of [...state.userDisclosures])
          if (
            other !== id &&
            u.institutionUserId === r.institutionUserId &&
            u.accountId === r.accountId &&
            u.institutionDisclosureId !== r.institutionDisclosureId
          )
            state.userDisclosures.delete(other);
    }
  }

  function afterChange(req: Req, before: Records): void {
    for (const id of changed(before, state.userDisclosures)) {
      const was = before.get(id)!;
      const r = state.userDisclosures.get(id)!;
      const back = r.institutionUserDisclosureStatus === 'ACCEPTED' && movedAway.has(id);
      if (was.institutionUserDisclosureStatus === 'ACCEPTED') movedAway.add(id);
      const ignored =
        (req.query.has('InstitutionCustomerId') && f('ho4-op6-customer-id-query-ignored')) ||
        (back && f('ho4-op6-change-back-ignored'));
      if (ignored) state.userDisclosures.set(id, { ...was });
    }
  }

  function afterDelete(req: Req, before: Records): void {
    for (const [id, was] of before) {
      if (state.userDisclosures.has(id)) continue;
      if (req.query.has('AccountType') && f('ho4-op7-account-type-query-ignored')) state.userDisclosures.set(id, was);
      else deleted.add(keyOf(was));
    }
  }

  /** ho4-op4-mixed-statuses-all-accepted. */
  function afterList(body: Record<string, any>): void {
    if (!Array.isArray(body.institutionUserDisclosures)) return;
    const items = (body.institutionUserDisclosures as unknown[]).filter(isJson);
    const statuses = new Set(items.map((e) => e.institutionUserDisclosureStatus));
    const mixed = statuses.has('ACCEPTED') && statuses.has('NOT_ACCEPTED');
    if (mixed && f('ho4-op4-mixed-statuses-all-accepted'))
      for (const e of items) e.institutionUserDisclosureStatus = 'ACCEPTED';
  }

  return async (route: Route, req: Req, next: Next): Promise<Res> => {
    // Variant disc-refuses-unlisted-query-values: a retail platform knows no business customer and no account type.
    const queried = req.query.has('InstitutionCustomerId') || req.query.has('AccountType');
    if (route.method !== 'GET' && queried && f('disc-refuses-unlisted-query-values'))
      return json(400, { error: 'bad_request', message: 'unknown InstitutionCustomerId or AccountType' });
    const before = copyOf(state.userDisclosures);
    const answer = await next();
    if (!served(answer)) return answer;
    if (route.method === 'GET' && isJson(answer.body)) afterList(answer.body);
    if (route.method === 'POST') afterCreate(before);
    if (route.method === 'PUT') afterChange(req, before);
    if (route.method === 'DELETE') afterDelete(req, before);
    return answer;
  };
}
