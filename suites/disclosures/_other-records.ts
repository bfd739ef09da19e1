import type { DisclosureRef } from '../../data-builders/disclosures';
import type { CaseContext } from '../../harness/case';
import { acquireLock } from '../../harness/lock';
import { track } from './_case-records';
import { isNotOurs, knownNoRecord } from './_known-records';
import { is2xx } from './_institution-disclosures';
import { createRecord, disclosureCandidates, findRecord, listUserRecords, markChosen, mayBeTheRuns, recordId, removeRecordAndRemember, userDisclosureLockKey, type Form, type UserRecord } from './_user-records';

/**
 * Helpers of the cases that prove a change or a delete acts on the record it names and on no other,
 * and that a list shows only the records of the user it is asked for.
 */

/** The members the spec documents for an acceptance record: what "unchanged" is judged on. */
const DOCUMENTED = ['institutionId', 'institutionUserId', 'institutionUserDisclosureStatus', 'institutionDisclosureName', 'institutionUserDisclosureId', 'institutionDisclosureId', 'accountId'];

export function documentedMembers(r: UserRecord): UserRecord {
  return Object.fromEntries(DOCUMENTED.filter((m) => r[m] !== undefined).map((m) => [m, r[m]]));
}

/** The ids the configured user is known by in lists: the one sent as InstitutionConsumerId, and any the target gave this run's records. */
export function userIds(t: CaseContext, ...records: Array<UserRecord | undefined>): Set<string> {
  const ids = new Set([t.config.testData.institutionUserId]);
  for (const r of records) if (typeof r?.institutionUserId === 'string') ids.add(r.institutionUserId);
  return ids;
}

/**
 * The set-up of an "acts on no other record" case, which holds the lock of every disclosure the run
 * may work on (taken in one order, so two such cases never wait on each other) from its first look
 * at the records to the end of its clean-up: no other case changes a record of the user meanwhile,
 * so whatever changes is the doing of the one request under test. It creates the record to act on
 * (ACCEPTED) and, where a second disclosure is free, a second record with `secondStatus`; both are
 * deleted at the end. Returns the record to act on (as listed) and the records that must stay as
 * they are: the second one, and those the run did not create (observed, never touched). Where the
 * run already knows which disclosures hold no record of the user (_known-records.ts), it does not
 * look before.
 */
export async function recordAmongOthers(t: CaseContext, form: Form, secondStatus: 'ACCEPTED' | 'NOT_ACCEPTED') {
  // The candidates (and the run's first look at the user's records, before any case creates one).
  const all = await disclosureCandidates(t);
  const keys = [...new Set(all.map((c) => userDisclosureLockKey(t, c)))].sort();
  const releases: Array<() => void> = [];
  t.cleanup('release the locks on the user disclosures', async () => releases.forEach((release) => release()));
  for (const key of keys) releases.push(await acquireLock(key));
  t.priority = 1; // every other user-disclosure case waits for this one

  const known = all.every((c) => knownNoRecord(t, c) || isNotOurs(t, c));
  const before = known ? undefined : (await t.step('list the records', () => listUserRecords(t, 'list user disclosures (before)'))).records;
  const free = all.filter((c) => (before ? !findRecord(before, c) : knownNoRecord(t, c)));
  const [d, second] = free as [DisclosureRef | undefined, DisclosureRef | undefined];
  if (!d) t.notApplicable(`the user already has an acceptance record for ${t.config.testData.disclosure ? 'the configured testData.disclosure' : 'every listed disclosure'}; the suite does not alter records it did not create`);
  for (const c of second ? [d, second] : [d]) {
    track(t, c, before ? (findRecord(before, c) ?? 'absent') : 'absent');
    markChosen(t, c);
    t.cleanup(`delete the acceptance record of "${c.institutionDisclosureName}" if it is still there`, () => removeRecordAndRemember(t, c));
  }
  await t.parameter('institutionDisclosureName', d.institutionDisclosureName);
  const created = await t.step('create the record', () => createRecord(t, d));
  if (!is2xx(created)) t.notApplicable(`creating the acceptance record was not served (status ${created.status}; reported by OP5-REQUEST)`);
  if (second) {
    await t.parameter('second institutionDisclosureName', second.institutionDisclosureName);
    await t.step(`create a second record (${secondStatus}), which the request must not touch`, () =>
      createRecord(t, second, 'create a second user disclosure', 'valid', secondStatus));
  }
  const { records } = await t.step('list the records', () => listUserRecords(t));
  const record = findRecord(records, d);
  if (!record) t.notApplicable('the created acceptance record is not listed (reported by STATE-UD-CREATE)');
  if (form === 'by-id') recordId(t, record);
  const keep = records.filter((r) => !mayBeTheRuns(t, r));
  const own = second && findRecord(records, second);
  if (own) keep.push(own);
  if (keep.length === 0)
    t.notApplicable('the user has no record besides the one the case acts on: none from before the run, and no second disclosure was free to create one (or creating it was not served)');
  await t.parameter('records that must stay as they are', String(keep.length));
  return { d, record, keep: keep.map(documentedMembers) };
}
