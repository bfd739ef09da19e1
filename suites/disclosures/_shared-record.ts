import { slot } from '../../harness/run-state';
import type { DisclosureRef } from '../../data-builders/disclosures';
import type { CaseContext } from '../../harness/case';
import { acquireLock, lockIsShared, lockLoad } from '../../harness/lock';
import { is2xx } from './_institution-disclosures';
import { caseKnows, isNotOurs, knownNoRecord, recordKey } from './_known-records';
import {
  createRecord,
  disclosureCandidates,
  findRecord,
  listUserRecords,
  removeRecord,
  usableAfterLooking,
  type UserRecord,
} from './_user-records';
import { nothingSent, type HttpResult } from '../../harness/http/client';
import { createdButNotListed } from './_test-data';

/**
 * One acceptance record shared by the cases that only read it, or send a request a conformant
 * target refuses without changing anything (a change or delete without valid credentials): they
 * hold the disclosure's lock shared, side by side, while the cases that change a record hold theirs
 * exclusively (harness/lock.ts). A faulty target that does change the record is caught by the check
 * of the case that sent the request.
 *
 * The first reader of a disclosure creates the record (its exchanges are in that case's report);
 * the last one to leave deletes it, in its clean-up, with the same care as any case's clean-up
 * (list, delete, list; what stays is reported as left on the target).
 */
interface Sharing {
  d: DisclosureRef;
  readers: number;
  /** The record, once created and listed; rejects with the reason (not applicable, could not test) for every reader. */
  ready: Promise<UserRecord>;
  /** A create was sent (a record of the requests): the last reader's clean-up removes what it may have left. */
  createSent: boolean;
  /** Set while the last reader removes the record: later readers wait for a fresh one. */
  closed?: Promise<void>;
}

/** The run's shared records (t.run), by record key. */
const SHARINGS = slot('shared user-disclosure records', () => new Map<string, Sharing>());

/**
 * A record of the configured user that exists for the whole case, shared with the other readers.
 * A reader sends its writes on it through `write`, so that the last one knows whether the record is
 * still as listed (then its clean-up deletes without looking first).
 */
export async function sharedRecord(
  t: CaseContext,
): Promise<{ d: DisclosureRef; record: UserRecord; write: (send: () => Promise<HttpResult>) => Promise<HttpResult> }> {
  const sharings = t.run.get(SHARINGS);
  const all = await disclosureCandidates(t);
  for (const tried = new Set<DisclosureRef>(); ; ) {
    const pending = all.filter((c) => !tried.has(c) && !isNotOurs(t, c));
    if (pending.length === 0)
      t.notApplicable(
        'the user already has an acceptance record for every listed disclosure; ' +
          'the suite does not alter records it did not create',
      );
    // Join the readers that hold a disclosure (also while a writer waits); else the disclosure fewest cases hold or
    // wait for.
    const d =
      pending.find((c) => lockIsShared(recordKey(t, c)) && !sharings.get(recordKey(t, c))?.closed) ??
      pending.reduce((a, b) => (lockLoad(recordKey(t, b)) < lockLoad(recordKey(t, a)) ? b : a));
    const key = recordKey(t, d);
    const release = await acquireLock(key, 'shared');
    t.priority = 1; // the cases that change a record wait for the readers to leave
    let s = sharings.get(key);
    while (s?.closed) {
      await s.closed;
      s = sharings.get(key);
    }
    if (!s) {
      const opened: Sharing = { d, readers: 0, createSent: false, ready: Promise.resolve({}) };
      opened.ready = open(t, opened);
      opened.ready.catch(() => undefined);
      sharings.set(key, (s = opened));
    }
    const sharing = s;
    sharing.readers++;
    const record = await sharing.ready.catch(async (e: unknown) => {
      if (e !== NOT_OURS) return e as Error;
      await leave(t, key, sharing);
      release();
      return undefined;
    });
    if (record === undefined) {
      tried.add(d);
      t.priority = 0;
      continue;
    }
    // Registered first, so it runs last: after this reader has left the sharing.
    t.cleanup('release the shared lock on this user disclosure', async () => release());
    t.cleanup(
      `leave the shared acceptance record of ` + `"${d.institutionDisclosureName}" (the last reader deletes it)`,
      () => leave(t, key, sharing),
    );
    if (record instanceof Error) throw record;
    await t.parameter('institutionDisclosureName', d.institutionDisclosureName);
    // What a reader's write did to the record is in the run's log: the last reader's clean-up asks it (caseKnows).
    const write = (send: () => Promise<HttpResult>) => send();
    return { d, record, write };
  }
}

const NOT_OURS = new Error('the user had a record for this disclosure before the run');

/** Create the shared record (the first reader), unless the user already has one this run did not create. */
async function open(t: CaseContext, s: Sharing): Promise<UserRecord> {
  const known = knownNoRecord(t, s.d);
  if (!known && !(await usableAfterLooking(t, s.d))) throw NOT_OURS;
  s.createSent = true;
  const label = 'create the user disclosure (shared by the cases that only read it)';
  const res = await t
    .step('create the shared record', () => createRecord(t, s.d, label))
    .catch((e: unknown) => {
      // Never sent (a refused connection): there is nothing for the last reader to remove.
      if (nothingSent(e)) s.createSent = false;
      throw e;
    });
  if (!is2xx(res))
    t.notApplicable(
      `creating the acceptance record was not served (status ` + `${res.status}; reported by OP5-REQUEST)`,
      res,
    );
  const { records } = await t.step('list the records', () => listUserRecords(t));
  const record = findRecord(records, s.d);
  if (!record) {
    // It may be on another user (_test-data.ts): left to check by hand.
    createdButNotListed(t, s.d, res);
    t.notApplicable('the created acceptance record is not listed (reported by STATE-UD-CREATE)');
  }
  return record;
}

/** A reader leaves; the last one removes the record (and the sharing), still holding its shared lock. */
async function leave(t: CaseContext, key: string, s: Sharing): Promise<void> {
  s.readers--;
  if (s.readers > 0) return;
  let done!: () => void;
  s.closed = new Promise<void>((resolve) => (done = resolve));
  try {
    await s.ready.catch(() => undefined);
    if (s.createSent) {
      // Where every reader's write was refused, the run's log shows the record as listed after its create: it is
      // deleted without looking first (and a list confirms it).
      await removeRecord(t, s.d, caseKnows(t, s.d));
    }
  } finally {
    t.run.get(SHARINGS).delete(key);
    done();
  }
}
