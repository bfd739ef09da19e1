import { describe, expect, test } from 'vitest';
import { OPERATIONS } from '../harness/operations';
import { consoleLineTest, selects } from '../harness/run/filter';
import { FEATURES_BY_AREA } from '../suites';

/**
 * Issue 34: a console line copied whole into --grep selects its test, and only it: the progress line of a finished
 * test and the failure line, with their marks, durations and spec sections.
 */
const everyCase = Object.values(FEATURES_BY_AREA).flatMap((fs) => fs.flatMap((f) => f.cases.map((c) => ({ f, c }))));

describe('--grep with a console line', () => {
  test('reads the area, the operation and the title back from the line', () => {
    expect(
      consoleLineTest('✓ disclosures › 7. Delete a user disclosure › is not served (/{id} form) (339 ms)'),
    ).toEqual({ area: 'disclosures', operation: '7. Delete a user disclosure', title: 'is not served (/{id} form)' });
    expect(
      consoleLineTest('✗ OP9-AUTH-401 [MUST] money-movement › 9. Create a transfer › t (spec section "x"): y'),
    ).toEqual({ area: 'money-movement', operation: '9. Create a transfer', title: 't' });
    expect(consoleLineTest('List institution disclosures')).toBeUndefined();
    expect(consoleLineTest('a › b › c')).toBeUndefined();
  });

  test('each test is selected alone by its progress line and by its failure line', () => {
    expect(everyCase.length).toBeGreaterThan(50);
    for (const { f, c } of everyCase) {
      const op = OPERATIONS[f.operation];
      const path = `${f.area} › ${op.number}. ${op.name} › ${c.title}`;
      for (const line of [
        `✓ ${path} (12 ms)`,
        `? ${path} (not run)`,
        `✗ ${c.requirements[0]} [MUST] ${path} (spec section "${op.section}"): answers 2xx; received status 500`,
      ]) {
        const chosen = everyCase.filter((x) => selects({ grep: line }, x.f, x.c));
        expect(
          chosen.map((x) => x.c.title),
          line,
        ).toEqual([c.title]);
      }
    }
  });

  test('any other pattern is still a regular expression or plain text', () => {
    const listed = everyCase.filter((x) => selects({ grep: 'listInstitutionDisclosures' }, x.f, x.c));
    expect(listed.length).toBeGreaterThan(1);
    expect(listed.every((x) => x.f.operation === 'listInstitutionDisclosures')).toBe(true);
  });
});
