import { describe, expect, test } from 'vitest';
import { contractCoverage } from '../harness/contract-coverage/measure';
import { buildCoverageModel } from '../harness/contract-coverage/model';
import { contractCoverageLine } from '../harness/contract-coverage/write';
import { contractCoverageSection, withContractCoverage } from '../harness/evidence/coverage-html';
import { verdictBanner } from '../harness/evidence/report';
import { runAreas } from './_reference';

/** Contract coverage on the HTML report's front page (issue 23): under the verdict, above the Allure app. */
describe('contract coverage in the HTML report', () => {
  test('the section goes right under the verdict banner, whatever it holds, and names every operation', async () => {
    const { cases } = await runAreas({ areas: ['money-movement'], faults: ['op9-accepts-mistyped-body'] });
    const report = contractCoverage(cases, buildCoverageModel());
    const page = '<html><body class="x">\n<div id="app"><div>allure</div></div></body></html>';
    const banner = verdictBanner(page, {
      headline: 'non-conformant',
      exitCode: 1,
      diagnosis: ['line one', '<div> in a diagnosis is text'],
      tests: '37 tests',
    });
    const html = withContractCoverage(banner, report);
    const at = (s: string) => html.indexOf(s);
    expect(at('id="dbsi-verdict"')).toBeGreaterThan(-1);
    expect(at('id="dbsi-contract-coverage"')).toBeGreaterThan(at('&lt;div&gt; in a diagnosis is text'));
    expect(at('id="dbsi-contract-coverage"')).toBeLessThan(at('<div id="app">'));
    const line = contractCoverageLine(report);
    expect(html).toContain(line.charAt(0).toUpperCase() + line.slice(1));
    for (const o of report.operations) expect(html).toContain(`(${o.operation})</td>`);
    // The cells the budget stopped are listed with the reason.
    expect(html).toMatch(/skipped<\/td><td[^>]*>not sent: the budget of transfers accepted by mistake/);
    expect(html).toContain('href="contract-coverage.md"');
    // What this target never answers (payoffAmount) is not applicable, counted apart and listed with the reason.
    expect(html).toContain('>not applicable</th>');
    expect(html).toMatch(/payoffAmount<\/td>.*?not-applicable<\/td><td[^>]*>none of the \d+ judged 200 answers/);
  });

  test('without a banner the section comes first in the body', () => {
    const report = contractCoverage([], buildCoverageModel({ only: ['revokeToken'] }));
    const html = withContractCoverage('<html><body>\n<main></main></body></html>', report);
    expect(html.indexOf('dbsi-contract-coverage')).toBeLessThan(html.indexOf('<main>'));
    expect(contractCoverageSection(report)).toMatch(/^<details id="dbsi-contract-coverage"/);
  });
});
