import { describe, expect, test } from 'vitest';
import { CaseContext, runCase, type RunSettings } from '../harness/case';
import { secretValues } from '../harness/config';
import { exploreBudget, type ExploreSettings } from '../harness/explore-settings';
import { parseCli, UsageError } from '../harness/run/args';
import { DbsiClient } from '../harness/http/client';
import type { CaseReport } from '../harness/model';
import { Redactor } from '../harness/redact';
import { referenceConfig } from '../reference-target/config';
import { startReferenceTarget } from '../reference-target/server';
import type { FixtureSetName } from '../reference-target/fixture-sets';
import exploreFeature, { EXPLORE_TITLE } from '../suites/explore/explore-user-disclosures';
import { FEATURES_BY_AREA } from '../suites';
import { FAULTS } from '../reference-target/faults';
import { explain, runAreas } from './_reference';
import { SEVERAL, tours } from '../suites/explore/tours';
import { EXPLORABLE } from '../suites/explore/transitions';
import { variantId } from '../suites/explore/commands';

/** Run the explorer alone (not the hand-written cases) against a fresh reference target. */
async function explore(
  faults: string[],
  explore: ExploreSettings,
  seed = 7,
  fixtures?: FixtureSetName,
): Promise<CaseReport> {
  const target = await startReferenceTarget({ faults, ...(fixtures ? { fixtures } : {}) });
  try {
    const config = referenceConfig(target, {});
    const settings: RunSettings = { config, seed, strict: false, runId: 'rtex', specUrl: 'spec.md', explore };
    const client = new DbsiClient(config, new Redactor(secretValues(config)));
    const report = await runCase(new CaseContext(settings, client, exploreFeature, exploreFeature.cases[0]!));
    await client.close();
    return report;
  } finally {
    await target.close();
  }
}

const failedIds = (r: CaseReport) => r.checks.filter((k) => k.outcome === 'failed').map((k) => k.requirement);
/** The numbered lines of the shrunk sequence a failure's text shows. */
const steps = (r: CaseReport) => (r.reason ?? '').split('\n').filter((l) => /^\s+\d+\. /.test(l));

describe('the model-based explorer (issue 33)', () => {
  test('is registered with the disclosures area', () => {
    expect(FEATURES_BY_AREA.disclosures.flatMap((f) => f.cases.map((c) => c.title))).toContain(EXPLORE_TITLE);
  });

  test('passes on the faultless target, judging the state rules on what it explored', async () => {
    const r = await explore([], { count: 12, seconds: 30 });
    expect(r.outcome, r.reason).toBe('passed');
    const passed = new Set(r.checks.filter((k) => k.outcome === 'passed').map((k) => k.requirement));
    for (const id of ['STATE-UD-CREATE', 'STATE-UD-CHANGE', 'STATE-UD-DELETE', 'STATE-UD-DELETE-ONLY-NAMED'])
      expect([...passed]).toContain(id);
    // What it reached, as transitions (state × operation × value): every one it took is one the commands can take.
    const e = r.explored!;
    expect([...e.reached, ...e.notReached].sort()).toEqual([...EXPLORABLE].sort());
    expect(e.reached.length, e.notReached.join('; ')).toBeGreaterThan(EXPLORABLE.length / 2);
    // The tours first (tours.ts: every transition at least once), then the 12 random sequences.
    expect(e.sequences).toBe(12 + tours(SEVERAL).length);
    expect(e.notReached).toEqual([]);
  });

  test('holds six records of the user at once: a list that keeps five fails, shrunk to the six creates', async () => {
    const r = await explore(['ho5-op4-sixth-record-dropped'], { count: 1, seconds: 60 });
    expect(r.outcome, r.reason).toBe('failed');
    expect(failedIds(r)).toEqual(['STATE-UD-CREATE']);
    const creates = steps(r).filter((l) => / create [A-F] with /.test(l));
    expect(creates.length, steps(r).join('\n')).toBeGreaterThanOrEqual(4);
  });

  test('records of disclosures no list shows: a target that refuses them (retail fixtures) passes', async () => {
    const r = await explore([], { count: 4, seconds: 60 }, 7, 'retail');
    expect(r.outcome, r.reason).toBe('passed');
  });

  test('finds a fault only a re-created record shows, and reports the shrunk sequence and its replay', async () => {
    const r = await explore(['op5-revives-deleted-record'], { count: 60, seconds: 60 });
    expect(r.outcome, r.reason).toBe('failed');
    expect(failedIds(r)).toContain('STATE-UD-CREATE');
    const reason = r.reason ?? '';
    expect(reason).toMatch(/shrunk sequence/);
    expect(reason).toMatch(/--seed 7 --area disclosures/);
    expect(reason).toMatch(/fast-check seed -?\d+, path "[\d:]+"/);
    expect(reason).toMatch(/curl /);
    // At most: a record, its delete, a create with NOT_ACCEPTED (each read back). The target remembers deletes
    // across sequences (what the fault is), so a later try may need fewer of them.
    const writes = steps(r).filter((l) => / (create|change|delete) /.test(l) && !/clean-up/.test(l));
    expect(writes.length, steps(r).join('\n')).toBeLessThanOrEqual(3);
    expect(writes.at(-1), steps(r).join('\n')).toMatch(/create [AB] with NOT_ACCEPTED/);
    // The replay's exchanges are the test's evidence.
    expect(r.exchanges.length).toBeGreaterThan(3);
  });

  test('shrinks a two-step fault (a record, then a delete by a near variant of its id) to those two', async () => {
    const r = await explore(['op7-by-id-reads-a-prefix'], { count: 60, seconds: 60 });
    expect(r.outcome, r.reason).toBe('failed');
    expect(failedIds(r)).toContain('STATE-UD-DELETE-ONLY-NAMED');
    const writes = steps(r).filter((l) => / (create|change|delete) /.test(l) && !/clean-up/.test(l));
    expect(writes.length, steps(r).join('\n')).toBe(2);
    const record = /create ([AB]) /.exec(writes[0]!)?.[1];
    expect(record, writes[0]).toBeDefined();
    expect(writes[1]).toContain(`delete an id near ${record}'s (suffix)`);
  });

  test('--explore, --explore-time: whole numbers, one clear message otherwise; defaults follow the target', () => {
    expect(exploreBudget(parseCli(['--explore', '0']), true)).toEqual({ count: 0, seconds: 60 });
    expect(exploreBudget(parseCli(['--explore-time', '60']), false)).toEqual({ count: 4, seconds: 60 });
    expect(exploreBudget(parseCli([]), true)).toEqual({ count: 12, seconds: 60 });
    expect(() => parseCli(['--explore', '-1'])).toThrow(UsageError);
    expect(() => parseCli(['--explore-time', '0'])).toThrow(/--explore-time must be a whole number from 1/);
    expect(() => parseCli(['--traffic', 'x.har', '--explore', '3'])).toThrow(/--explore/);
  });

  test('ids never issued: near variants of a real one, never one a list showed, never a shorter number', () => {
    const issued = new Set(['uds-0001', 'uds-0001x']);
    expect(variantId('uds-0001', 'suffix', 'dbsi-r-1', issued)).toBe('uds-0001xz');
    expect(variantId('uds-0001', 'prefix', 'dbsi-r-1', issued)).toBe('xuds-0001');
    expect(variantId('uds-0001', 'shorter', 'dbsi-r-1', issued)).toBe('uds-000');
    expect(variantId('100001', 'shorter', 'dbsi-r-1', issued)).toBe('100001x');
    expect(variantId(undefined, 'never-issued', 'dbsi-r-1', issued)).toBe('dbsi-r-1');
  });

  test.for(['op5-revives-deleted-record', 'op7-by-id-reads-a-prefix'])(
    'no hand-written test reaches %s; with the explorer the run is non-conformant',
    async (fault) => {
      const without = await runAreas({ areas: ['disclosures'], faults: [fault], explore: { count: 0, seconds: 1 } });
      expect([...without.failed], explain(without.cases)).toEqual([]);
      const { breaks } = FAULTS.find((f) => f.name === fault)!;
      const found = await runAreas({ areas: ['disclosures'], faults: [fault], explore: { count: 60, seconds: 60 } });
      expect([...found.failed]).toEqual(breaks);
      const explorer = found.cases.find((c) => c.title === EXPLORE_TITLE)!;
      expect(explorer.outcome).toBe('failed');
      expect(explorer.reason).toMatch(/shrunk sequence/);
    },
  );

  test('--explore 0 turns it off', async () => {
    const r = await explore([], { count: 0, seconds: 5 });
    expect(r.outcome).toBe('not-applicable');
    expect(r.exchanges).toEqual([]);
  });
});
