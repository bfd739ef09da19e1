import { describe, expect, test } from 'vitest';
import type { CaseOutcome, CaseReport } from '../harness/model';
import { coverageOf, headline } from '../harness/run/coverage';

/**
 * Issue 32: an area counts as tested when one of its operations reached a verdict; the headline then names every
 * operation of a tested area whose selected tests reached none (the headline once said contact info was tested when
 * its update operation never ran). The exit code does not change: only what the headline and the facts say.
 */
const report = (area: CaseReport['area'], operation: string, outcome: CaseOutcome, reason?: string): CaseReport => ({
  id: `${area}/${operation}/${outcome}`,
  area,
  operation,
  title: outcome,
  requirements: [],
  outcome,
  reason,
  checks: [],
  exchanges: [],
  durationMs: 0,
  parameters: {},
});

describe('coverage per operation', () => {
  test('an operation of a tested area with no verdict is named, with why', () => {
    const cases = [
      report('contact-info', '11. Retrieve existing contact data', 'passed'),
      report('contact-info', '10. Update contact information', 'not-allowed', 'skipped: (allow.contactUpdate is off)'),
      report('disclosures', '1. List institution disclosures', 'passed'),
    ];
    const cov = coverageOf(cases, ['contact-info', 'disclosures']);
    expect(cov.tested).toEqual(['contact-info', 'disclosures']);
    expect(cov.operationsWithoutVerdict).toEqual([
      { area: 'contact-info', operation: '10. Update contact information', reason: 'allow.contactUpdate off' },
    ]);
    expect(headline('conformant', cov)).toBe(
      'conformant; no verdict on operation 10. Update contact information (allow.contactUpdate off)',
    );
  });

  test('an operation with one verdict among tests that gave none is tested; a full run says nothing more', () => {
    const cases = [
      report('disclosures', '1. List institution disclosures', 'could-not-test'),
      report('disclosures', '1. List institution disclosures', 'failed'),
    ];
    const cov = coverageOf(cases, ['disclosures']);
    expect(cov.operationsWithoutVerdict).toBeUndefined();
    expect(headline('non-conformant', cov)).toBe('non-conformant');
  });

  test('an area with no verdict at all stays "not tested", its operations not listed again', () => {
    const cases = [
      report('disclosures', '1. List institution disclosures', 'passed'),
      report('contact-info', '10. Update contact information', 'could-not-test'),
    ];
    const cov = coverageOf(cases, ['disclosures', 'contact-info']);
    expect(cov.notTested).toEqual([{ area: 'contact-info', reason: 'could not test' }]);
    expect(cov.operationsWithoutVerdict).toBeUndefined();
    expect(headline('conformant in the areas tested', cov)).toBe(
      'conformant in the areas tested (1 of 2); not tested: contact info (could not test)',
    );
  });
});
