import { expect } from 'vitest';
import { CaseContext, runCase, type RunSettings } from '../harness/case';
import { resolveConfig, secretValues, type TargetConfig } from '../harness/config';
import { DbsiClient } from '../harness/http/client';
import type { Timings } from '../harness/http/timings';
import { knownFromConfig, RUN_LOG } from '../harness/log/run-log';
import type { Area, CaseReport } from '../harness/model';
import { Redactor } from '../harness/redact';
import { openLeftovers, setToConfigured, type OpenLeftover } from '../harness/run/leftovers';
import { exitCodeFor } from '../harness/run/results';
import { unremovableRecords, type UnremovableRecord } from '../harness/run/unremovable';
import { regradeCase, SetupProof } from '../harness/setup/proof';
import { failuresOverTheLog, runLogReports } from '../harness/verdict/run-log-verdicts';
import { referenceConfigFile } from '../reference-target/config';
import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { startReferenceTarget } from '../reference-target/server';
import type { ReferenceState } from '../reference-target/state';
import { FEATURES_BY_AREA } from '../suites';
import { startHostileTarget, type HostilePlan, type HostileRequest } from './_safety-holdout-proxy';
import type { Row } from './_safety-holdout-rows';
import { MILLISECOND_TIMINGS } from './_timings';

/**
 * One scenario of the safety hold-out set run in-process (the cases, the run's log judged, the setup proofs, the exit
 * code: what the main command does, minus the writers) against the reference target behind a hostile proxy, with a
 * configuration as an operator wrote it (ownTarget off: the suite does not know what the target holds).
 */
export type TestData = Omit<typeof REFERENCE_TEST_DATA, 'moreCustomers'> & {
  moreCustomers: Array<Record<string, any>>;
};

export interface Scenario {
  areas: Area[];
  /** Makes the proxy's plan, afresh for each run (a plan may count requests); `interrupt` stops the run as Ctrl-C. */
  plan?: (interrupt: () => void) => HostilePlan;
  /** The configured test data, edited (default: the reference's, with no more customers). */
  testData?: (td: TestData) => void;
  /** What the target holds before the run, edited (its real customers, records). */
  prepare?: (s: ReferenceState) => void;
  allow?: Partial<Record<keyof TargetConfig['allow'], boolean>>;
  http?: Record<string, unknown>;
  timings?: Partial<Timings>;
  /** The configuration's name (default "a bank sandbox"; `npm run reference` prints "embedded reference target"). */
  name?: string;
  /** Named faults of the reference target behind the proxy. */
  faults?: string[];
}

export interface Snapshot {
  customers: Record<string, unknown>;
  userDisclosures: Record<string, unknown>;
  disclosures: Record<string, unknown>;
  transfers: number;
  liveRefreshTokens: string[];
}

export interface HostileRun {
  before: Snapshot;
  after: Snapshot;
  cases: CaseReport[];
  leftovers: OpenLeftover[];
  setToConfigured: OpenLeftover[];
  unremovable: UnremovableRecord[];
  exitCode: number;
  seen: HostileRequest[];
}

export function snapshot(s: ReferenceState): Snapshot {
  return structuredClone({
    customers: Object.fromEntries(s.customers),
    userDisclosures: Object.fromEntries(s.userDisclosures),
    disclosures: Object.fromEntries(s.disclosures),
    transfers: s.transfers.length,
    liveRefreshTokens: [...s.liveRefreshTokens].sort(),
  });
}

function configFor(urls: Record<string, string>, sc: Scenario): TargetConfig {
  const td = structuredClone(REFERENCE_TEST_DATA) as TestData;
  td.moreCustomers = [];
  sc.testData?.(td);
  const file = referenceConfigFile(
    { urls: urls as never },
    {
      allow: { moneyMovement: false, tokenRevocation: false, institutionDisclosureWrites: false, ...sc.allow },
      // Room for a loaded machine: a row whose answers are lost on purpose sets its own, short time-out.
      http: { timeoutMs: 5_000, concurrency: 8, ...sc.http },
      testData: td as typeof REFERENCE_TEST_DATA,
    },
  );
  const name = sc.name ?? 'a bank sandbox';
  return { ...resolveConfig({ ...file, name, credentials: { ...REFERENCE_CREDENTIALS } }, {}), ownTarget: false };
}

export async function runHostile(sc: Scenario): Promise<HostileRun> {
  const stop = new AbortController();
  const interrupt = () => void setTimeout(() => stop.abort(new Error('the run was cancelled')), 0);
  const plan: HostilePlan = sc.plan?.(interrupt) ?? (() => ({ kind: 'forward' }));
  const target = await startReferenceTarget({ faults: sc.faults ?? [] });
  const hostile = await startHostileTarget(plan, { target });
  try {
    sc.prepare?.(hostile.target.state);
    const before = snapshot(hostile.target.state);
    const config = configFor(hostile.urls, sc);
    const settings: RunSettings = { config, seed: 40, strict: false, runId: 'rs40', specUrl: 'spec.md' };
    const timings = { ...MILLISECOND_TIMINGS, ...sc.timings };
    const client = new DbsiClient(config, new Redactor(secretValues(config)), { timings });
    const sent = await Promise.all(
      sc.areas.flatMap((a) =>
        FEATURES_BY_AREA[a].flatMap((f) =>
          f.cases.map((c) => runCase(new CaseContext(settings, client, f, c, undefined, stop.signal))),
        ),
      ),
    );
    await client.close();
    const failures = failuresOverTheLog(client.run.get(RUN_LOG), knownFromConfig(config));
    sent.push(...runLogReports(failures, { cases: sent, strict: false, redactor: client.redactor, config }));
    const proof = new SetupProof(sent);
    const cases = sent.map((c) => regradeCase(c, proof));
    return {
      before,
      after: snapshot(hostile.target.state),
      cases,
      leftovers: openLeftovers(cases),
      setToConfigured: setToConfigured(cases),
      unremovable: unremovableRecords(cases),
      exitCode: stop.signal.aborted ? 130 : exitCodeFor(cases),
      seen: hostile.seen,
    };
  } finally {
    await hostile.close();
  }
}

/** What changed between two snapshots, one line per thing (empty: the target is as found). */
export function changes(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const k of ['customers', 'userDisclosures', 'disclosures'] as const) {
    const ids = new Set([...Object.keys(before[k]), ...Object.keys(after[k])]);
    for (const id of ids) {
      const a = JSON.stringify(before[k][id]);
      const b = JSON.stringify(after[k][id]);
      if (a !== b) out.push(`${k} ${id}: ${a ?? '(none)'} -> ${b ?? '(none)'}`);
    }
  }
  if (before.transfers !== after.transfers) out.push(`transfers: ${before.transfers} -> ${after.transfers}`);
  if (before.liveRefreshTokens.join() !== after.liveRefreshTokens.join()) out.push('refresh tokens revoked');
  return out;
}

/** Every line the run lists as changed on the target: left, set to configured, created for good. */
export function listed(r: HostileRun): string[] {
  return [
    ...r.leftovers.map((l) => `LEFT ${l.what}${l.now ? ` now ${l.now}` : ''}; restore ${l.restore}`),
    ...r.setToConfigured.map((l) => `SET ${l.what}`),
    ...r.unremovable.map((u) => `CREATED ${u.kind} ${u.what}`),
  ];
}

/** Cases that failed (MUST) or crashed: one line each. */
export function failures(cases: CaseReport[]): string[] {
  return cases
    .filter((c) => c.outcome === 'failed' || c.outcome === 'error')
    .map((c) => `${c.outcome}: ${c.id}: ${(c.reason ?? '').split('\n')[0]}`);
}

/**
 * The changes the run did not list: a customer changed that no leftover (or value set to the configured one) names, a
 * user record changed or left that no leftover names, institution disclosures or transfers created beyond those
 * listed as created. Empty: every change is listed.
 */
export function unlisted(r: HostileRun): string[] {
  const lines = [...r.leftovers, ...r.setToConfigured].map((l) => `${l.what} ${l.now ?? ''} ${l.restore}`);
  const out: string[] = [];
  for (const k of ['customers', 'userDisclosures'] as const) {
    const ids = new Set([...Object.keys(r.before[k]), ...Object.keys(r.after[k])]);
    for (const id of ids) {
      const a = r.before[k][id];
      const b = r.after[k][id];
      if (JSON.stringify(a) === JSON.stringify(b)) continue;
      const keys = [JSON.stringify(id)];
      const rec = (b ?? a) as { institutionDisclosureName?: string } | undefined;
      const named = lines.some((l) =>
        k === 'customers'
          ? l.includes(keys[0]!)
          : l.includes(id) || l.includes(`disclosure ${JSON.stringify(rec?.institutionDisclosureName)}`),
      );
      if (!named) out.push(`${k} ${id}: ${JSON.stringify(a)} -> ${JSON.stringify(b)}`);
    }
  }
  // An institution disclosure that was there before the run is never changed: no listing excuses it.
  for (const [id, d] of Object.entries(r.before.disclosures))
    if (JSON.stringify(d) !== JSON.stringify(r.after.disclosures[id])) out.push(`institution disclosure ${id} changed`);
  // Each one created is listed by the name it has now: what a person looks for.
  const disclosures = r.unremovable.filter((u) => u.kind === 'institution disclosure');
  for (const [id, d] of Object.entries(r.after.disclosures)) {
    if (id in r.before.disclosures) continue;
    const name = JSON.stringify((d as { institutionDisclosureName?: string }).institutionDisclosureName);
    if (!disclosures.some((u) => u.what.includes(name))) out.push(`institution disclosure ${id} ${name}`);
  }
  const moved = r.after.transfers - r.before.transfers;
  const listedMoved = r.unremovable.filter((u) => u.kind === 'transfer').length;
  if (moved > listedMoved) out.push(`transfers created ${moved}, listed ${listedMoved}`);
  return out;
}

/**
 * The row's verdict on the run: the end it states, every change listed, an exit code an honest run may have, and no
 * exit 0 or 5 while something owed a restore is left.
 */
export async function expectSafe(row: Row): Promise<void> {
  const r = await runHostile(row);
  const changed = changes(r.before, r.after);
  const said = `changed:\n${changed.join('\n')}\nlisted:\n${listed(r).join('\n')}`;
  if (row.end === 'as found') expect(changed, said).toEqual([]);
  if (row.end === 'changed, listed') expect(changed.length, said).toBeGreaterThan(0);
  expect(unlisted(r), said).toEqual([]);
  expect(row.exit, `exit ${r.exitCode}; ${said}`).toContain(r.exitCode);
  if (r.leftovers.length > 0) expect([0, 5]).not.toContain(r.exitCode);
}
