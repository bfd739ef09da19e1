import type { CaseContext } from '../../harness/case';
import type { UserRecord } from './_user-records';

/**
 * What the cases that prove a change or a delete acts on the record it names and on no other, and
 * that a list shows only the records of the user it is asked for, compare (also the traffic judge's
 * sequence rules).
 */

export { documentedMembers } from '../../harness/disclosure-records';

/** The ids the configured user is known by in lists: the one sent as InstitutionConsumerId, and any the target gave this run's records. */
export function userIds(t: CaseContext, ...records: Array<UserRecord | undefined>): Set<string> {
  const ids = new Set([t.config.testData.institutionUserId]);
  for (const r of records) if (typeof r?.institutionUserId === 'string') ids.add(r.institutionUserId);
  return ids;
}
