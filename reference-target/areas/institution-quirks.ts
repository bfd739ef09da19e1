import type { InstitutionDisclosure } from '../state';
import type { AreaContext } from './types';

/**
 * Fault op3-third-change-not-stored (reference-target/faults/institution-explored.ts): a counter of the changes of
 * each institution disclosure; from the third change of the same disclosure on, the change is answered but not
 * stored. The hand-written tests change a disclosure twice at most: only the explorer reaches it.
 */
export function laterChangesLost(ctx: AreaContext): (id: string) => boolean {
  const changes = new Map<string, number>();
  return (id) => {
    const n = (changes.get(id) ?? 0) + 1;
    changes.set(id, n);
    return n >= 3 && ctx.fault('op3-third-change-not-stored');
  };
}

/**
 * Variant op3-upserts-unknown-id: a change of an id the target never issued creates the disclosure under that id
 * (PUT as an upsert), with the values the change carries. What a change of an unknown id does is not shown.
 */
export function upsertedDisclosure(
  ctx: AreaContext,
  id: string,
  body: unknown,
  institutionId: string,
): InstitutionDisclosure | undefined {
  if (!ctx.fault('op3-upserts-unknown-id')) return undefined;
  const b = (body ?? {}) as Record<string, unknown>;
  if (typeof b.institutionDisclosureName !== 'string') return undefined;
  const d: InstitutionDisclosure = {
    institutionDisclosureId: id,
    institutionId: typeof b.institutionId === 'string' ? b.institutionId : institutionId,
    institutionDisclosureName: b.institutionDisclosureName,
  };
  ctx.state.disclosures.set(id, d);
  return d;
}
