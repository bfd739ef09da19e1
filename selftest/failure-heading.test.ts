import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { failureHeading, isFailureLike } from '../harness/evidence/failure-heading';
import { EXIT } from '../harness/run/results';
import { runMain, ROOT } from './_main';

/**
 * A failure heading names its operation (issue 34): the number and name the spec gives the operation the
 * failing test drove, in every place a person reads a failure: the console, JUnit, Allure and the Markdown
 * summary. The run: the embedded target with two planted faults of operations 5 and 7.
 */
const spec = readFileSync(join(ROOT, 'spec/digital-banking-service-interface.md'), 'utf8');
const SPEC_OPERATIONS = [...spec.matchAll(/^### (\d+\. .+)$/gm)].map((m) => m[1]!);

type Case = { id: string; area: string; operation: string; title: string; outcome: string };

describe('a failure heading', () => {
  test('the spec gives eleven operations, each "N. Name"', () => {
    expect(SPEC_OPERATIONS).toHaveLength(11);
    expect(failureHeading({ operation: SPEC_OPERATIONS[4]!, title: 'answers 204' })).toBe(
      '5. Create a user disclosure acceptance record › answers 204',
    );
    expect(['failed', 'could-not-test', 'error', 'waived'].every(isFailureLike)).toBe(true);
    expect(['passed', 'warning', 'not-applicable', 'not-allowed'].some(isFailureLike)).toBe(false);
  });

  test('names the operation in the console, JUnit, Allure and the Markdown summary', async () => {
    const run = await runMain([
      '--area',
      'disclosures',
      '--explore',
      '0',
      '--fault',
      'op5-200-with-body',
      '--fault',
      'op7-200-with-body',
    ]);
    expect(run.code, run.stderr).toBe(EXIT.NON_CONFORMANT);
    const summary = JSON.parse(readFileSync(join(run.reports, 'conformance-summary.json'), 'utf8')) as {
      cases: Case[];
    };
    const failed = summary.cases.filter((c) => isFailureLike(c.outcome));
    const ops = new Set(failed.map((c) => c.operation));
    expect([...ops].sort(), 'both planted faults fail a test of their operation').toEqual(
      expect.arrayContaining([SPEC_OPERATIONS[4], SPEC_OPERATIONS[6]]),
    );
    const junit = readFileSync(join(run.reports, 'junit.xml'), 'utf8');
    const markdown = readFileSync(join(run.reports, 'conformance-summary.md'), 'utf8').split('## Failures')[1] ?? '';
    const allure = readdirSync(join(run.reports, 'allure-results'))
      .filter((f) => f.endsWith('-result.json'))
      .map((f) => JSON.parse(readFileSync(join(run.reports, 'allure-results', f), 'utf8')) as { name: string });
    const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
    for (const c of failed) {
      // As the spec gives it, word for word.
      expect(SPEC_OPERATIONS, c.id).toContain(c.operation);
      expect(run.stdout, `console: ${c.id}`).toContain(`✗`);
      expect(run.stdout, `console: ${c.id}`).toContain(`${c.area} › ${c.operation} › ${c.title}`);
      // JUnit: the classname without its dot (Jenkins splits a classname at dots), then the test's name.
      const classname = `${c.area} › ${c.operation}`.replace(/\./g, '');
      expect(junit, `JUnit: ${c.id}`).toContain(`classname="${esc(classname)}" name="${esc(c.title)}"`);
      expect(
        allure.map((r) => r.name),
        `Allure: ${c.id}`,
      ).toContain(`${c.operation} › ${c.title}`);
      expect(markdown, `Markdown: ${c.id}`).toContain(`### ${c.operation} › ${c.title} (${c.area})`);
    }
  });
});
