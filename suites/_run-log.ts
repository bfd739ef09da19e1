import { afterAll, inject } from 'vitest';
import type { RunnerTestFile, RunnerTestSuite } from 'vitest';
import type { CaseReport } from '../harness/model';
import { knownFromConfig, RUN_LOG } from '../harness/log/run-log';
import { failuresOverTheLog, runLogReports } from '../harness/verdict/run-log-verdicts';
import { workerClient } from '../harness/run/worker';
import { stateCoverage, type StateCoverage } from '../harness/state/coverage';

declare module 'vitest' {
  interface TaskMeta {
    /** On the file: the tests the run's whole log adds (harness/verdict/run-log-verdicts.ts). */
    dbsiRunLog?: CaseReport[];
    /** On the file: the transitions of the state its log took and read back (harness/state/coverage/). */
    dbsiStateCoverage?: StateCoverage;
  }
}

/** The reports of the cases that ran in this file so far. */
function reportsOf(suite: RunnerTestFile | RunnerTestSuite): CaseReport[] {
  return suite.tasks.flatMap((t) => (t.type === 'suite' ? reportsOf(t) : t.meta.dbsi ? [t.meta.dbsi] : []));
}

/**
 * Once every case of the file ran (their clean-ups too): the run's log judged whole, the way a capture is
 * (issue 32). The verdicts the cases do not carry as failed go to the main process on the file's meta.
 */
export function registerRunLogJudge(): void {
  afterAll(({}, file) => {
    const { settings, parallelAreas } = inject('dbsi');
    const client = workerClient(settings, parallelAreas);
    const log = client.run.get(RUN_LOG);
    const failures = failuresOverTheLog(log, knownFromConfig(settings.config));
    // The requests without an answer count too: a write that may have landed is read back by no later read.
    file.meta.dbsiStateCoverage = stateCoverage([...log.judged(), ...log.withUnanswered().filter((s) => !s.x.status)]);
    const cases = reportsOf(file as RunnerTestFile);
    file.meta.dbsiRunLog = runLogReports(failures, {
      cases,
      strict: settings.strict,
      redactor: client.redactor,
      config: settings.config,
    });
  });
}
