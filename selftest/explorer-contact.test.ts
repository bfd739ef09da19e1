import { describe, expect, test } from 'vitest';
import { CaseContext, runCase, type RunSettings } from '../harness/case';
import { secretValues } from '../harness/config';
import type { ExploreSettings } from '../harness/explore-settings';
import { DbsiClient } from '../harness/http/client';
import type { CaseReport } from '../harness/model';
import { Redactor } from '../harness/redact';
import { referenceConfig } from '../reference-target/config';
import { startReferenceTarget } from '../reference-target/server';
import exploreFeature, { EXPLORE_CONTACT_TITLE } from '../suites/explore/explore-contact-info';
import { FEATURES_BY_AREA } from '../suites';
import { runAreas } from './_reference';

/** Run the contact-info explorer alone (not the hand-written cases) against a fresh reference target. */
async function explore(faults: string[], explore: ExploreSettings, seed = 7): Promise<CaseReport> {
  const target = await startReferenceTarget({ faults });
  try {
    const config = referenceConfig(target, {});
    const settings: RunSettings = { config, seed, strict: false, runId: 'rtcx', specUrl: 'spec.md', explore };
    const client = new DbsiClient(config, new Redactor(secretValues(config)));
    const report = await runCase(new CaseContext(settings, client, exploreFeature, exploreFeature.cases[0]!));
    await client.close();
    return report;
  } finally {
    await target.close();
  }
}

const failedIds = (r: CaseReport) => r.checks.filter((k) => k.outcome === 'failed').map((k) => k.requirement);
/** The numbered lines of the shrunk sequence a failure's text shows (the clean-up left out). */
const steps = (r: CaseReport) =>
  (r.reason ?? '').split('\n').filter((l) => /^\s+\d+\. /.test(l) && !/clean-up|start: /.test(l));

describe('the model-based explorer of contact data (issue 33)', () => {
  test('is registered with the contact-info area', () => {
    expect(FEATURES_BY_AREA['contact-info'].flatMap((f) => f.cases.map((c) => c.title))).toContain(
      EXPLORE_CONTACT_TITLE,
    );
  });

  test('passes on the faultless target, judging the stored-number rules on what it explored', async () => {
    const r = await explore([], { count: 12, seconds: 30 });
    expect(r.outcome, r.reason).toBe('passed');
    const passed = new Set(r.checks.filter((k) => k.outcome === 'passed').map((k) => k.requirement));
    for (const id of [
      'OP10-RULE1-PHONE-STORED',
      'OP10-RULE2-OLD-PHONE-MATCH',
      'OP10-RULE1-UNSUPPLIED-KEPT',
      'OP10-RULE3-PHONE-STORED',
    ])
      expect([...passed]).toContain(id);
  });

  test('finds a fault only the third change in a row shows, shrunk to three changes, with its replay', async () => {
    const r = await explore(['op10-third-change-not-stored'], { count: 60, seconds: 60 });
    expect(r.outcome, r.reason).toBe('failed');
    expect(failedIds(r), r.reason).toContain('OP10-RULE1-PHONE-STORED');
    const reason = r.reason ?? '';
    expect(reason).toMatch(/shrunk sequence/);
    expect(reason).toMatch(/--seed 7 --area contact-info/);
    expect(reason).toMatch(/fast-check seed -?\d+, path "[\d:]+"/);
    expect(reason).toMatch(/curl /);
    // Three changes of one customer, then the update that names the third number and is refused.
    const shown = steps(r).join('\n');
    expect(steps(r).length, shown).toBeLessThanOrEqual(4);
    expect(steps(r).filter((l) => / phone \d+ to \d+/.test(l)).length, shown).toBeGreaterThanOrEqual(3);
    expect(r.exchanges.length).toBeGreaterThan(4);
  });

  test('no hand-written case reaches that fault: in the whole area only the explorer fails on it', async () => {
    const { cases } = await runAreas({ areas: ['contact-info'], faults: ['op10-third-change-not-stored'] });
    // A failure of the explorer's exchanges that its shrunk report names otherwise is judged over the run's log.
    const failing = cases
      .filter((c) => c.outcome === 'failed' && !c.title.startsWith("judged over the run's log"))
      .map((c) => c.title);
    expect(failing).toEqual([EXPLORE_CONTACT_TITLE]);
  });

  test('--explore 0 turns it off', async () => {
    const r = await explore([], { count: 0, seconds: 5 });
    expect(r.outcome).toBe('not-applicable');
    expect(r.exchanges).toEqual([]);
  });
});
