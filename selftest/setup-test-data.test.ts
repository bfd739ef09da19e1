import { describe, expect, test } from 'vitest';
import type { CaseReport } from '../harness/model';
import { INITIAL_USER_DISCLOSURES } from '../reference-target/fixtures';
import type { ReferenceTarget } from '../reference-target/server';
import { explain, runAreas } from './_reference';

/**
 * Issue 20: a red verdict means the target broke the spec, not that the setup is wrong. The run
 * checks the configured test data against what the target shows before it writes with it: a value the
 * target disproves leaves the tests that depend on it "could not test", naming the configuration key
 * (CaseReport.setup), never failed and never "not applicable".
 */

const recordsAsFound = (target: ReferenceTarget) =>
  [...target.state.userDisclosures.values()].sort((a, b) => a.institutionUserDisclosureId.localeCompare(b.institutionUserDisclosureId));
const INITIAL = [...INITIAL_USER_DISCLOSURES].sort((a, b) => a.institutionUserDisclosureId.localeCompare(b.institutionUserDisclosureId));

/** No requirement is recorded as passed by a case that could not test (a pass needs evidence). */
function noPassWithoutEvidence(cases: CaseReport[]): void {
  for (const c of cases.filter((x) => x.outcome === 'could-not-test')) expect(c.checks.filter((k) => k.outcome === 'passed'), c.id).toEqual([]);
}

describe('test data the target disproves: could not test, naming the key', () => {
  test.each(['default', 'retail'] as const)('testData.disclosure that operation 1 does not list (%s fixtures): nothing is written for it; no test fails', async (fixtures) => {
    const configured = { institutionDisclosureId: 'disc-999', institutionDisclosureName: 'Loyalty Programme' };
    const { cases, failed, target } = await runAreas({
      areas: ['disclosures'],
      fixtures,
      configure: (cfg) => ({ ...cfg, testData: { ...cfg.testData, disclosure: configured } }),
    });
    expect([...failed], explain(cases)).toEqual([]);
    expect(cases.filter((c) => c.outcome === 'failed' || c.outcome === 'error')).toEqual([]);
    expect(cases.filter((c) => c.outcome === 'not-applicable').map((c) => c.id)).toEqual([]);
    const blamed = cases.filter((c) => c.outcome === 'could-not-test');
    expect(blamed.length).toBeGreaterThan(10);
    for (const c of blamed) {
      expect(c.setup?.key, c.id).toBe('testData.disclosure');
      expect(c.reason).toMatch(/testData\.disclosure .*disc-999.*Loyalty Programme.* is not among the \d+ disclosures operation 1 lists/);
      expect(c.reason).toMatch(/"E-Sign Agreement" \(disc-001\)/);
    }
    noPassWithoutEvidence(cases);
    const sent = cases.flatMap((c) => c.exchanges).filter((e) => e.request.method !== 'GET' && e.request.url.includes('institution-user-disclosures'));
    expect(sent.filter((e) => e.request.headers['InstitutionDisclosureId'] === 'disc-999' || e.request.url.includes('disc-999'))).toEqual([]);
    expect(recordsAsFound(target)).toEqual(INITIAL);
  });

  test('testData.institutionCustomerId on a retail target: the control disproves it; no test fails; nothing left', async () => {
    const { cases, failed, target } = await runAreas({
      areas: ['disclosures'],
      fixtures: 'retail',
      configure: (cfg) => ({ ...cfg, testData: { ...cfg.testData, institutionCustomerId: 'biz-4711' } }),
    });
    expect([...failed], explain(cases)).toEqual([]);
    expect(cases.filter((c) => c.outcome === 'failed' || c.outcome === 'error'), explain(cases)).toEqual([]);
    const blamed = cases.filter((c) => c.outcome === 'could-not-test');
    expect(blamed.length).toBeGreaterThan(0);
    for (const c of blamed) {
      expect(c.setup?.key, c.id).toBe('testData.institutionCustomerId');
      expect(c.reason).toMatch(/InstitutionCustomerId "biz-4711" \(testData\.institutionCustomerId\)/);
    }
    const blamedRules = new Set(blamed.flatMap((c) => c.requirements));
    for (const id of ['OP6-REQUEST', 'OP6-REQUEST-BY-ID', 'OP7-REQUEST', 'OP7-REQUEST-BY-ID', 'STATE-UD-CHANGE', 'STATE-UD-DELETE']) expect([...blamedRules]).toContain(id);
    noPassWithoutEvidence(cases);
    expect(recordsAsFound(target), 'the records the run created are deleted').toEqual(INITIAL);
    expect(cases.flatMap((c) => c.leftovers ?? [])).toEqual([]);
  });
});
