import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { CaseContext, runCase, type RunSettings } from '../harness/case';
import { resolveConfig, secretValues, type TargetConfig } from '../harness/config';
import { EXPLORE_CONFIGURED, type ExploreSettings } from '../harness/explore-settings';
import { DbsiClient } from '../harness/http/client';
import { knownFromConfig, RUN_LOG } from '../harness/log/run-log';
import type { Area, CaseReport } from '../harness/model';
import { Redactor } from '../harness/redact';
import { openLeftovers, setToConfigured } from '../harness/run/leftovers';
import { exitCodeFor } from '../harness/run/results';
import { unremovableRecords } from '../harness/run/unremovable';
import { regradeCase, SetupProof } from '../harness/setup/proof';
import { failuresOverTheLog, runLogReports } from '../harness/verdict/run-log-verdicts';
import { referenceConfigFile } from '../reference-target/config';
import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { startReferenceTarget } from '../reference-target/server';
import type { ReferenceState } from '../reference-target/state';
import { FEATURES_BY_AREA } from '../suites';
import { changes, listed, snapshot, unlisted, type HostileRun, type Snapshot, type TestData } from './_safety-holdout';
import { startHostileTarget, type HostilePlan, type HostileRequest } from './_safety-holdout-proxy';
import { runMain } from './_main';
import { MILLISECOND_TIMINGS } from './_timings';

/**
 * Session 41's safety hold-out set (docs/what-the-suite-changes.md, "A hold-out set (session 41)"), written from the
 * spec, the README, the configuration guide and the example alone. As session 40's (selftest/_safety-holdout.ts,
 * whose snapshot and listing it reads), each row runs against the reference target behind a hostile proxy on
 * 127.0.0.1 with a configuration as an operator wrote it, and compares the target's own state (ReferenceState) before
 * and after. Beyond it: a plan that sees the target's state (another process changing a customer during the run), the
 * explorer's budget of a configured target, a second run on what the first left, and the main command itself with its
 * options (`cli`: --bail, --seed, --fault), reading what it listed from conformance-summary.json.
 */
export interface Row5 {
  id: string;
  what: string;
  areas: Area[];
  /** The target's data at the end: as before the (first) run; changed and every change listed; or either. */
  end: 'as found' | 'changed, listed' | 'as found or listed';
  /** The exit codes an honest run may end with (of the last run, where there are two). */
  exit: number[];
  /** What the suite did before session 41's fixes (the "before" table); `unsafe` marks it so. */
  before?: string;
  unsafe?: boolean;
  /** Still unsafe after the fixes (the test states the safe outcome and is expected to fail): why. */
  left?: string;
  /** The proxy's plan, afresh for each run; it sees the target's state (another process may change it). */
  plan?: (ctl: { interrupt: () => void; state: ReferenceState }) => HostilePlan;
  testData?: (td: TestData) => void;
  prepare?: (s: ReferenceState) => void;
  allow?: Partial<Record<keyof TargetConfig['allow'], boolean>>;
  http?: Record<string, unknown>;
  faults?: string[];
  /** The explorer's budget (default: a configured target's, as the main command gives it). */
  explore?: ExploreSettings;
  /** Run through the main command with these arguments (a configuration file), instead of in-process. */
  cli?: string[];
  /** A second run on the same target after the first, with its own plan (default: every request passed on). */
  again?: { plan?: Row5['plan']; cli?: string[] };
  /** The main command's runs share one reports folder (as a person running twice in a checkout). */
  sameReports?: boolean;
  /** What else the row asserts of the run (e.g. which requests were sent). */
  check?: (r: Run5) => void;
}

const FORWARD_ALL: HostilePlan = () => ({ kind: 'forward' });

function fileFor(urls: Record<string, string>, row: Row5): Record<string, unknown> {
  const td = structuredClone(REFERENCE_TEST_DATA) as TestData;
  td.moreCustomers = [];
  row.testData?.(td);
  const file = referenceConfigFile(
    { urls: urls as never },
    {
      allow: { moneyMovement: false, tokenRevocation: false, institutionDisclosureWrites: false, ...row.allow },
      http: { timeoutMs: 5_000, concurrency: 8, ...row.http },
      testData: td as typeof REFERENCE_TEST_DATA,
    },
  );
  return { ...file, name: 'a bank sandbox', credentials: { ...REFERENCE_CREDENTIALS } };
}

/** A row's runs: what the target held before, after the first run and at the end, and what each run listed. */
export type Run5 = HostileRun & { runs: OneRun[]; afterFirst: Snapshot };

interface OneRun {
  cases: CaseReport[];
  leftovers: HostileRun['leftovers'];
  setToConfigured: HostileRun['setToConfigured'];
  unremovable: HostileRun['unremovable'];
  exitCode: number;
  /** What the main command printed (a run through it). */
  stdout?: string;
}

/** The selected areas in-process, as the main command runs them (minus the writers); ownTarget off. */
async function inProcess(file: Record<string, unknown>, row: Row5, plan: { stop: AbortController }): Promise<OneRun> {
  const config: TargetConfig = { ...resolveConfig(file, {}), ownTarget: false };
  const explore = row.explore ?? EXPLORE_CONFIGURED;
  const settings: RunSettings = { config, seed: 41, strict: false, runId: 'rs41', specUrl: 'spec.md', explore };
  const client = new DbsiClient(config, new Redactor(secretValues(config)), { timings: MILLISECOND_TIMINGS });
  const sent = await Promise.all(
    row.areas.flatMap((a) =>
      FEATURES_BY_AREA[a].flatMap((f) =>
        f.cases.map((c) => runCase(new CaseContext(settings, client, f, c, undefined, plan.stop.signal))),
      ),
    ),
  );
  await client.close();
  const failures = failuresOverTheLog(client.run.get(RUN_LOG), knownFromConfig(config));
  sent.push(...runLogReports(failures, { cases: sent, strict: false, redactor: client.redactor, config }));
  const proof = new SetupProof(sent);
  const cases = sent.map((c) => regradeCase(c, proof));
  return {
    cases,
    leftovers: openLeftovers(cases),
    setToConfigured: setToConfigured(cases),
    unremovable: unremovableRecords(cases),
    exitCode: plan.stop.signal.aborted ? 130 : exitCodeFor(cases),
  };
}

/** The main command with a configuration file, its listing read from conformance-summary.json. */
async function throughMain(file: Record<string, unknown>, row: Row5, args: string[]): Promise<OneRun> {
  const areas = row.areas.flatMap((a) => ['--area', a]);
  const r = await runMain([...areas, ...args], { raw: file, timeoutMs: 200_000 });
  let summary: Record<string, any> = {};
  try {
    const at = args.includes('--reports') ? args[args.lastIndexOf('--reports') + 1]! : r.reports;
    summary = JSON.parse(readFileSync(join(at, 'conformance-summary.json'), 'utf8'));
  } catch {
    // No summary (a usage error): nothing was listed.
  }
  return {
    cases: summary.cases ?? [],
    leftovers: summary.leftovers ?? [],
    setToConfigured: summary.setToConfigured ?? [],
    unremovable: summary.unremovable ?? [],
    exitCode: r.code,
    stdout: r.stdout,
  };
}

async function oneRun(
  row: Row5,
  file: Record<string, unknown>,
  state: ReferenceState,
  given: { plan?: Row5['plan']; cli?: string[] },
  setPlan: (p: HostilePlan) => void,
): Promise<OneRun> {
  const stop = new AbortController();
  const interrupt = () => void setTimeout(() => stop.abort(new Error('the run was cancelled')), 0);
  setPlan(given.plan?.({ interrupt, state }) ?? FORWARD_ALL);
  return given.cli ? throughMain(file, row, given.cli) : inProcess(file, row, { stop });
}

/** Run the row (and its second run), and what the target holds before and after. */
export async function runRow(row: Row5): Promise<Run5> {
  const target = await startReferenceTarget({ faults: row.faults ?? [] });
  let current: HostilePlan = FORWARD_ALL;
  const hostile = await startHostileTarget((r) => current(r), { target, lifetimeMs: 240_000 });
  try {
    const state = hostile.target.state;
    row.prepare?.(state);
    const before: Snapshot = snapshot(state);
    const file = fileFor(hostile.urls, row);
    const set = (p: HostilePlan) => (current = p);
    const reports = row.sameReports ? ['--reports', mkdtempSync(join(tmpdir(), 'dbsi-h5-'))] : [];
    const cli = (args?: string[]) => args && [...args, ...reports];
    const runs = [await oneRun(row, file, state, { plan: row.plan, cli: cli(row.cli) }, set)];
    const afterFirst = snapshot(state);
    if (row.again) runs.push(await oneRun(row, file, state, { ...row.again, cli: cli(row.again.cli) }, set));
    const last = runs[runs.length - 1]!;
    return {
      before,
      after: snapshot(state),
      cases: runs.flatMap((r) => r.cases),
      // What any of the runs listed: a leftover the first listed stays listed for the operator.
      leftovers: runs.flatMap((r) => r.leftovers),
      setToConfigured: runs.flatMap((r) => r.setToConfigured),
      unremovable: runs.flatMap((r) => r.unremovable),
      exitCode: last.exitCode,
      seen: hostile.seen,
      runs,
      afterFirst,
    };
  } finally {
    await hostile.close();
  }
}

/** The requests that carried a newCountryCode. */
export const countryCodesSent = (seen: HostileRequest[]): HostileRequest[] =>
  seen.filter((r) => r.path.includes(':contact-info') && typeof r.json.phoneNumber?.newCountryCode === 'string');

/**
 * The row's verdict: the end it states, every change listed, an exit code an honest run may have, no exit 0 or 5
 * while something owed a restore is left (in the last run), and what the row checks besides.
 */
export async function expectSafe5(row: Row5): Promise<void> {
  const r = await runRow(row);
  const changed = changes(r.before, r.after);
  const said = `changed:\n${changed.join('\n')}\nlisted:\n${listed(r).join('\n')}`;
  if (process.env.S5_DEBUG) console.log(`${row.id} exit ${r.exitCode}\n${said}\n${outcomes(r.cases)}`);
  if (process.env.S5_DEBUG === 'seen') console.log(r.seen.map((x) => `${x.method} ${x.path} ${x.body}`).join('\n'));
  if (row.end === 'as found') expect(changed, said).toEqual([]);
  if (row.end === 'changed, listed') expect(changed.length, said).toBeGreaterThan(0);
  expect(unlisted(r), said).toEqual([]);
  expect(row.exit, `exit ${r.exitCode}; ${said}`).toContain(r.exitCode);
  const last = r.runs[r.runs.length - 1]!;
  if (last.leftovers.length > 0) expect([0, 5], said).not.toContain(last.exitCode);
  row.check?.(r);
}

/** Each outcome and how many cases had it, then the could-not-test and failed ones (for S5_DEBUG). */
function outcomes(cases: CaseReport[]): string {
  const n = new Map<string, number>();
  for (const c of cases) n.set(c.outcome, (n.get(c.outcome) ?? 0) + 1);
  const odd = cases.filter((c) => !['passed', 'not-allowed', 'not-applicable'].includes(c.outcome));
  return [
    [...n].map(([k, v]) => `${k} ${v}`).join(', '),
    ...odd.map((c) => `${c.outcome} ${c.title}: ${(c.reason ?? '').slice(0, 200)}`),
  ].join('\n');
}
