import { describe, expect, test } from 'vitest';
import type { CaseReport } from '../harness/model';
import { runAreas } from './_reference';

/**
 * Operations 6 and 7 take query parameters the spec makes mandatory under conditions no request shows:
 * InstitutionCustomerId "mandatory for business banking requests", AccountType "mandatory for multi-statement
 * disclosures" (7). A target that requires them (the variants fr-op6-op7-customer-mandatory and
 * fr-op7-account-type-mandatory, docs/hold-out.md, session 40) is conformant: where their keys are not set, its 400
 * proves nothing about the target (could not test, naming the key); set, the same cases pass.
 */

const REQUIRING = ['fr-op6-op7-customer-mandatory', 'fr-op7-account-type-mandatory'];
const REQUEST_RULES = ['OP6-REQUEST', 'OP6-REQUEST-BY-ID', 'OP7-REQUEST', 'OP7-REQUEST-BY-ID'];
const requestCases = (cases: CaseReport[]) =>
  cases.filter((c) => REQUEST_RULES.some((id) => c.requirements.includes(id)) && /answers 204/.test(c.title));

describe('a target that requires InstitutionCustomerId and AccountType on every change and delete', () => {
  test('their keys not set: the change and delete cases could not test, naming the key; nothing fails', async () => {
    // Judged as the main command judges the embedded target (no refusal blamed on the setup), with enough sequences
    // for the explorer to delete a record it listed: its exchanges are judged by the same rules.
    const explore = { count: 50, seconds: 120, institution: 0 };
    const run = { areas: ['disclosures' as const], faults: REQUIRING, explore, seed: 1, embedded: true };
    const { cases, failed } = await runAreas(run);
    expect([...failed]).toEqual([]);
    const judged = requestCases(cases);
    expect(judged).toHaveLength(4);
    for (const c of judged) {
      expect(c.outcome, c.title).toBe('could-not-test');
      expect(c.setup?.key, c.title).toBe('testData.institutionCustomerId');
      expect(c.reason, c.title).toMatch(/mandatory for business banking requests/);
    }
    expect(judged.filter((c) => /AccountType/.test(c.reason ?? ''))).toHaveLength(2);
  });

  test('their keys set: the same cases pass', async () => {
    const { cases, failed } = await runAreas({
      areas: ['disclosures'],
      faults: REQUIRING,
      configure: (cfg) => ({
        ...cfg,
        testData: { ...cfg.testData, institutionCustomerId: 'biz-customer-1', accountType: 'CHECKING' },
      }),
    });
    expect([...failed]).toEqual([]);
    expect(requestCases(cases).map((c) => c.outcome)).toEqual(['passed', 'passed', 'passed', 'passed']);
  });

  test('the strict vendor profile, every area, the keys set: nothing fails, nothing untested', async () => {
    const { cases, failed } = await runAreas({
      areas: ['disclosures', 'authentication', 'money-movement', 'contact-info'],
      faults: ['fr-vendor-strict'],
      embedded: true,
      configure: (cfg) => ({
        ...cfg,
        testData: { ...cfg.testData, institutionCustomerId: 'biz-customer-1', accountType: 'CHECKING' },
      }),
    });
    expect([...failed]).toEqual([]);
    expect(cases.filter((c) => c.outcome === 'could-not-test').map((c) => `${c.title}: ${c.reason}`)).toEqual([]);
  });

  test('a refusal other than 400 or 422 of a change without them is still judged: 405 fails OP6-REQUEST', async () => {
    const { failed } = await runAreas({ areas: ['disclosures'], faults: ['op6-collection-form-missing'] });
    expect([...failed]).toEqual(['OP6-REQUEST']);
  });
});
