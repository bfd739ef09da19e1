import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ContractCoverageReport } from '../harness/contract-coverage/measure';
import { OPERATIONS } from '../harness/operations';
import { validate } from '../harness/schemas';
import { runMain } from './_main';

/**
 * Issue 30: the contract-coverage figure counts only the selected areas (an area the run was not asked to test is
 * no gap of this run), says which, and the conformance summary (Markdown and JSON) carries it with a link to the
 * coverage table: a reviewer reading the summary sees how much of the contract the verdict rests on.
 */
describe('contract coverage of a selection', () => {
  test('counts the selected areas only, and the summary carries the figure and links the table', async () => {
    const r = await runMain(['--area', 'authentication'], { timeoutMs: 120_000 });
    expect(r.code, r.stdout).toBe(0);
    const report = JSON.parse(
      readFileSync(join(r.reports, 'contract-coverage.json'), 'utf8'),
    ) as ContractCoverageReport;
    expect(validate('contract-coverage', report)).toEqual([]);
    expect(report.areas).toEqual(['authentication']);
    expect(report.operations.map((o) => OPERATIONS[o.operation].area)).toEqual(['authentication']);
    const t = report.total;
    const line =
      `contract coverage: ${t.tested} of ${t.testable} testable element sides exercised ` +
      `(${t.percent}%; authentication only; `;
    expect(r.stdout).toContain(line);
    // Every testable side of the one area exercised or explained; none of the other areas counted as not tested.
    expect(t.testable).toBeLessThan(200);
    expect(t.tested).toBeGreaterThan(0);

    const summary = JSON.parse(readFileSync(join(r.reports, 'conformance-summary.json'), 'utf8'));
    expect(validate('conformance-summary', summary)).toEqual([]);
    expect(summary.contractCoverage).toMatchObject({
      tested: t.tested,
      testable: t.testable,
      percent: t.percent,
      areas: ['authentication'],
      table: 'contract-coverage.md',
      json: 'contract-coverage.json',
    });
    expect(summary.contractCoverage.line.startsWith(line)).toBe(true);
    const md = readFileSync(join(r.reports, 'conformance-summary.md'), 'utf8');
    expect(md).toContain(`Contract coverage: ${t.tested} of ${t.testable} testable element sides exercised`);
    expect(md).toContain('see the coverage table, [contract-coverage.md](contract-coverage.md)');
  });

  test('a run of every area counts every operation and names no selection', async () => {
    const r = await runMain(['--grep', 'listInstitutionDisclosures'], { timeoutMs: 120_000 });
    const report = JSON.parse(
      readFileSync(join(r.reports, 'contract-coverage.json'), 'utf8'),
    ) as ContractCoverageReport;
    expect(report.operations.length).toBe(Object.keys(OPERATIONS).length);
    expect(r.stdout).toMatch(
      /^contract coverage: \d+ of \d+ testable element sides exercised \(\d+(\.\d+)?%; \d+ not/m,
    );
  });
});
