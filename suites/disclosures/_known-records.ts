import { slot } from '../../harness/run-state';
import type { DisclosureRef } from '../../data-builders/disclosures';
import type { CaseContext } from '../../harness/case';
import { RUN_LOG } from '../../harness/log/run-log';
import { createInFlight } from '../../harness/state/user-disclosure-flights';
import { userRecordsOfRunLog } from '../../harness/state/user-disclosure-run';
import type { Known } from './_case-records';
import { listInstitutionDisclosures, type Listed } from './_institution-disclosures';

/**
 * What a run knows about the configured user's acceptance records is what its log shows (issue 32): the queries of
 * harness/state/user-disclosure-run.ts on the run's log (harness/log/run-log.ts), to which the client appends every
 * answered exchange of every case. The drivers keep no memory of the records of their own:
 *
 * - the user has no record for a disclosure: the last list that shows it (the survey before the run created any, a
 *   case's look under the disclosure's lock, a clean-up that saw the record gone) showed none, and no write of it
 *   landed or may have landed since;
 * - the user has a record for it that this run did not create (or could not remove): never touched, so never tried
 *   again.
 *
 * What stays here is no target state: the lock key, and the requests asked once per run (a deduplication of
 * requests in flight, oncePerRun).
 */

/** The lock key of the configured user's record of a disclosure: by the disclosure's id, which a concurrent rename does
 * not change. */
export function recordKey(t: CaseContext, d: DisclosureRef): string {
  const user = t.config.testData.institutionUserId;
  return `user-disclosure|${t.config.baseUrl}|${user}|${d.institutionId}|${d.institutionDisclosureId}`;
}

/** Per run: the requests asked once, while in flight and once answered (a deduplication of requests). */
const ONCE = slot('requests asked once per run', () => new Map<string, Promise<unknown>>());

/**
 * What `fn` gives, asked once per run by the first case that needs it (the exchanges are in that
 * case's report); a case whose wait for another's answer failed asks for itself (that case reported it).
 * A deduplication of requests, not a memory of the target: what an answer says of the user's records is read from
 * the run's log (the queries below), where the answer is an entry like any other.
 */
export async function oncePerRun<T>(t: CaseContext, name: string, fn: () => Promise<T>): Promise<T> {
  const once = t.run.get(ONCE);
  const pending = once.get(name) as Promise<T> | undefined;
  if (pending) {
    try {
      return await pending;
    } catch {
      // asked again below
    }
  }
  const asked = fn();
  once.set(name, asked);
  asked.catch(() => {
    if (once.get(name) === asked) once.delete(name);
  });
  return asked;
}

/**
 * The priority of the requests asked once per run: every case that changes a user disclosure waits
 * for them, so they go before independent requests when every connection slot is busy.
 */
export const ONCE_PER_RUN_PRIORITY = 2;

/**
 * Operation 1's elements, listed once per run: the memo's own request (in the run's log), not another test's list,
 * which may have been built to be refused or to probe, and whose answer a faulty target may get wrong: what one test
 * sends on purpose never changes which disclosures the others choose.
 */
export function institutionDisclosuresOnce(t: CaseContext): Promise<Listed[]> {
  return oncePerRun(
    t,
    'institution disclosures',
    async () => (await listInstitutionDisclosures(t, 'list institution disclosures', ONCE_PER_RUN_PRIORITY)).items,
  );
}

const ofTheRun = (t: CaseContext) => userRecordsOfRunLog(t.run.get(RUN_LOG), t.config.testData.institutionUserId);

/**
 * What the run's log says the user's record of d is now, so that a clean-up asks the target only what it does not
 * know. Asked by the case that holds the disclosure's lock: the writes of the record are its own, and those of the
 * readers it let send their refused requests on it. A 2xx create or change leaves the record with the status sent; a
 * refusal leaves it as it was; a delete (gone only once a list shows it) or a write whose outcome is unknown (another
 * 5xx, or no answer: RunLog.stateKnown) makes it unknown (undefined): the clean-up then lists, deletes what is there
 * and lists again (_remove-record.ts).
 */
export function caseKnows(t: CaseContext, d: DisclosureRef): Known | undefined {
  return ofTheRun(t).known(d.institutionDisclosureName);
}

/** Asked under the disclosure's lock: whether the run's log shows the user has no record for it now. */
export function knownNoRecord(t: CaseContext, d: DisclosureRef): boolean {
  return ofTheRun(t).noRecord(d.institutionDisclosureName);
}

/**
 * The user has a record for the disclosure that this run did not create (or could not remove). A create of it the
 * run sent that is still in flight in the run's log may be what a list showed: not told until it is settled.
 */
export function isNotOurs(t: CaseContext, d: DisclosureRef): boolean {
  const name = d.institutionDisclosureName;
  return ofTheRun(t).notOurs(name) && !createInFlight(t.run.get(RUN_LOG), name);
}
