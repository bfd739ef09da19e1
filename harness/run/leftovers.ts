import type { CaseReport, Leftover } from '../model';

/** A leftover with the test whose clean-up recorded it. */
export type OpenLeftover = Leftover & { case: string; title: string };

/**
 * What the run changed on the target and could not put back: every leftover a clean-up recorded,
 * except those a later case put back (same key, later time); one per key (the latest).
 */
export function openLeftovers(cases: CaseReport[]): OpenLeftover[] {
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

/** The one block that lists them, for the console and the Markdown summary (plain lines). */
export function leftoversBlock(list: OpenLeftover[]): string[] {
  if (list.length === 0) return [];
  const out = [
    `LEFT ON THE TARGET: ${list.length} thing${list.length === 1 ? '' : 's'} this run changed ` +
      `and could not put back (or could not confirm it did). Restore by hand:`,
  ];
  for (const l of list) {
    out.push(`  ✗ ${l.what}`);
    if (l.now) out.push(`      now: ${l.now}`);
    out.push(`      restore: ${l.restore}`);
    out.push(`      why: ${l.why.split('\n')[0]} (test: ${l.title})`);
  }
  return out;
}
