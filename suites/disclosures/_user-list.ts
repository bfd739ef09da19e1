import { listUserDisclosuresRequest, type DisclosureRef } from '../../data-builders/disclosures';
import type { CaseContext } from '../../harness/case';
import type { HttpResult } from '../../harness/http/client';
import { is2xx } from './_institution-disclosures';
import { userListNotServed } from './_test-data';

/** Operation 4 as the user disclosure features send it: the configured user's records. */

export type UserRecord = Record<string, unknown>;
/** Operation 4; "not applicable" when the list itself is broken (reported by operation 4's cases). */
export async function listUserRecords(
  t: CaseContext,
  label = 'list user disclosures',
  priority?: number,
): Promise<{ res: HttpResult; records: UserRecord[] }> {
  const res = await t.send({
    operation: 'listUserDisclosures',
    ...listUserDisclosuresRequest(t.faker, t.config),
    label,
    ...(priority ? { priority } : {}),
  });
  if (!is2xx(res)) {
    // A refusal may be the configured user's doing: the control (once per run) tells where it can.
    await userListNotServed(t, res);
    t.notApplicable(`the list of user disclosures was not served (status ${res.status}; reported by OP4-REQUEST)`, res);
  }
  const records = (res.json as { institutionUserDisclosures?: unknown } | undefined)?.institutionUserDisclosures;
  if (!Array.isArray(records))
    t.notApplicable(
      'the list of user disclosures has no institutionUserDisclosures ' + 'array (reported by OP4-RESPONSE-ENVELOPE)',
    );
  const objects = records.filter((r): r is UserRecord => r !== null && typeof r === 'object');
  return { res, records: objects };
}

/** The record of a disclosure in the list: by institutionDisclosureName (and institutionId where both carry one). */
export function findRecord(records: UserRecord[], d: DisclosureRef): UserRecord | undefined {
  return records.find(
    (r) =>
      r.institutionDisclosureName === d.institutionDisclosureName &&
      (r.institutionId === undefined || r.institutionId === d.institutionId),
  );
}
