import { createUserDisclosureRequest, type Credentials, type DisclosureRef } from '../../data-builders/disclosures';
import type { CaseContext } from '../../harness/case';
import type { HttpResult, SendOptions } from '../../harness/http/client';
import { acquireLock, lockLoad } from '../../harness/lock';
import { besideTheExplorer } from './_explorer-lock';
import type { Listed } from './_institution-disclosures';
import { alreadyAccepted, checkConfiguredDisclosure, DISCLOSURE_KEY, reliedBy } from './_test-data';
import {
  caseKnows,
  institutionDisclosuresOnce,
  isNotOurs,
  knownNoRecord,
  oncePerRun,
  ONCE_PER_RUN_PRIORITY,
  recordKey,
} from './_known-records';
import { removeRecord } from './_remove-record';
import { findRecord, listUserRecords, type UserRecord } from './_user-list';

export { removeRecord } from './_remove-record';
export { findRecord, listUserRecords, type UserRecord } from './_user-list';

/**
 * Helpers shared by the user disclosure features (operations 4–7).
 *
 * Every case that creates, changes or deletes an acceptance record of the configured user holds the
 * lock of that user and disclosure from before its first look at the record to the end of its
 * clean-up, so no two cases work on the same record: the records' life (_record-lifecycle.ts) holds
 * two, a refused create one for a request, and the cases that only read or send a refused change or
 * delete share one (_shared-record.ts). They work on disclosures the user has no record for yet, so
 * records that were there before the run are never touched.
 */

/** The lock of the configured user's record of a disclosure: by the disclosure's id, which a concurrent rename does not
 * change. */
export { recordKey as userDisclosureLockKey } from './_known-records';

export function candidates(t: CaseContext, items: Listed[]): DisclosureRef[] {
  const configured = t.config.testData.disclosure;
  if (configured) return [{ ...configured, institutionId: t.config.testData.institutionId }];
  const all = items
    .filter((i) => typeof i.institutionDisclosureId === 'string' && typeof i.institutionDisclosureName === 'string')
    .map((i) => ({
      institutionDisclosureId: i.institutionDisclosureId as string,
      institutionDisclosureName: i.institutionDisclosureName as string,
      institutionId: typeof i.institutionId === 'string' ? i.institutionId : t.config.testData.institutionId,
    }));
  // Not the disclosures this run creates: operation 3's case renames them while other cases run.
  return all.filter((c) => !c.institutionDisclosureName.startsWith(`dbsi-${t.settings.runId}`));
}

/**
 * Choose a disclosure (the configured testData.disclosure, else those operation 1 lists) the user
 * has no record for, hold its lock
 * to the end of the case, and arrange that whatever record the case leaves for it is deleted at the
 * end, also when the case fails. The disclosure is the one fewest other cases hold or wait for; the
 * look at the user's records before is skipped where the run's log shows there is none
 * (_known-records.ts).
 */
export async function freshDisclosure(
  t: CaseContext,
  opts: { whenAllBusy?: () => Promise<DisclosureRef | undefined>; besides?: DisclosureRef } = {},
): Promise<DisclosureRef> {
  const other = opts.besides?.institutionDisclosureId;
  const all = (await disclosureCandidates(t)).filter((c) => c.institutionDisclosureId !== other);
  const tried = new Set<DisclosureRef>();
  for (;;) {
    const pending = all.filter((c) => !tried.has(c) && !isNotOurs(t, c));
    if (pending.length === 0)
      t.notApplicable(
        `the user already has an acceptance record for ` +
          `${t.config.testData.disclosure ? 'the configured testData.disclosure' : 'every listed disclosure'}; ` +
          `the suite does not alter records it did not create`,
      );
    let c = pending.reduce((a, b) => (lockLoad(recordKey(t, b)) < lockLoad(recordKey(t, a)) ? b : a));
    // Where every disclosure is held, the caller may know which one comes free first.
    if (lockLoad(recordKey(t, c)) > 0 && opts.whenAllBusy) {
      const first = await opts.whenAllBusy();
      c = pending.find((p) => p.institutionDisclosureId === first?.institutionDisclosureId) ?? c;
    }
    const release = await acquireLock(recordKey(t, c));
    t.priority = 1;
    let usable = false;
    try {
      usable = knownNoRecord(t, c) || (await usableAfterLooking(t, c));
    } finally {
      if (!usable) {
        release();
        t.priority = 0;
      }
    }
    if (usable) {
      t.cleanup('release the lock on this user disclosure', async () => release());
      await t.parameter('institutionDisclosureName', c.institutionDisclosureName);
      t.cleanup(`delete the acceptance record of ` + `"${c.institutionDisclosureName}" if it is still there`, () =>
        removeRecord(t, c, caseKnows(t, c)),
      );
      return c;
    }
    tried.add(c);
  }
}

/**
 * The disclosures a case may accept: the configured one, else those operation 1 lists (once per
 * run). Before the first case creates a record, the user's records are listed once (recordsBeforeTheRun),
 * side by side with operation 1's list.
 */
export async function disclosureCandidates(t: CaseContext): Promise<DisclosureRef[]> {
  await besideTheExplorer(t);
  const before = recordsBeforeTheRun(t);
  before.catch(() => undefined); // awaited below, unless operation 1 gives nothing to choose from
  // A configured disclosure the target does not list: nothing is written for it (could not test, naming the key).
  await checkConfiguredDisclosure(t);
  const all = candidates(t, t.config.testData.disclosure ? [] : await institutionDisclosuresOnce(t));
  if (all.length === 0)
    t.notApplicable(
      'operation 1 lists no institution disclosure (other than those this run created) with an ' +
        'institutionDisclosureId and a name, and testData.disclosure is not ' +
        'configured: there is no disclosure to accept',
    );
  // Every case that creates a record waits for the list of the user's records before the run: what it shows is in the
  // run's log, which tells the records this run did not create (never touched) and the candidates free to use
  // without looking again (_known-records.ts).
  const records = await before;
  const configured = t.config.testData.disclosure;
  // A configured disclosure the user had accepted before the run: nothing is written for it.
  if (configured && findRecord(records, { ...configured, institutionId: t.config.testData.institutionId }))
    t.couldNotTest(alreadyAccepted(configured), DISCLOSURE_KEY);
  return all;
}

/**
 * The user's records before any case of the run creates one: listed once per run, by the first case that needs them
 * (a deduplication of requests). Its answer is in the run's log, where the queries of _known-records.ts read which
 * records the run did not create; only the check of a configured disclosure reads the list here.
 */
function recordsBeforeTheRun(t: CaseContext): Promise<UserRecord[]> {
  return oncePerRun(
    t,
    'user records before the run',
    async () =>
      (await listUserRecords(t, 'list user disclosures (before the run ' + 'changes any)', ONCE_PER_RUN_PRIORITY))
        .records,
  );
}

/**
 * Under the disclosure's lock: list the user's records; usable when there is none for it. A record
 * found there is never touched (it was there before the run, or a clean-up could not delete it and
 * listed it as left on the target): where the run's log shows this run did not create it, or could not remove it,
 * the disclosure is not tried again (_known-records.ts).
 */
export async function usableAfterLooking(t: CaseContext, c: DisclosureRef): Promise<boolean> {
  const { records } = await listUserRecords(t, 'list user disclosures (before)');
  return !findRecord(records, c);
}

/** Send operation 5 (status ACCEPTED unless told). */
export async function createRecord(
  t: CaseContext,
  d: DisclosureRef,
  label = 'create the user disclosure',
  credentials: Credentials = 'valid',
  status = 'ACCEPTED',
): Promise<HttpResult> {
  const req = createUserDisclosureRequest(t.faker, t.config, d, status, credentials);
  // With the configured token it relies on the configured AccountId (harness/setup/proof.ts: a target that quotes it).
  const relies = credentials === 'valid' ? ['testData.accountId'] : undefined;
  return t.send({ operation: 'createUserDisclosure', ...req, label, relies });
}

/** The record's id for the /{institutionUserDisclosureId} forms, or "not applicable" with the reason. */
export function recordId(t: CaseContext, record: UserRecord): string {
  const id = record.institutionUserDisclosureId;
  if (typeof id !== 'string' || id === '')
    t.notApplicable(
      'the list of user disclosures (operation 4) does not expose institutionUserDisclosureId (the spec ' +
        'documents only institutionId, institutionUserId, institutionUserDisclosureStatus and ' +
        'institutionDisclosureName there), so the /{institutionUserDisclosureId} form cannot be addressed',
    );
  return id;
}

/** Operations 6 and 7 come in two forms: on the collection path, or on /{institutionUserDisclosureId}. */
export type Form = 'collection' | 'by-id';
export const FORM_TITLE: Record<Form, string> = {
  collection: 'collection form',
  'by-id': '/{institutionUserDisclosureId} form',
};

/**
 * Send a change or delete of a record in the given form, as a step of its own; the /{id} form takes
 * the record's id from the list, or is "not applicable" with the reason.
 */
export async function sendInForm(
  t: CaseContext,
  form: Form,
  record: UserRecord,
  ops: {
    collection: 'changeUserDisclosure' | 'deleteUserDisclosure';
    byId: 'changeUserDisclosureById' | 'deleteUserDisclosureById';
  },
  req: Pick<SendOptions, 'headers' | 'query' | 'body'>,
  step: string,
): Promise<HttpResult> {
  const label = `${step} the user disclosure (${FORM_TITLE[form]})`;
  const relies = reliedBy(req);
  if (form === 'collection') return t.step(step, () => t.send({ operation: ops.collection, ...req, label, relies }));
  const id = recordId(t, record);
  await t.parameter('institutionUserDisclosureId', id);
  const pathParams = { institutionUserDisclosureId: id };
  return t.step(step, () => t.send({ operation: ops.byId, pathParams, ...req, label, relies }));
}
