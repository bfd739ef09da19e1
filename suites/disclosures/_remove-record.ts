import { deleteUserDisclosureRequest, type DisclosureRef } from '../../data-builders/disclosures';
import type { CaseContext } from '../../harness/case';
import { TransportError } from '../../harness/http/client';
import { refused, type Known } from './_case-records';
import { is2xx } from './_institution-disclosures';
import { customerIdDisproven, withoutCustomerId } from './_test-data';
import { findRecord, listUserRecords, type UserRecord } from './_user-list';

/** The clean-up of a case's acceptance record (operation 7): delete it, and make sure it is gone. */

/** The key of the leftover of a record the run may have left on a disclosure (the same key when a later case puts it
 * back). */
export const leftoverKey = (t: CaseContext, d: DisclosureRef) =>
  [
    'user-disclosure',
    t.settings.runId,
    t.config.baseUrl,
    t.config.testData.institutionUserId,
    d.institutionId,
    d.institutionDisclosureName,
  ].join('|');

/**
 * Delete the case's record if it is there: list (unless the case knows, _case-records.ts), delete
 * what is there, list again. A write whose outcome is unknown (a timeout, a cut-off answer, a 5xx)
 * may have landed, so the case then does not know, and this looks. Its requests are retried until
 * answered (clean-up retry). A list that cannot be read makes the delete go ahead anyway (deleting
 * what is not there is harmless). What stays, or cannot be confirmed gone, is listed as a leftover
 * with what to delete by hand.
 */
export async function removeRecord(t: CaseContext, d: DisclosureRef, known?: Known): Promise<void> {
  const handKey = leftoverKey(t, d);
  // What the case knows for sure needs no look (_case-records.ts): no record, or the record to delete.
  if (known === 'absent') {
    t.putBack(handKey);
    return;
  }
  let why = '';
  const listed = async () => {
    try {
      const { records } = await listUserRecords(t, 'clean-up: list user disclosures');
      return { known: true, record: findRecord(records, d) };
    } catch (e) {
      why = (e as Error).message;
      return { known: false, record: undefined };
    }
  };
  const before = known ? { known: true, record: known } : await listed();
  if (before.known && !before.record) {
    t.putBack(handKey);
    return; // already deleted, or never created
  }
  why = await sendDelete(t, d, before.record);
  const after = await listed();
  if (known && after.record) return removeRecord(t, d); // what the case knew did not hold: the whole way
  if (after.known && !after.record) {
    t.putBack(handKey);
    return;
  }
  leftBehind(t, d, handKey, after.record, why);
}

/** Delete the record (by name; by its id where that is refused; without a disproven InstitutionCustomerId). Gives why
 * it went unanswered, or "". */
async function sendDelete(t: CaseContext, d: DisclosureRef, record: UserRecord | undefined): Promise<string> {
  const status =
    typeof record?.institutionUserDisclosureStatus === 'string' ? record.institutionUserDisclosureStatus : 'ACCEPTED';
  const built = deleteUserDisclosureRequest(t.faker, t.config, d, status);
  // A configured InstitutionCustomerId a control disproved (_test-data.ts) is not sent again.
  const req = customerIdDisproven(t) ? withoutCustomerId(built) : built;
  const id = record?.institutionUserDisclosureId;
  try {
    const label = 'clean-up: delete the user disclosure';
    let res = await t.send({ operation: 'deleteUserDisclosure', ...req, label });
    if (!is2xx(res) && typeof id === 'string') {
      const pathParams = { institutionUserDisclosureId: id };
      res = await t.send({ operation: 'deleteUserDisclosureById', pathParams, ...req, label: `${label} by id` });
    }
    // Refused with a configured InstitutionCustomerId a retail target does not know: once more without it.
    if (refused(res) && req.query?.InstitutionCustomerId !== undefined) {
      const again = { ...withoutCustomerId(req), label: `${label} without InstitutionCustomerId` };
      await t.send({ operation: 'deleteUserDisclosure', ...again });
    }
    return '';
  } catch (e) {
    if (!(e instanceof TransportError)) throw e;
    return e.message;
  }
}

/** The record stays, or cannot be confirmed gone: listed as a leftover with what to delete by hand, and the clean-up
 * fails. */
function leftBehind(t: CaseContext, d: DisclosureRef, handKey: string, record: UserRecord | undefined, why: string) {
  const user = t.config.testData.institutionUserId;
  t.leftBehind({
    key: handKey,
    what:
      `acceptance record of disclosure "${d.institutionDisclosureName}" (institutionDisclosureId ` +
      `${d.institutionDisclosureId}, institutionId ${d.institutionId}) for user ${user}, account ` +
      `${t.config.testData.accountId}`,
    now: record
      ? `still listed after DELETE${
          typeof record.institutionUserDisclosureId === 'string'
            ? ` (institutionUserDisclosureId ` + `${record.institutionUserDisclosureId})`
            : ''
        }`
      : 'unknown: the list of user disclosures ' + 'could not be read',
    restore:
      `no record: delete it (operation 7, DELETE ` +
      `{baseUrl}/db-disclosures/v1/institution-user-disclosures for institutionDisclosureName ` +
      `"${d.institutionDisclosureName}")`,
    why: record ? 'the target kept it after DELETE' : why,
  });
  if (record)
    throw new Error(
      `the acceptance record of "${d.institutionDisclosureName}" for user ` +
        `${user} is still listed after DELETE: remove it by hand`,
    );
  throw new Error(
    `could not confirm that the acceptance record of ` +
      `"${d.institutionDisclosureName}" for user ${user} is gone: ${why}`,
  );
}
