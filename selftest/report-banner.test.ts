import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { reportVerdict } from '../harness/evidence/evidence';
import { verdictBanner } from '../harness/evidence/report';
import type { ConformanceSummary } from '../harness/evidence/summary';
import { runMain } from './_main';
import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { startReferenceTarget } from '../reference-target/server';

/** Issue 25: INFO observations have their own mark and count; the front page's figures agree with the verdict. */
describe('observations and the front page', () => {
  test(
    'an unlisted value is observed, not passed: its own verdict, a ' + 'console line per kind, a line in the band',
    async () => {
      const run = await runMain(['--area', 'disclosures', '--fault', 'op1-unlisted-data-type', '--quiet']);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(
        /Observations \(INFO: 1 kind[^\n]*\n {2}◦ RES-DISCLOSURE-DATATYPE-VALUES: .*received "PDF" \(1 test\)/,
      );
      const summary = JSON.parse(
        readFileSync(join(run.reports, 'conformance-summary.json'), 'utf8'),
      ) as ConformanceSummary;
      const row = summary.requirements.find((r) => r.id === 'RES-DISCLOSURE-DATATYPE-VALUES')!;
      expect(row.verdict).toBe('observed');
      expect(summary.requirementTotals.observed).toBe(1);
      // One place at the top of the summary lists what a reviewer must weigh beside the verdict.
      const md = readFileSync(join(run.reports, 'conformance-summary.md'), 'utf8');
      expect(md).toMatch(/^## What this evidence covers\n\n(- .*\n)*- 1 requirement observed \(INFO, not failures\)/m);
      expect(md.indexOf('## What this evidence covers')).toBeLessThan(md.indexOf('| fact | value |'));
      const band = verdictBanner('<html><body></body></html>', reportVerdict(summary));
      expect(band).toContain('Observations: 1 requirement observed');
      const tests = summary.cases.length;
      expect(band).toContain(`${tests} tests: ${summary.cases.filter((c) => c.outcome === 'passed').length} passed`);
    },
  );

  test("a run that skipped tests says so in the band, where Allure's dial counts only what ran", async () => {
    const target = await startReferenceTarget({ faults: [] });
    try {
      const url = target.urls.baseUrl.replace(/\/dbsi$/, '');
      const raw = {
        name: 'banner target',
        baseUrl: `${url}/dbsi`,
        authBaseUrl: `${url}/identity`,
        transfersBaseUrl: `${url}/banking`,
        credentials: REFERENCE_CREDENTIALS,
        testData: REFERENCE_TEST_DATA,
        allow: {
          moneyMovement: false,
          contactUpdate: false,
          tokenRevocation: false,
          institutionDisclosureWrites: false,
        },
      };
      const run = await runMain(['--area', 'money-movement', '--quiet'], { raw });
      const summary = JSON.parse(
        readFileSync(join(run.reports, 'conformance-summary.json'), 'utf8'),
      ) as ConformanceSummary;
      const skipped = summary.cases.filter((c) => c.outcome === 'not-allowed').length;
      expect(skipped).toBeGreaterThan(0);
      const band = verdictBanner('<html><body></body></html>', reportVerdict(summary));
      expect(band).toContain(`${summary.cases.length} tests: `);
      expect(band).toContain(`${skipped} skipped (not allowed on this target)`);
    } finally {
      await target.close();
    }
  });
});
