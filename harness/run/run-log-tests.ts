import type { CaseReport } from '../model';

/**
 * The tests the run's whole log adds (issue 32; harness/verdict/run-log-verdicts.ts, judged in the worker once every
 * case ran and handed over on the file's meta): each joins the run's tests, declares its requirement (so that
 * the requirement's row reads it) and has no vitest test of its own (its Allure result is written at the end).
 */
export function addRunLogTests(
  fromRunLog: readonly CaseReport[],
  run: { cases: CaseReport[]; declared: Map<string, string[]>; notFromRunner: Set<string> },
): void {
  for (const c of fromRunLog) {
    for (const r of c.requirements) run.declared.set(r, [...(run.declared.get(r) ?? []), c.id]);
    run.cases.push(c);
    run.notFromRunner.add(c.id);
  }
}
