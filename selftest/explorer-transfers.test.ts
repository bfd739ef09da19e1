import { describe, expect, test } from 'vitest';
import { CaseContext, runCase, type RunSettings } from '../harness/case';
import { secretValues } from '../harness/config';
import type { ExploreSettings } from '../harness/explore-settings';
import { DbsiClient } from '../harness/http/client';
import type { CaseReport } from '../harness/model';
import { Redactor } from '../harness/redact';
import { referenceConfig } from '../reference-target/config';
import { startReferenceTarget } from '../reference-target/server';
import exploreFeature, { EXPLORE_TRANSFERS_TITLE } from '../suites/explore/explore-transfers';
import { FEATURES_BY_AREA } from '../suites';
import { runAreas } from './_reference';

/** Run the transfer explorer alone against a fresh reference target. */
async function explore(faults: string[], explore: ExploreSettings, name?: string): Promise<CaseReport> {
  const target = await startReferenceTarget({ faults });
  try {
    const config = { ...referenceConfig(target, {}), ...(name ? { name } : {}) };
    const settings: RunSettings = { config, seed: 7, strict: false, runId: 'rttx', specUrl: 'spec.md', explore };
    const client = new DbsiClient(config, new Redactor(secretValues(config)));
    const report = await runCase(new CaseContext(settings, client, exploreFeature, exploreFeature.cases[0]!));
    await client.close();
    return report;
  } finally {
    await target.close();
  }
}

const steps = (r: CaseReport) => (r.reason ?? '').split('\n').filter((l) => /^\s+\d+\. /.test(l));

describe('the model-based explorer of transfers (issue 33)', () => {
  test('is registered with the money-movement area', () => {
    expect(FEATURES_BY_AREA['money-movement'].flatMap((f) => f.cases.map((c) => c.title))).toContain(
      EXPLORE_TRANSFERS_TITLE,
    );
  });

  test('passes on the faultless target, the answers reflecting every amount and schedule sent', async () => {
    const r = await explore([], { count: 12, seconds: 30 });
    expect(r.outcome, r.reason).toBe('passed');
    const passed = r.checks.filter((k) => k.outcome === 'passed').map((k) => k.requirement);
    expect(passed).toContain('OP9-RESPONSE-REFLECTS-REQUEST');
  });

  test('finds amounts with two decimals stored rounded, shrunk to the one transfer that shows it', async () => {
    const r = await explore(['op9-rounds-two-decimals'], { count: 60, seconds: 60 });
    expect(r.outcome, r.reason).toBe('failed');
    expect(r.checks.filter((k) => k.outcome === 'failed').map((k) => k.requirement)).toContain(
      'OP9-RESPONSE-REFLECTS-REQUEST',
    );
    expect(r.reason).toMatch(/--seed 7 --area money-movement/);
    expect(steps(r), r.reason).toHaveLength(1);
    expect(steps(r)[0]).toMatch(/transfer of (1\.25|1234\.56|1234567\.89) /);
  });

  test('no hand-written case reaches that fault: in the whole area only the explorer fails on it', async () => {
    const { cases } = await runAreas({ areas: ['money-movement'], faults: ['op9-rounds-two-decimals'] });
    expect(cases.filter((c) => c.outcome === 'failed').map((c) => c.title)).toEqual([EXPLORE_TRANSFERS_TITLE]);
  });

  test('sends no transfer to a configured target (money moves), nor with --explore 0', async () => {
    for (const r of [
      await explore([], { count: 12, seconds: 5 }, 'a bank'),
      await explore([], { count: 0, seconds: 5 }),
    ]) {
      expect(r.outcome).toBe('not-applicable');
      expect(r.exchanges).toEqual([]);
    }
  });
});
