import type { DisclosureRef } from '../../data-builders/disclosures';
import type { CaseContext } from '../../harness/case';
import { acquireLock, lockLoad } from '../../harness/lock';
import { caseKnows, isNotOurs, knownNoRecord, recordKey } from './_known-records';
import { removeRecord } from './_remove-record';
import { disclosureCandidates, usableAfterLooking } from './_user-records';

/**
 * Two disclosures the user has no record for (one where only one is free), the ones fewest other
 * cases hold or wait for, each held exclusively to the end of the runner's clean-up, which deletes
 * whatever record of the user the life leaves on them.
 */
export async function takeDisclosures(
  t: CaseContext,
): Promise<{ disclosures: [DisclosureRef, DisclosureRef | undefined]; release: (d: DisclosureRef) => void }> {
  const all = await disclosureCandidates(t);
  const taken: DisclosureRef[] = [];
  const tried = new Set<DisclosureRef>();
  const releases = new Map<DisclosureRef, () => void>();
  /** Released before the clean-up, with no record of the user left on it (known): nothing to clean up there. */
  const freed = new Set<DisclosureRef>();
  t.cleanup('release the locks on the user disclosures', async () => releases.forEach((release) => release()));
  while (taken.length < 2) {
    const pending = all.filter((c) => !tried.has(c) && !isNotOurs(t, c));
    if (pending.length === 0) break;
    // Queued for both at once, so that the cases that need one disclosure see them taken and queue elsewhere (or
    // after).
    const picks = [...pending]
      .sort((x, y) => lockLoad(recordKey(t, x)) - lockLoad(recordKey(t, y)))
      .slice(0, 2 - taken.length);
    const locks = picks.map((c) => acquireLock(recordKey(t, c)));
    for (const [i, c] of picks.entries()) {
      tried.add(c);
      const release = await locks[i]!;
      t.priority = 1; // every other user-disclosure case may wait for this one
      if (knownNoRecord(t, c) || (await usableAfterLooking(t, c))) {
        releases.set(c, release);
        // A (the first) is where the readers at the end of the life send their requests: where one was served (or not
        // answered), the run's log shows the record is no longer as the life left it, and the clean-up looks first.
        t.cleanup(`delete the acceptance record of "${c.institutionDisclosureName}" if it is still there`, async () => {
          if (freed.has(c)) return;
          await removeRecord(t, c, caseKnows(t, c));
        });
        taken.push(c);
      } else {
        release();
      }
    }
  }
  const [a, b] = taken;
  if (!a)
    t.notApplicable(
      `the user already has an acceptance record for ` +
        `${t.config.testData.disclosure ? 'the configured testData.disclosure' : 'every listed disclosure'}; ` +
        `the suite does not alter records it did not create`,
    );
  await t.parameter('institutionDisclosureName', a.institutionDisclosureName);
  if (b) await t.parameter('second institutionDisclosureName', b.institutionDisclosureName);
  return {
    disclosures: [a, b],
    release: (d) => {
      freed.add(d);
      releases.get(d)?.();
    },
  };
}
