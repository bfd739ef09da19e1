import type { Req } from '../http';
import type { ReferenceState, UserDisclosure } from '../state';

/**
 * Behaviours of the user disclosure routes (reference-target/areas/disclosures.ts) that only a variant or a
 * fault switches on, kept apart so the routes stay readable.
 */

type User = { institutionId: string; userId: string };

/** Variant disc-lenient-writes: a change naming no record (collection form) creates it; undefined where it cannot. */
export function upserted(
  state: ReferenceState,
  req: Req,
  user: User,
  newId: () => string,
  either: (bodyValue: unknown, headerValue: string | undefined) => unknown,
): UserDisclosure | undefined {
  if (req.params.institutionUserDisclosureId) return undefined;
  const b = (req.body ?? {}) as Record<string, unknown>;
  const disclosureId = either(b.institutionDisclosureId, req.headers['institutiondisclosureid']);
  const name = either(b.institutionDisclosureName, req.headers['institutiondisclosurename']);
  const accountId = req.headers['accountid'];
  if (typeof disclosureId !== 'string' || typeof name !== 'string') return undefined;
  const record: UserDisclosure = {
    institutionId: user.institutionId,
    institutionUserId: user.userId,
    institutionUserDisclosureStatus: 'NOT_ACCEPTED',
    institutionDisclosureName: name,
    institutionUserDisclosureId: newId(),
    institutionDisclosureId: disclosureId,
    // No AccountId is sent with a change: the account of the user's other records, as the target knows it.
    accountId:
      accountId ??
      [...state.userDisclosures.values()].find((u) => u.institutionUserId === user.userId)?.accountId ??
      'unknown',
  };
  state.userDisclosures.set(record.institutionUserDisclosureId, record);
  return record;
}

/**
 * Fault op7-by-id-reads-a-prefix: a delete by an id no record has removes the user's record whose id the path's id
 * begins with (a lookup that reads the id only as far as it recognises it), the longest such.
 */
export function recordByPrefix(state: ReferenceState, id: string, userId: string): UserDisclosure | undefined {
  let best: UserDisclosure | undefined;
  for (const r of state.userDisclosures.values()) {
    const rid = r.institutionUserDisclosureId;
    if (r.institutionUserId !== userId || !id.startsWith(rid)) continue;
    if (!best || rid.length > best.institutionUserDisclosureId.length) best = r;
  }
  return best;
}

/** Fault op5-revives-deleted-record: what a delete leaves behind (a soft delete), per user, disclosure and account. */
const buried = new WeakMap<ReferenceState, Map<string, string>>();
const graveKey = (r: Pick<UserDisclosure, 'institutionUserId' | 'institutionDisclosureId' | 'accountId'>) =>
  `${r.institutionUserId}|${r.institutionDisclosureId}|${r.accountId}`;

export function bury(state: ReferenceState, r: UserDisclosure): void {
  const graves = buried.get(state) ?? buried.set(state, new Map()).get(state)!;
  graves.set(graveKey(r), r.institutionUserDisclosureStatus);
}

/** The status a deleted record had, for a create (sending NOT_ACCEPTED) of the same user, disclosure and account. */
export function revivedStatus(state: ReferenceState, r: UserDisclosure): string | undefined {
  if (r.institutionUserDisclosureStatus !== 'NOT_ACCEPTED') return undefined;
  return buried.get(state)?.get(graveKey(r));
}
