import type { CaseContext } from './case';
import { pass } from './checks';
import type { Reached } from './rules/judge-log';

/**
 * The verdicts the model-based explorer (suites/explore/) brings back, recorded on its test: what the rules
 * reached on the explored logs (harness/rules/judge-log.ts), the driver stating none of them.
 */
export interface Explored {
  /** The requirements the test declares: a verdict on another is left to the tests that declare it. */
  declared: readonly string[];
  /** Sequences run. */
  runs: number;
  /** Verdicts that failed on the replay of the shrunk sequence, and what a failure's text adds (the sequence). */
  failed?: { verdicts: Reached[]; text: string };
  /** Failures that fail a run only under --strict (SHOULD, INFO), one per requirement. */
  graded: Reached[];
  /** Requirements with passing verdicts, and how many. */
  passed: Array<[string, number]>;
}

/** Record them: a failed MUST ends the test (CaseContext.verify); a passing requirement gets one check. */
export function holdExplored(t: CaseContext, e: Explored): void {
  const mine = (r: Reached) => e.declared.includes(r.requirement);
  for (const r of e.failed?.verdicts.filter(mine) ?? [])
    t.verify(r.requirement, { ...r.verdict, received: `${r.verdict.received ?? ''}${e.failed!.text}` });
  for (const r of e.graded.filter(mine)) t.verify(r.requirement, r.verdict);
  const sequences = `${e.runs} sequence${e.runs === 1 ? '' : 's'}`;
  for (const [id, n] of e.passed.filter(([id]) => e.declared.includes(id)))
    t.verify(id, pass('explored_sequences', `held on ${n} verdict${n === 1 ? '' : 's'} over ${sequences}`));
}
