import { describe, expect, test } from 'vitest';
import { CaseContext, runCase, type RunSettings } from '../harness/case';
import { secretValues } from '../harness/config';
import type { ExploreSettings } from '../harness/explore-settings';
import { DbsiClient } from '../harness/http/client';
import type { CaseReport } from '../harness/model';
import { Redactor } from '../harness/redact';
import { unremovableRecords } from '../harness/run/unremovable';
import { referenceConfig } from '../reference-target/config';
import { startReferenceTarget } from '../reference-target/server';
import exploreFeature, { EXPLORE_INSTITUTION_TITLE } from '../suites/explore/explore-institution';
import { FEATURES_BY_AREA } from '../suites';
import { runAreas } from './_reference';
import { exploreBudget } from '../harness/explore-settings';
import { parseCli, UsageError } from '../harness/run/args';

/** Run the institution disclosure explorer alone against a fresh reference target. */
async function explore(faults: string[], explore: ExploreSettings, name?: string): Promise<CaseReport> {
  const target = await startReferenceTarget({ faults });
  try {
    const config = { ...referenceConfig(target, {}), ...(name ? { name } : {}) };
    const settings: RunSettings = { config, seed: 7, strict: false, runId: 'rtid', specUrl: 'spec.md', explore };
    const client = new DbsiClient(config, new Redactor(secretValues(config)));
    const report = await runCase(new CaseContext(settings, client, exploreFeature, exploreFeature.cases[0]!));
    await client.close();
    return report;
  } finally {
    await target.close();
  }
}

const steps = (r: CaseReport) => (r.reason ?? '').split('\n').filter((l) => /^\s+\d+\. /.test(l));

describe('the model-based explorer of institution disclosures (issue 33)', () => {
  test('is registered with the disclosures area', () => {
    expect(FEATURES_BY_AREA.disclosures.flatMap((f) => f.cases.map((c) => c.title))).toContain(
      EXPLORE_INSTITUTION_TITLE,
    );
  });

  test('passes on the faultless target, each status taken from each status, and lists what it created', async () => {
    const r = await explore([], { count: 8, seconds: 30 });
    expect(r.outcome, r.reason).toBe('passed');
    const passed = r.checks.filter((k) => k.outcome === 'passed').map((k) => k.requirement);
    expect(passed).toEqual(expect.arrayContaining(['STATE-ID-CREATE', 'STATE-ID-CHANGE']));
    const transitions = r.parameters.transitions ?? '';
    for (const from of ['true', 'false'])
      for (const to of ['true', 'false']) expect(transitions).toContain(`${from} × change (same name) × ${to}`);
    expect(transitions).toContain('any × change by a suffix id');
    const created = unremovableRecords([r]).filter((u) => u.kind === 'institution disclosure');
    expect(created.length).toBeGreaterThanOrEqual(4);
    expect(created.every((u) => u.what.includes('dbsi-rtid-'))).toBe(true);
  });

  test('finds the third change of a disclosure not stored, shrunk to a create and three changes', async () => {
    const r = await explore(['op3-third-change-not-stored'], { count: 20, seconds: 60 });
    expect(r.outcome, r.reason).toBe('failed');
    expect(r.checks.filter((k) => k.outcome === 'failed').map((k) => k.requirement)).toContain('STATE-ID-CHANGE');
    expect(r.reason).toMatch(/--seed 7 --area disclosures/);
    expect(r.reason).toMatch(/curl script of the replay/);
    const writes = steps(r).filter((l) => !/list institution disclosures/.test(l));
    expect(writes, r.reason).toHaveLength(4);
    expect(writes[0]).toMatch(/create A/);
    for (const w of writes.slice(1)) expect(w).toMatch(/change A /);
  });

  test('no hand-written case reaches that fault: in the whole area only the explorer fails on it', async () => {
    const { cases } = await runAreas({ areas: ['disclosures'], faults: ['op3-third-change-not-stored'] });
    expect(cases.filter((c) => c.outcome === 'failed').map((c) => c.title)).toEqual([EXPLORE_INSTITUTION_TITLE]);
  });

  test('creates nothing on a configured target (no delete operation), nor with --explore 0', async () => {
    for (const r of [
      await explore([], { count: 12, seconds: 5 }, 'a bank'),
      await explore([], { count: 0, seconds: 5 }),
    ]) {
      expect(r.outcome).toBe('not-applicable');
      expect(r.exchanges).toEqual([]);
    }
  });

  test('on a configured target only with --explore-institution N and the switch on; every create listed', async () => {
    const r = await explore([], { count: 4, seconds: 30, institution: 2 }, 'a bank');
    expect(r.outcome, r.reason).toBe('passed');
    const created = unremovableRecords([r]).filter((u) => u.kind === 'institution disclosure');
    const served = r.exchanges.filter((x) => x.operation === 'createInstitutionDisclosure');
    expect(created.length).toBe(served.length);
    expect(created.length).toBeGreaterThan(0);
  });

  test('--explore-institution N wins over --explore 0 for this family', async () => {
    const r = await explore([], { count: 0, seconds: 30, institution: 1 });
    expect(r.outcome, r.reason).toBe('passed');
  });

  test('--explore-institution: a whole number, one clear message otherwise; not with --traffic', () => {
    expect(exploreBudget(parseCli(['--explore-institution', '3']), false)).toEqual({
      count: 4,
      seconds: 20,
      institution: 3,
    });
    expect(exploreBudget(parseCli([]), false).institution).toBeUndefined();
    expect(() => parseCli(['--explore-institution', 'x'])).toThrow(UsageError);
    expect(() => parseCli(['--traffic', 'x.har', '--explore-institution', '3'])).toThrow(/--explore-institution/);
  });
});
