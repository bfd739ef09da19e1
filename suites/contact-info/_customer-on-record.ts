import { slot } from '../../harness/run-state';
import type { CaseContext } from '../../harness/case';
import { TransportError } from '../../harness/http/client';
import { acquireLock, type LockMode } from '../../harness/lock';
import { samePhone, type Phone } from './_phone-on-record';

/**
 * What the run knows is on record for one configured customer, and which cases hold or wait for it:
 * per run, per customer, not per case (the state lives in the process; every case of a run runs in
 * one worker).
 *
 * Cases that change the phone number hold the customer's lock exclusively, one after another; cases
 * that only send requests a conformant target refuses hold it shared, side by side (harness/lock.ts).
 * A case does not set the customer back when it leaves while other cases hold or wait for it: it
 * hands on what it put on record, and the next case starts from there. The last case out restores
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
  /** The phone (number and country code) the run believes is on record (whether the run's log proves it, and which
   * exchange shows it, are queries on the log: harness/state/contact-on-record.ts). */
  phone: Phone;
  /** The phones the explorer handed on (mayHavePut: every number its sequence used, "" where it suspects a clear),
   * since the last confirmed restore, oldest first. Which phones the cases' updates may have put on record is the
   * run log's (harness/state/contact-candidates.ts; the restore reads both). */
  mayBe: Phone[];
  /** The phone on record may be other than `phone` (an update with an unknown outcome, or one that should have been
   * refused and was accepted, or a read-back refused after an update without the phone): the run log says which it
   * may be (harness/state/contact-candidates.ts). */
  uncertain: boolean;
  emailChanged: boolean;
  postalChanged: boolean;
  /** A restore could not confirm the number (why): whoever holds the customer next reconciles first. */
  unknown?: string;
}

/** What the configuration says is on record. */
export function asConfigured(start: Phone): OnRecord {
  return {
    phone: start,
    mayBe: [],
    uncertain: false,
    emailChanged: false,
    postalChanged: false,
  };
}

/** Whether the phone on record is the one the run believes (not necessarily confirmed). */
export const phoneBelieved = (s: OnRecord): boolean => !s.uncertain && s.unknown === undefined;

/** Whether nothing is left to restore: the configured phone, confirmed or untouched, and the configured e-mail and
 * postal address. */
export const asFound = (s: OnRecord, start: Phone): boolean =>
  phoneBelieved(s) && samePhone(s.phone, start) && s.mayBe.length === 0 && !s.emailChanged && !s.postalChanged;

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
  start: Phone,
  mode: LockMode,
  settle: (s: OnRecord) => Settle,
): Promise<OnRecord> {
  const sharings = t.run.get(SHARINGS);
  let s = sharings.get(key);
  if (!s) sharings.set(key, (s = { start, onRecord: asConfigured(start), members: 0, holders: 0 }));
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
 * cases waiting and the phone as the run believes, it hands on; with the phone uncertain, or after
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
      if (s.members > 0 && phoneBelieved(s.onRecord) && (!failed || round > 0)) break;
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
    if (s.members === 0 && s.holders === 0 && asFound(s.onRecord, s.start)) sharings.delete(key);
    release();
  }
  if (problems.length) throw new Error(problems.join('; '));
}

/**
 * Requests the case sent with its own client (the explorer, suites/explore/contact-*.ts) may have left any of
 * `phones` on record, and no update confirmed which: the phone is uncertain, so the case that leaves the customer
 * last reconciles it from them (or lists it as a leftover); `cleared`: also "" (the explorer's own suspicion, an
 * accepted update without the phone, which the run log alone does not show as a clear).
 */
export function mayHavePut(
  t: CaseContext,
  key: string,
  phones: Phone[],
  also: { cleared?: boolean; emailChanged?: boolean; postalChanged?: boolean } = {},
): void {
  const s = t.run.get(SHARINGS).get(key)?.onRecord;
  if (!s) return;
  s.emailChanged ||= also.emailChanged === true;
  s.postalChanged ||= also.postalChanged === true;
  const all = also.cleared ? [...phones, { number: '', countryCode: s.phone.countryCode }] : phones;
  if (all.length === 0) return;
  for (const p of all) if (!s.mayBe.some((q) => samePhone(p, q))) s.mayBe.push(p);
  s.uncertain = true;
}
