import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { contractCoverage, type CellResult, type ContractCoverageReport } from '../harness/contract-coverage/measure';
import { buildCoverageModel, membersOf } from '../harness/contract-coverage/model';
import { CONTRACT_COVERAGE_FILES, contractCoverageLine } from '../harness/contract-coverage/write';
import type { CaseReport } from '../harness/model';
import type { TargetConfig } from '../harness/config';
import { CATALOG } from '../requirements';
import { runMain } from './_main';
import { runAreas } from './_reference';

/**
 * Issue 23, done when: "Every element the spec documents is either tested or listed with the reason it
 * cannot be." The embedded run leaves no cell not tested without a reason; what this target gives no
 * occasion for is not applicable, with the reason, derived from the schemas and the configuration.
 */

const model = buildCoverageModel();
const cellsOf = (r: ContractCoverageReport) => r.operations.flatMap((o) => o.cells);
const find = (r: ContractCoverageReport, id: string): CellResult => {
  const c = cellsOf(r).find((x) => x.id === id);
  if (!c) throw new Error(`no cell ${id}`);
  return c;
};

describe('the embedded run (npm run conformance)', () => {
  let report: ContractCoverageReport;
  let line: string | undefined;
  beforeAll(async () => {
    const run = await runMain(['--quiet']);
    try {
      expect(run.code, run.stdout).toBe(0);
      report = JSON.parse(
        readFileSync(join(run.reports, CONTRACT_COVERAGE_FILES.json), 'utf8'),
      ) as ContractCoverageReport;
      line = run.stdout.split('\n').find((l) => l.startsWith('contract coverage: '));
    } finally {
      rmSync(run.reports, { recursive: true, force: true });
    }
  });

  test('leaves no cell not tested without a reason; every cell not exercised says why', () => {
    const all = cellsOf(report);
    expect(all.length).toBe(model.cells.length);
    const unexplained = all.filter((c) => c.status === 'not-tested' && !c.reason).map((c) => c.id);
    expect(unexplained).toEqual([]);
    for (const c of all.filter((x) => x.status !== 'tested')) expect(c.reason, c.id).toBeTruthy();
    expect(report.total.tested).toBeGreaterThan(0);
    expect(line).toBe(contractCoverageLine(report));
  });

  test('what the reference target never answers, or is not configured to send, is not applicable, with why', () => {
    const na = cellsOf(report).filter((c) => c.status === 'not-applicable');
    expect(na.length).toBeGreaterThan(0);
    expect(report.total.notApplicable).toBe(na.length);
    expect(report.total.testable).toBe(report.total.cells - report.total.notTestable - na.length);
    // The reference answers no payoffAmount; schemas/transfer.schema.json requires none of its members.
    expect(find(report, 'createTransfer response-member 200 payoffAmount.amount received').reason).toMatch(
      /judged 200 answers of this target carried it, .*schemas\/transfer does not require payoffAmount\)$/,
    );
    // Its 401 has the token error shape: code and message belong to the other shape the spec shows.
    expect(find(report, 'revokeToken response-member 401 code received').reason).toMatch(
      /alternative shapes \(anyOf\)/,
    );
    expect(find(report, 'revokeToken response-member 401 statusMessage received').status).toBe('tested');
    // The embedded configuration sets neither testData.institutionCustomerId nor testData.accountType.
    expect(find(report, 'deleteUserDisclosureById query AccountType sent').reason).toMatch(
      /^the suite sends it only where testData\.accountType is configured, .*multi-statement disclosures"\)$/,
    );
  });
});

describe('not applicable is derived, not listed', () => {
  let cases: CaseReport[];
  let config: TargetConfig;
  beforeAll(async () => {
    ({ cases, config } = await runAreas({ areas: ['disclosures'] }));
  });
  const only = buildCoverageModel({ only: ['changeUserDisclosure', 'createInstitutionDisclosure'] });
  const CUSTOMER = 'changeUserDisclosure query InstitutionCustomerId sent';

  test('a parameter sent only where configured: not applicable where testData lacks it, else not tested', () => {
    const unset = contractCoverage(cases, only, { testData: config.testData });
    expect(find(unset, CUSTOMER).status).toBe('not-applicable');
    // Configured, the suite would have had to send it: no judged exchange did, so it is not tested.
    const set = contractCoverage(cases, only, { testData: { ...config.testData, institutionCustomerId: 'C-1' } });
    expect(find(set, CUSTOMER).status).toBe('not-tested');
    // Recorded traffic (no configuration of what the suite sends): not tested either.
    expect(find(contractCoverage(cases, only, { source: 'traffic' }), CUSTOMER).status).toBe('not-tested');
  });

  test('a response member the answer may leave out: not applicable only while no judged answer carries it', () => {
    const id = 'createInstitutionDisclosure response-member 2XX institutionId received';
    const before = contractCoverage(cases, only);
    expect(find(before, id).status).toBe('not-applicable');
    expect(find(before, id).reason).toMatch(/institution-disclosure-create-response does not require institutionId/);
    // The same run, had the target answered institutionId too: tested.
    const answered = cases.map((c) => ({
      ...c,
      exchanges: c.exchanges.map((x) =>
        x.operation === 'createInstitutionDisclosure' && x.response && x.response.status < 300
          ? { ...x, response: { ...x.response, body: withMember(x.response.body, 'institutionId', '1001') } }
          : x,
      ),
    }));
    expect(find(contractCoverage(answered, only), id).status).toBe('tested');
    // A member the schema requires is never not applicable: missing, it is not tested.
    const listed = 'createInstitutionDisclosure response-member 2XX institutionDisclosureData received';
    const stripped = cases.map((c) => ({
      ...c,
      exchanges: c.exchanges.map((x) =>
        x.operation === 'createInstitutionDisclosure' && x.response
          ? { ...x, response: { ...x.response, body: '{}' } }
          : x,
      ),
    }));
    expect(find(contractCoverage(stripped, only), listed).status).toBe('not-tested');
  });

  test('membersOf says why a member may be absent: not required at some level, in one anyOf branch, in a list', () => {
    const absent = (schema: string, path: string) => membersOf(schema).find((m) => m.path === path)!.absent;
    expect(absent('institution-disclosure-create-response', 'institutionDisclosureId')).toBeUndefined();
    expect(absent('institution-disclosure-create-response', 'institutionDisclosureStatus')).toMatch(/not require/);
    expect(absent('transfer-error', 'code')).toBeUndefined();
    expect(absent('token-revocation-error', 'code')).toMatch(/2 alternative shapes \(anyOf\)/);
    expect(absent('institution-disclosure-list', 'institutionDisclosures')).toBeUndefined();
    expect(absent('transfer', 'amount.currencyCode')).toMatch(/does not require amount$/);
  });
});

describe('the omission of a member named by an everyday word', () => {
  const omitted = (m: ReturnType<typeof buildCoverageModel>, element: string) =>
    m.cells.find((c) => c.operation === 'updateContactInfo' && c.element === element && c.side === 'omitted')!;

  test('is not made testable by a rule that uses the word for something else ("does not state it")', () => {
    // OP10-AUTH-EXPECTED says "although the spec does not state it … not served without those credentials".
    expect(CATALOG.find((r) => r.id === 'OP10-AUTH-EXPECTED')!.statement).toMatch(/does not state it/);
    expect(omitted(model, 'postalAddress.state').notTestable).toBe('the spec does not say whether it is required');
    expect(omitted(model, 'postalAddress.country').notTestable).toBe('the spec does not say whether it is required');
  });

  test('is made testable by a rule that names it with its object', () => {
    const catalog = [
      ...CATALOG,
      {
        id: 'OP10-PROBE-STATE',
        section: '10. Update contact information',
        grade: 'MUST' as const,
        operations: [10],
        statement: 'A postalAddress without state is not served.',
      },
    ];
    expect(omitted(buildCoverageModel({ catalog }), 'postalAddress.state').notTestable).toBeUndefined();
    expect(omitted(buildCoverageModel({ catalog }), 'postalAddress.country').notTestable).toBeDefined();
  });
});

function withMember(body: string, member: string, value: unknown): string {
  return JSON.stringify({ ...(JSON.parse(body) as Record<string, unknown>), [member]: value });
}
