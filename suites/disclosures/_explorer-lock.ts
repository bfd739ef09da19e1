import type { CaseContext } from '../../harness/case';
import { acquireLock } from '../../harness/lock';

/**
 * The explorer (suites/explore/) and the hand-written tests that write the configured user's records take turns:
 * the explorer's writes by ids no list showed may touch any record of the user, which would leave a hand-written
 * test's "no other record" check without a verdict, and a hand-written write meanwhile is one more write the
 * explorer's sequence would have to account for. Each hand-written writer holds this key shared from its first look
 * at the candidates to the end of its clean-up; the explorer holds it exclusively for its whole run.
 */
const key = (t: CaseContext) => `user-disclosures-explorer|${t.config.baseUrl}|${t.config.testData.institutionUserId}`;

const exploring = new WeakSet<CaseContext>();
const beside = new WeakSet<CaseContext>();

/** A hand-written writer: hold the key shared until the case's clean-ups are done (once per case). */
export async function besideTheExplorer(t: CaseContext): Promise<void> {
  if (exploring.has(t) || beside.has(t)) return;
  beside.add(t);
  const release = await acquireLock(key(t), 'shared');
  t.cleanup('let the explorer run', async () => release());
}

/** The explorer: hold the key exclusively until its clean-ups are done (register before any other clean-up). */
export async function explorerTurn(t: CaseContext): Promise<void> {
  exploring.add(t);
  const release = await acquireLock(key(t), 'exclusive');
  t.cleanup('let the hand-written tests write again', async () => release());
}
