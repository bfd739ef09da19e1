import { scannedSecrets } from '../config';
import type { RunFacts } from '../evidence/summary';
import type { CaseReport } from '../model';
import type { Collector } from './collector';
import { mergeStateCoverage } from '../contract-coverage/states';
import { CATEGORIES, suiteVersion } from './common';
import type { RunControl } from './run-control';
import { AllureReporter, caseId, coverageOf, FEATURES_BY_AREA, finishRun, plural, regradeCase } from './run-parts';
import { reportWithoutRun, reviseResult, selects, SetupProof, setupFindings, writeAllureResults } from './run-parts';
import { addRunLogTests } from './run-log-tests';
import type { ActiveRun } from './run-setup';

/** An active run once its runner is over (or was stopped): what reported, and how it stopped. */
export interface RunOver {
  run: ActiveRun;
  collector: Collector;
  /** The tests stopped by the preflight (every origin refused connections). */
  unreachable?: { cases: CaseReport[] };
  control: RunControl;
  allureReporter: AllureReporter;
}

/**
 * Every selected test gets a verdict, the setup proofs re-grade them, and the one finish (harness/run/finish.ts)
 * writes the reports. Returns the exit code.
 */
export async function finishActiveRun(o: RunOver): Promise<number> {
  const { run, collector, control } = o;
  const { opts, target, io, redactor, shown, seed, settings, startedAt, resultsDir, environmentInfo } = run;
  const { declared, notFromRunner } = reportTheUnreported(o);
  addRunLogTests(collector.fromRunLog, { cases: collector.cases, declared, notFromRunner });
  // A verdict that the operator's setup may explain (a credential never served, a base URL that
  // served nothing, a refusal without its control) is no verdict on the target: could not test.
  const proof = new SetupProof(collector.cases, { embedded: !!target.reference });
  const judged = collector.cases.map((c) => regradeCase(c, proof)).sort((a, b) => a.id.localeCompare(b.id));
  const { waiverFile } = run.local;
  return finishRun({
    cases: judged,
    declared,
    coverageOf: (cases) => coverageOf(cases, run.activeAreas),
    diagnose: (cases) => setupFindings(cases, proof),
    facts: activeFacts(run),
    startedAt,
    problems: collector.problems,
    interrupted: control.interrupted,
    ...(waiverFile ? { waivers: { file: waiverFile, now: startedAt } } : {}),
    previous: run.local.previous,
    config: target.config,
    stateCoverage: mergeStateCoverage(collector.states),
    verdictTail: (ms, cases) => `${plural(cases.length, 'test')} in ${(ms / 1000).toFixed(1)} s, seed ${seed}`,
    async writeAllure(cases) {
      const byId = new Map(cases.map((c) => [c.id, c]));
      await o.allureReporter.flush((r) => reviseResult(r, byId));
      const unreported = cases.filter((c) => notFromRunner.has(c.id));
      if (unreported.length)
        await writeAllureResults(resultsDir, unreported, { settings, environmentInfo, categories: CATEGORIES });
    },
    previousResultsRemoved: run.previousResultsRemoved,
    out: {
      dir: run.reportsDir,
      shownDir: opts.reports,
      junitName: `dbsi-conformance ${target.reference ? 'embedded reference target' : shown.name}`,
      html: opts.html,
      bundle: opts.bundle,
      secrets: scannedSecrets(target.config, run.env),
      sign: run.local.signing,
    },
    strict: opts.strict,
    io,
    redactor,
  });
}

/**
 * Cases in selected areas that never reported (a cancelled run, a file that did not load) get a verdict, and the
 * tests the runner never reported (stopped by the preflight, an interruption, --bail) are named: Allure gets them
 * too. With them, per requirement, the tests that declare it.
 */
function reportTheUnreported(o: RunOver): { declared: Map<string, string[]>; notFromRunner: Set<string> } {
  const { collector, control } = o;
  const { opts, filter } = o.run;
  const reported = new Set(collector.cases.map((c) => c.id));
  const notFromRunner = new Set(o.unreachable?.cases.map((c) => c.id) ?? []);
  const declared = new Map<string, string[]>();
  for (const [area, features] of Object.entries(FEATURES_BY_AREA)) {
    for (const f of features) {
      for (const c of f.cases) {
        for (const r of c.requirements) declared.set(r, [...(declared.get(r) ?? []), caseId(f, c)]);
        if (!opts.areas.includes(area as never) || !selects(filter, f, c) || reported.has(caseId(f, c))) continue;
        // Every selected test gets a verdict, also one that never reported.
        const { interrupted, bailed } = control;
        const reason = interrupted
          ? 'could not test: the run was interrupted ' + 'before this test finished'
          : bailed
            ? `could not test: not run, --bail ` + `${opts.bail} stopped the run`
            : 'suite error: this test did not report (see the ' + 'problems outside the tests)';
        collector.cases.push(reportWithoutRun(f, c, interrupted || bailed ? 'could-not-test' : 'error', reason));
        notFromRunner.add(caseId(f, c));
      }
    }
  }
  return { declared, notFromRunner };
}

/** What the summary says of the run: the target as shown, the suite, the spec, the seed and the selection. */
function activeFacts(run: ActiveRun): Omit<RunFacts, 'exitCode' | 'verdict' | 'durationMs' | 'problems'> {
  const { opts, target, shown } = run;
  return {
    target: {
      name: target.reference ? 'embedded reference target' : shown.name,
      baseUrl: shown.baseUrl,
      authBaseUrl: shown.authBaseUrl,
      transfersBaseUrl: shown.transfersBaseUrl,
      embedded: !!target.reference,
      faults: opts.faults,
    },
    suiteVersion: suiteVersion(),
    spec: {
      file: 'spec/digital-banking-service-interface.md',
      sha256: run.environmentInfo['spec sha256']!,
      url: run.settings.specUrl,
    },
    seed: run.seed,
    strict: opts.strict,
    areas: opts.areas,
    filter: run.filter,
    startedAt: run.startedAt.toISOString(),
    node: process.version,
  };
}
