import { slot } from '../../harness/run-state';
import type { CaseContext } from '../../harness/case';
import { TransportError } from '../../harness/http/client';
import { acquireLock, type LockMode } from '../../harness/lock';
import { RUN_LOG } from '../../harness/log/run-log';
import { believedOnRecord, type BelievedOnRecord } from '../../harness/state/contact-believed';
import { samePhone, type Phone } from './_phone-on-record';

/**
 * Which cases hold or wait for one configured customer, and what they hand on that the run's log cannot say
 * (which updates the holder sent alone, the restore's plan): per run, per customer, not per case (every case of a
 * run runs in one worker). The phone the run believes on record, and whether it is in doubt, is the run log's
 * (harness/state/contact-believed.ts, docs/contact-state.md).
 *
 * Cases that change the phone number hold the customer's lock exclusively, one after another; cases
 * that only send requests a conformant target refuses hold it shared, side by side (harness/lock.ts).
 * A case does not set the customer back when it leaves while other cases hold or wait for it: it
 * hands on what it put on record (the log shows it), and the next case starts from there. The last case out restores
 * (phone number reconciled and confirmed, e-mail and postal address), like the last reader of a
 * shared acceptance record deletes it. At `--concurrency 1` every case is the last one out.
 *
 * A hand-over is never lost: a case counts as waiting from before it asks for the lock until it
 * holds it, and one whose signal aborts while it waits (Ctrl-C, --bail, a test timeout) stops
 * counting, so the case that holds the customer restores; the decision to hand on and the release
 * of the lock happen together, with nothing in between. A case that holds the customer when the
 * others are gone restores, whatever it did. Where the phone number may be other than the run
 * believes (an update with an unknown outcome, a request that should have been refused and was
 * accepted), the last case holding the customer reconciles before handing on, and marks the number
 * unknown if it cannot confirm it: the next case reconciles first, or is could-not-test.
 */
export interface OnRecord {
  /** The restore's plan: an update that was accepted, or may have landed, wrote the e-mail or postal address, and no
   * restore has set it back or listed it as a leftover since (the lock's: what is left to do, not what is on
   * record). */
  emailChanged: boolean;
  postalChanged: boolean;
  /** A restore (a case's, or the explorer's clean-up) could not confirm the number (why): the last case out
   * reconciles before handing on, and whoever holds the customer next reconciles first. */
  unknown?: string;
}

/** What the lock keeps before anything is handed on: the restore's plan, no phone (the run log's). */
export function asConfigured(): OnRecord {
  return { emailChanged: false, postalChanged: false };
}

/**
 * The updates of each customer (by exchange index) that the case holding it sent alone (its lock exclusive, or
 * settling it for the others): the one thing of the phone believed that the run log does not hold (who held the
 * lock). Per run, by customer key; kept after the customer is restored, as the log is.
 */
const ALONE = slot('contact updates sent alone', () => new Map<string, Set<number>>());

/** The case holding the customer alone sent the update logged as exchange `index`. */
export function sentAlone(t: Pick<CaseContext, 'run'>, key: string, index: number): void {
  const all = t.run.get(ALONE);
  let mine = all.get(key);
  if (!mine) all.set(key, (mine = new Set()));
  mine.add(index);
}

/**
 * The phone the run believes is on record for the customer, and why it may be another: a query on the run's log
 * (harness/state/contact-believed.ts) and the updates sent alone; `except`: as if that exchange had not been sent.
 */
export function believedNow(
  t: Pick<CaseContext, 'run'>,
  key: string,
  customerId: string,
  start: Phone,
  except?: number,
): BelievedOnRecord {
  const alone = t.run.get(ALONE).get(key);
  const log = t.run
    .get(RUN_LOG)
    .withUnanswered()
    .filter((s) => s.x.index !== except);
  return believedOnRecord(log, customerId, start, (i) => alone?.has(i) === true);
}

/** Whether the phone on record is the one the run believes (not necessarily confirmed): the log puts it in no doubt,
 * and no restore left it unknown. */
export const phoneBelieved = (s: OnRecord, b: BelievedOnRecord): boolean =>
  b.doubt === undefined && s.unknown === undefined;

/** Whether nothing is left to restore: the configured phone, confirmed or untouched, and the configured e-mail and
 * postal address. */
export const asFound = (s: OnRecord, b: BelievedOnRecord, start: Phone): boolean =>
  phoneBelieved(s, b) && samePhone(b.phone, start) && !s.emailChanged && !s.postalChanged;

/** How the case that holds the customer puts it back, with its own requests in its own report. */
export interface Settle {
  /** On entry, the number unknown after an earlier case: reconcile and confirm it, or the case is could not test. */
  reconcileFirst(): Promise<void>;
  /** Reconcile the phone number and confirm the configured one (marks it unknown when it cannot). */
  reconcile(): Promise<void>;
  /** Put everything back: phone number, e-mail and postal address (lists what it cannot). */
  restore(): Promise<void>;
}

interface Sharing {
  /** The configured phone. */
  start: Phone;
  /** The phone believed on record and its doubt, asked of the run's log now. */
  believed(): BelievedOnRecord;
  onRecord: OnRecord;
  /** Cases that hold the customer, or wait for it and have not been cancelled. */
  members: number;
  /** Cases that hold its lock now. */
  holders: number;
  /** Set while one case reconciles or restores: cases that enter meanwhile wait for it. */
  gate?: Promise<void>;
}

/** The run's customers on record (t.run), by customer key. */
const SHARINGS = slot('customers on record', () => new Map<string, Sharing>());

/**
 * Wait for the customer's lock in the given mode and for any restore in progress; the returned state
 * is the run's, shared with every case on that customer. The clean-up registered here leaves: it
 * hands on, or (the last one out) restores through `settle`.
 */
export async function holdCustomer(
  t: CaseContext,
  key: string,
  customerId: string,
  start: Phone,
  mode: LockMode,
  settle: (s: OnRecord) => Settle,
): Promise<OnRecord> {
  const sharings = t.run.get(SHARINGS);
  let s = sharings.get(key);
  const believed = () => believedNow(t, key, customerId, start);
  if (!s) sharings.set(key, (s = { start, believed, onRecord: asConfigured(), members: 0, holders: 0 }));
  const sharing = s;
  sharing.members++;
  let counted = true;
  let holding = false;
  let release: (() => void) | undefined;
  const stopWaiting = () => {
    if (holding || !counted) return;
    counted = false;
    sharing.members--;
  };
  t.signal?.addEventListener('abort', stopWaiting, { once: true });
  // Registered before the wait, so that it runs whatever happens to the case from here on.
  t.cleanup('hand the customer on to the next test, or (the last one out) restore its contact data', async () => {
    t.signal?.removeEventListener('abort', stopWaiting);
    if (!release) return;
    if (counted) sharing.members--;
    counted = false;
    sharing.holders--;
    // A case whose check failed found the target unlike it assumed: what it believes on record is not handed on
    // unconfirmed.
    await leave(
      sharings,
      key,
      sharing,
      settle(sharing.onRecord),
      release,
      t.checks.some((k) => k.outcome === 'failed'),
    );
  });
  release = await acquireLock(key, mode);
  holding = true;
  sharing.holders++;
  // Cancelled while it waited (no longer counted): it sends nothing; its clean-up leaves.
  if (!counted) throw new TransportError('interrupted', 'the run was interrupted');
  t.priority = 1;
  while (sharing.gate) await sharing.gate;
  if (sharing.onRecord.unknown !== undefined) await gated(sharing, () => settle(sharing.onRecord).reconcileFirst());
  return sharing.onRecord;
}

/** Run fn while the cases that enter meanwhile wait. */
async function gated(s: Sharing, fn: () => Promise<void>): Promise<void> {
  let open!: () => void;
  s.gate = new Promise<void>((resolve) => (open = resolve));
  try {
    await fn();
  } finally {
    s.gate = undefined;
    open();
  }
}

/**
 * A case leaves the customer. Where other cases still hold it (readers), they decide. Else, with
 * cases waiting and the phone as the run believes, it hands on; with the phone in doubt, or after
 * a failed check (the target did not behave as the case assumed), it reconciles first; with nobody
 * left, it restores. The lock is released in the same step as the decision to hand on, so a waiter
 * cancelled in between cannot strand what was handed on.
 */
async function leave(
  sharings: Map<string, Sharing>,
  key: string,
  s: Sharing,
  settle: Settle,
  release: () => void,
  failed: boolean,
): Promise<void> {
  if (s.holders > 0) return release();
  const problems: string[] = [];
  const attempt = async (fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (e) {
      problems.push((e as Error).message);
    }
  };
  let open: (() => void) | undefined;
  try {
    // Bounded: a reconcile, then (the waiters gone meanwhile) the restore.
    for (let round = 0; round < 3; round++) {
      if (s.members > 0 && phoneBelieved(s.onRecord, s.believed()) && (!failed || round > 0)) break;
      if (!open) s.gate = new Promise<void>((resolve) => (open = resolve));
      if (s.members === 0) {
        await attempt(() => settle.restore());
        break;
      }
      await attempt(() => settle.reconcile());
      // Still unknown: the next case reconciles first (or is could not test).
      if (s.onRecord.unknown !== undefined && s.members > 0) break;
    }
  } finally {
    if (open) {
      s.gate = undefined;
      open();
    }
    if (s.members === 0 && s.holders === 0 && asFound(s.onRecord, s.believed(), s.start)) sharings.delete(key);
    release();
  }
  if (problems.length) throw new Error(problems.join('; '));
}

/**
 * The explorer (suites/explore/explore-contact-info.ts) could not confirm its clean-up of the customer (why): the
 * number is unknown, so the case that leaves the customer last reconciles it (or lists it as a leftover), from what
 * the run's log says may be on record (its updates are in the log like every other: contact-candidates.ts); the
 * e-mail or postal address it could not set back are the restore's to do.
 */
export function couldNotConfirm(
  t: CaseContext,
  key: string,
  why: string | undefined,
  also: { emailChanged?: boolean; postalChanged?: boolean } = {},
): void {
  const s = t.run.get(SHARINGS).get(key)?.onRecord;
  if (!s) return;
  s.emailChanged ||= also.emailChanged === true;
  s.postalChanged ||= also.postalChanged === true;
  if (why !== undefined) s.unknown ??= `the explorer's clean-up could not confirm the number: ${why}`;
}
