import type { TestModule } from 'vitest/node';
import type { CaseReport } from '../model';
import { ROOT } from './common';
import type { StateCoverage } from '../contract-coverage/states';

/** A reporter of the active run: the tests' reports, the run log's tests, and what failed outside the tests. */
export class Collector {
  cases: CaseReport[] = [];
  fromRunLog: CaseReport[] = [];
  /** Each test file's state coverage (suites/_run-log.ts). */
  states: StateCoverage[] = [];
  problems: string[] = [];
  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<{ message?: string }>) {
    for (const m of modules) {
      this.fromRunLog.push(...(m.meta().dbsiRunLog ?? []));
      const states = m.meta().dbsiStateCoverage;
      if (states) this.states.push(states);
      for (const t of m.children.allTests()) {
        const report = t.meta().dbsi;
        if (report) this.cases.push(report);
        else if (t.result().state === 'failed')
          this.problems.push(`suite error in "${t.fullName}": ` + `${t.result().errors?.[0]?.message ?? 'unknown'}`);
      }
      for (const e of m.errors()) this.problems.push(`suite error in ${m.moduleId.replace(ROOT, '')}: ${e.message}`);
    }
    for (const e of errors) this.problems.push(`suite error: ${e.message ?? String(e)}`);
  }
}
