import { matchCategory, normalizeCategoriesConfig, type CategoryRule } from '@allurereport/core-api';
import { getStatusFromError } from 'allure-js-commons/sdk';
import { describe, expect, test } from 'vitest';
import { ALLURE_CATEGORIES, caseError } from '../harness/evidence/report';

/**
 * The HTML report's categories sort a red run the way a reader needs: the status allure-vitest
 * derives from what a case throws, fed to Allure 3's own category matcher, lands each kind of
 * outcome in its category.
 */
const categories = normalizeCategoriesConfig({ rules: ALLURE_CATEGORIES as unknown as CategoryRule[] });
const label = (name: string, value: string) => ({ name, value });

function categoryOf(status: string, message: string | undefined, tags: string[] = []): string | undefined {
  return matchCategory(categories, {
    status: status as never,
    message,
    labels: [label('story', 'X-Y'), ...tags.map((t) => label('tag', t))],
    flaky: false,
  })?.name;
}

describe('Allure categories', () => {
  test('a failed MUST check is "failed" and lands in Non-conformance', () => {
    const err = caseError({
      outcome: 'failed',
      reason: 'MUST OP1-REQUEST (spec section "1. List institution ' + 'disclosures"): success_status: …',
    });
    expect(getStatusFromError(err)).toBe('failed');
    expect(categoryOf('failed', err.message)).toMatch(/^Non-conformance/);
  });

  test('a failure accepted by a waiver stays "failed" and lands in Waived deviations, first', () => {
    const message = 'WAIVED deviation (CHG-1, expires 2026-12-31), not a pass: MUST OP1-REQUEST …';
    expect(categoryOf('failed', message)).toMatch(/^Waived/);
    expect(ALLURE_CATEGORIES[0]?.id).toBe('waived');
  });

  test('a transport failure is "broken" and lands in Could not test', () => {
    const err = caseError({
      outcome: 'could-not-test',
      reason: 'could not test: could not connect ' + '(ECONNREFUSED) — GET http://h/x',
    });
    expect(getStatusFromError(err)).toBe('broken');
    expect(categoryOf('broken', err.message)).toMatch(/^Could not test/);
  });

  test('a SHOULD/INFO failure under --strict lands in Warnings, and so does a passed test tagged warning', () => {
    const err = caseError({
      outcome: 'failed',
      reason: 'INFO RES-DISCLOSURE-DATATYPE-VALUES (spec section ' + '"Institution disclosure"): shown_value: …',
    });
    expect(getStatusFromError(err)).toBe('failed');
    expect(categoryOf('failed', err.message)).toMatch(/^Warnings/);
    expect(categoryOf('passed', undefined, ['MUST', 'warning'])).toMatch(/^Warnings/);
  });

  test('a passed test tagged observation lands in Observations; a plain pass in none', () => {
    expect(categoryOf('passed', undefined, ['INFO', 'observation'])).toMatch(/^Observations/);
    expect(categoryOf('passed', undefined, ['MUST'])).toBeUndefined();
  });

  test('a suite error is "broken" and lands in Suite errors, not in Could not test', () => {
    const err = caseError({ outcome: 'error', reason: 'suite error: TypeError: x is undefined' });
    expect(getStatusFromError(err)).toBe('broken');
    expect(categoryOf('broken', err.message)).toMatch(/^Suite errors/);
  });
});
