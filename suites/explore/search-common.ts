import fc from 'fast-check';
import { requirement } from '../../requirements';
import type { Reached } from '../../harness/rules/judge-log';

/**
 * What every family's search (search.ts, contact-search.ts, transfer-search.ts, institution-search.ts) does the same
 * way around fast-check: count the verdicts of a run, keep the failures that do not fail it (SHOULD, INFO), shrink a
 * failing tour (fast-check cannot shrink a value it did not generate), read the counterexample, clone the commands.
 */

/** The verdicts that fail a sequence: a failed MUST, and under --strict any failed check. */
export const failing = (verdicts: Reached[], strict: boolean): Reached[] =>
  verdicts.filter((r) => r.verdict.outcome === 'failed' && (strict || requirement(r.requirement).grade === 'MUST'));

/** What a search keeps of every run's verdicts. */
export interface Tally {
  /** A failure under SHOULD or INFO without --strict, per requirement (the first seen). */
  graded: Map<string, Reached>;
  /** Requirements that got a passing verdict, and how many. */
  passed: Map<string, number>;
}

/** Count a run's passing verdicts and keep the first failure of each requirement. */
export function tallyVerdicts(t: Tally, verdicts: Reached[]): void {
  for (const r of verdicts) {
    if (r.verdict.outcome === 'passed') t.passed.set(r.requirement, (t.passed.get(r.requirement) ?? 0) + 1);
    else if (r.verdict.outcome === 'failed' && !t.graded.has(r.requirement)) t.graded.set(r.requirement, r);
  }
}

/** After the search: only the failures that do not fail a sequence stay graded (the others are the finding). */
export function keepGradedOnly(t: Tally, strict: boolean): void {
  for (const k of [...t.graded.keys()]) if (failing([t.graded.get(k)!], strict).length) t.graded.delete(k);
}

/** The last failing run and its commands as fast-check prints them. */
export interface Last<R> {
  run: R;
  commands: string;
}

/**
 * A failing tour, shrunk a command at a time from the last to the first while the rest still fails (`rerun` gives the
 * run, or undefined where it did not fail), at most one run per command, none after the deadline.
 */
export async function shrinkTour<C, R>(
  tour: C[],
  first: R,
  rerun: (commands: C[]) => Promise<R | undefined>,
  deadline: number,
): Promise<Last<R>> {
  let [commands, run] = [tour, first];
  for (let i = commands.length - 1; i >= 0 && Date.now() <= deadline; i--) {
    const fewer = commands.filter((_, j) => j !== i);
    const again = await rerun(fewer);
    if (again !== undefined) [commands, run] = [fewer, again];
  }
  return { run, commands: commands.map(String).join(',') };
}

/** The counterexample fast-check reports: the commands, the seed, the replay path and fast-check's replay text. */
export function counterexample<R>(
  details: { failed: boolean; counterexamplePath?: string | null },
  last: Last<R> | undefined,
  seed: number,
) {
  if (!details.failed || !last) return undefined;
  const [shown = '', replay = ''] = last.commands.split(' /*');
  const commands = shown.split(',').filter(Boolean);
  const path = details.counterexamplePath ?? '';
  return { commands, seed, path, replay: replay.replace(/\*\/$/, ''), run: last.run };
}

/** The same commands, to run again from a clean state (fast-check's clone of a commands sequence; a tour is an
 * array). */
export function cloneCommands<C>(commands: Iterable<C>): Iterable<C> {
  const c = commands as unknown as Record<symbol, () => Iterable<C>>;
  return typeof c[fc.cloneMethod] === 'function' ? c[fc.cloneMethod]!() : commands;
}
