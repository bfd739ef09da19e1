import type { Seen } from '../rules/exchange';
import { isObject } from '../rules/request';
import { outcomeOf } from './outcome';

/**
 * Whose records a list of operation 4 shows: the records an answered 2xx list asked for a consumer shows are the
 * consumer's own, as the ids a later list of another consumer must not show (OP4-OTHER-CONSUMER).
 */
export interface OwnRecords {
  /** The institutionUserDisclosureIds of the consumer's records. */
  ids: Set<string>;
  /** The list (Seen.x.index). */
  by: number;
  /** The institutionUserId they carry where it is not the consumer's (a target that knows the user by its own id). */
  userId?: string;
}

/**
 * The consumer's own records a 2xx list asked for it shows (undefined: no such list, or none of its records is
 * the consumer's). Where no record names its user (no institutionUserId string), the list's records are taken as
 * the consumer's; so are they where none names the consumer and all name one user.
 */
export function consumerOwnRecords(s: Seen): { consumer: string; records: OwnRecords } | undefined {
  const asked = s.mapped.query.get('InstitutionConsumerId');
  const records = listedRecords(s);
  if (!asked || !records) return undefined;
  const userIds = new Set(records.map((r) => r.institutionUserId).filter((u): u is string => typeof u === 'string'));
  const ownId = !userIds.has(asked) && userIds.size === 1 ? [...userIds][0] : undefined;
  const theirs =
    userIds.size === 0 || ownId !== undefined ? records : records.filter((r) => r.institutionUserId === asked);
  if (theirs.length === 0) return undefined;
  const ids = theirs.map((r) => r.institutionUserDisclosureId).filter((id): id is string => typeof id === 'string');
  return { consumer: asked, records: { ids: new Set(ids), by: s.x.index, userId: ownId } };
}

/** The records of a 2xx list of operation 4 (undefined: not one, or no institutionUserDisclosures array). */
export function listedRecords(s: Seen): Record<string, any>[] | undefined {
  if (outcomeOf(s.x.status) !== 'applied') return undefined;
  const items = (s.res.json as { institutionUserDisclosures?: unknown } | undefined)?.institutionUserDisclosures;
  return Array.isArray(items) ? items.filter(isObject) : undefined;
}
