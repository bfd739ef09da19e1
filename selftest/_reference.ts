import { CaseContext, runCase, type RunSettings } from '../harness/case';
import { secretValues, type TargetConfig } from '../harness/config';
import { DbsiClient } from '../harness/http/client';
import type { Area, CaseReport } from '../harness/model';
import { Redactor } from '../harness/redact';
import { referenceConfig } from '../reference-target/config';
import { FIXTURE_SETS, type FixtureSetName } from '../reference-target/fixture-sets';
import { startReferenceTarget, type ReferenceTarget } from '../reference-target/server';
import { FEATURES_BY_AREA } from '../suites';
import { regradeCase, SetupProof } from '../harness/setup/proof';
import { knownFromConfig, RUN_LOG } from '../harness/log/run-log';
import { failuresOverTheLog, runLogReports } from '../harness/verdict/run-log-verdicts';

export interface AreaRun {
  cases: CaseReport[];
  target: ReferenceTarget;
  /** Requirement ids with a failed check that fails the run (MUST, or any grade under strict). */
  failed: Set<string>;
  /** The configuration the cases ran with. */
  config: TargetConfig;
}

/**
 * Run the cases of some areas in-process (no vitest registration, no Allure) against a fresh
 * reference target with the given faults: the same code path as a real run, minus the reporting.
 */
export async function runAreas(opts: {
  areas: Area[];
  faults?: string[];
  strict?: boolean;
  seed?: number;
  /** The explorer's budget (default: the embedded target's). */
  explore?: RunSettings['explore'];
  allow?: Partial<Record<keyof TargetConfig['allow'], boolean>>;
  http?: Record<string, unknown>;
  configure?: (cfg: TargetConfig) => TargetConfig | Promise<TargetConfig>;
  /** What the target holds at the start (default: the generous default fixtures). */
  fixtures?: FixtureSetName;
  /** One case at a time, in the order of the suites (as a run at --concurrency 1), instead of all at once. */
  sequential?: boolean;
  /** The verdicts as the cases gave them, before the run's setup proofs re-grade them. */
  asSent?: boolean;
  /** The target's spike arrest (requests per second, then 500 CMN_90002; see reference-target/server.ts). */
  throttlePerSecond?: number;
  /** Judged as a --reference run is: the setup is the suite's own, a refusal is never blamed on it. */
  embedded?: boolean;
  /** Leave out the tests the run's whole log adds (harness/verdict/run-log-verdicts.ts): the cases' own verdicts. */
  casesOnly?: boolean;
}): Promise<AreaRun> {
  const { faults = [], fixtures, throttlePerSecond } = opts;
  const target = await startReferenceTarget({ faults, fixtures, throttlePerSecond });
  try {
    let config = referenceConfig(target, {
      allow: opts.allow as Record<string, boolean>,
      http: opts.http,
      testData: opts.fixtures && FIXTURE_SETS[opts.fixtures].testData,
    });
    if (opts.configure) config = await opts.configure(config);
    const settings: RunSettings = {
      config,
      seed: opts.seed ?? 1234,
      strict: opts.strict ?? false,
      runId: 'rtst',
      specUrl: 'spec.md',
      ...(opts.explore ? { explore: opts.explore } : {}),
    };
    const client = new DbsiClient(config, new Redactor(secretValues(config)));
    const all = opts.areas.flatMap((a) =>
      FEATURES_BY_AREA[a].flatMap((f) => f.cases.map((c) => () => runCase(new CaseContext(settings, client, f, c)))),
    );
    const sent: CaseReport[] = [];
    if (opts.sequential) for (const run of all) sent.push(await run());
    else sent.push(...(await Promise.all(all.map((run) => run()))));
    await client.close();
    // As the main command does: the whole run's log judged the way a capture is, beside the cases' own verdicts.
    if (!opts.casesOnly) {
      const failures = failuresOverTheLog(client.run.get(RUN_LOG), knownFromConfig(config));
      sent.push(
        ...runLogReports(failures, { cases: sent, strict: settings.strict, redactor: client.redactor, config }),
      );
    }
    // As the main command does: a verdict the setup may explain is could not test (harness/setup/proof.ts).
    const proof = new SetupProof(sent, { embedded: opts.embedded });
    const cases = opts.asSent ? sent : sent.map((c) => regradeCase(c, proof));
    const failed = new Set(
      cases.flatMap((c) =>
        c.checks
          .filter((k) => k.outcome === 'failed' && (k.grade === 'MUST' || settings.strict))
          .map((k) => k.requirement),
      ),
    );
    return { cases, target, failed, config };
  } finally {
    await target.close();
  }
}

/** One line per case that did not pass, for assertion messages. */
export function explain(cases: CaseReport[]): string {
  return cases
    .filter((c) => c.outcome !== 'passed')
    .map((c) => `${c.outcome}: ${c.id}: ${(c.reason ?? '').split('\n').slice(0, 3).join(' / ')}`)
    .join('\n');
}
