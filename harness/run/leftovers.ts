import type { CaseReport, Leftover } from '../model';

/** A leftover with the test whose clean-up recorded it. */
export type OpenLeftover = Leftover & { case: string; title: string };

/** Every leftover recorded, except those a later case put back (same key, later time); one per key (the latest). */
function latestOpen(cases: CaseReport[]): OpenLeftover[] {
  const latest = new Map<string, OpenLeftover>();
  for (const c of cases) {
    for (const l of c.leftovers ?? []) {
      const seen = latest.get(l.key);
      if (!seen || seen.at <= l.at) latest.set(l.key, { ...l, case: c.id, title: c.title });
    }
  }
  const putBack = cases.flatMap((c) => c.resolvedLeftovers ?? []);
  return [...latest.values()]
    .filter((l) => !putBack.some((p) => p.key === l.key && p.at > l.at))
    .sort((a, b) => a.key.localeCompare(b.key));
}

/**
 * What the run changed on the target and could not put back: every leftover a clean-up recorded,
 * except those a later case put back (same key, later time); one per key (the latest). Not the values set back
 * to the configured ones (setToConfigured): no restore is owed for those.
 */
export function openLeftovers(cases: CaseReport[]): OpenLeftover[] {
  return latestOpen(cases).filter((l) => !l.unconfirmable);
}

/**
 * What the run set back to the values the operator configured as on record (an e-mail or postal address): the
 * interface cannot confirm what was there before. Listed with the leftovers every time; the exit code ignores them.
 */
export function setToConfigured(cases: CaseReport[]): OpenLeftover[] {
  return latestOpen(cases).filter((l) => l.unconfirmable);
}

/** The one block that lists them, for the console, the Markdown summary and the HTML report (plain lines). */
export function leftoversBlock(list: OpenLeftover[], set: OpenLeftover[] = []): string[] {
  const out: string[] = [];
  if (list.length)
    out.push(
      `LEFT ON THE TARGET: ${list.length} thing${list.length === 1 ? '' : 's'} this run changed ` +
        `and could not put back (or could not confirm it did). Restore by hand:`,
    );
  for (const l of list) {
    out.push(`  ✗ ${l.what}`);
    if (l.now) out.push(`      now: ${l.now}`);
    out.push(`      restore: ${l.restore}`);
    out.push(`      why: ${l.why.split('\n')[0]} (test: ${l.title})`);
  }
  if (set.length)
    out.push(
      `SET TO THE CONFIGURED VALUES: ${set.length} thing${set.length === 1 ? '' : 's'} this run changed and set ` +
        'back to the configured values; the interface cannot confirm what was there before:',
    );
  for (const l of set) {
    out.push(`  ! ${l.what}: ${l.now ?? ''}`);
    out.push(`      restore: ${l.restore}`);
  }
  return out;
}
