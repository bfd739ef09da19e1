import { slot } from '../../harness/run-state';
import type { DisclosureRef } from '../../data-builders/disclosures';
import type { CaseContext } from '../../harness/case';
import { listInstitutionDisclosures, type Listed } from './_institution-disclosures';

/**
 * What a run has learnt about the configured user's acceptance records, so that its cases do not
 * ask the target again what the run already knows (one memory per run: per client, of which a run
 * has one; t.run):
 *
 * - the institution disclosures operation 1 lists, and the user's records before the run created
 *   any: each listed once, by the first case that needs them (see surveyOnce in _user-records.ts);
 * - disclosures the user has no record for: learnt from that first look, or from a list taken while
 *   holding the disclosure's lock (a case's look before it starts, a clean-up that saw the record
 *   gone); forgotten when a case takes the disclosure to change it, so only a confirmed absence is
 *   ever remembered;
 * - disclosures the user had a record for that this run did not create: never touched, so never
 *   tried again.
 */
interface Knowledge {
  once: Map<string, Promise<unknown>>;
  noRecord: Set<string>;
  notOurs: Set<string>;
}

const KNOWLEDGE = slot<Knowledge>("what the run knows of the user's records", () => ({
  once: new Map(),
  noRecord: new Set(),
  notOurs: new Set(),
}));

function of(t: CaseContext): Knowledge {
  return t.run.get(KNOWLEDGE);
}

/** The lock key of the configured user's record of a disclosure: by the disclosure's id, which a concurrent rename does
 * not change. */
export function recordKey(t: CaseContext, d: DisclosureRef): string {
  const user = t.config.testData.institutionUserId;
  return `user-disclosure|${t.config.baseUrl}|${user}|${d.institutionId}|${d.institutionDisclosureId}`;
}

/**
 * What `fn` gives, asked once per run by the first case that needs it (the exchanges are in that
 * case's report); a case whose wait for another's answer failed asks for itself (that case reported it).
 */
export async function oncePerRun<T>(t: CaseContext, name: string, fn: () => Promise<T>): Promise<T> {
  const k = of(t);
  const pending = k.once.get(name) as Promise<T> | undefined;
  if (pending) {
    try {
      return await pending;
    } catch {
      // asked again below
    }
  }
  const asked = fn();
  k.once.set(name, asked);
  asked.catch(() => {
    if (k.once.get(name) === asked) k.once.delete(name);
  });
  return asked;
}

/**
 * The priority of the requests asked once per run: every case that changes a user disclosure waits
 * for them, so they go before independent requests when every connection slot is busy.
 */
export const ONCE_PER_RUN_PRIORITY = 2;

/** Operation 1's elements, listed once per run. */
export function institutionDisclosuresOnce(t: CaseContext): Promise<Listed[]> {
  return oncePerRun(
    t,
    'institution disclosures',
    async () => (await listInstitutionDisclosures(t, 'list institution disclosures', ONCE_PER_RUN_PRIORITY)).items,
  );
}

/** Held under the disclosure's lock: whether the user is known to have no record, forgetting it (the caller is about to
 * change that). */
export function takeNoRecord(t: CaseContext, d: DisclosureRef): boolean {
  return of(t).noRecord.delete(recordKey(t, d));
}

/** Held under the disclosure's lock: a list showed no record of the user for it. */
export function markNoRecord(t: CaseContext, d: DisclosureRef): void {
  of(t).noRecord.add(recordKey(t, d));
}

/** Whether the user is known to have no record for the disclosure (without forgetting it). */
export function knownNoRecord(t: CaseContext, d: DisclosureRef): boolean {
  return of(t).noRecord.has(recordKey(t, d));
}

/** The user had a record for it that this run did not create. */
export function markNotOurs(t: CaseContext, d: DisclosureRef): void {
  of(t).notOurs.add(recordKey(t, d));
}

export function isNotOurs(t: CaseContext, d: DisclosureRef): boolean {
  return of(t).notOurs.has(recordKey(t, d));
}
