import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  contractCoverage,
  cutJson,
  type ContractCoverageOptions,
  type ContractCoverageReport,
} from '../harness/contract-coverage/measure';
import { buildCoverageModel, membersOf, type SchemaNode } from '../harness/contract-coverage/model';
import {
  CONTRACT_COVERAGE_FILES,
  contractCoverageLine,
  writeContractCoverage,
} from '../harness/contract-coverage/write';
import type { CaseReport } from '../harness/model';
import { OPERATION_DOCUMENTATION } from '../harness/operations-documented';
import { OPERATIONS, type OperationKey } from '../harness/operations';
import { SCHEMA_DIR, validate } from '../harness/schemas';
import { SHOWN } from '../harness/shown-values';
import { CATALOG } from '../requirements';
import { main } from '../harness/run/main';
import { runMain } from './_main';
import { judgeFile, recordActiveRun } from './_recorded-run';
import { runAreas } from './_reference';
import { joined } from './_regex';

/**
 * Contract coverage (issue 23, harness/contract-coverage/): the model is derived from the documented
 * facts, the schemas and the catalog; the report measures a run's exchanges against it.
 */

const model = buildCoverageModel();
const cellsOf = (m: ReturnType<typeof buildCoverageModel>, op: OperationKey, element: string) =>
  m.cells.filter((c) => c.operation === op && c.element === element);
const fileSchema = (name: string) => JSON.parse(readFileSync(`${SCHEMA_DIR}${name}.schema.json`, 'utf8')) as SchemaNode;

describe('the model is derived, not listed', () => {
  test("a header added to an operation's documented facts gets its cells; the real facts are untouched", () => {
    const documentation = structuredClone(OPERATION_DOCUMENTATION);
    documentation.listInstitutionDisclosures.parameters.push({
      name: 'X-Probe',
      in: 'header',
      required: true,
      description: 'A probe.',
      schema: { type: 'string', enum: ['on', 'off'] },
    });
    const probed = buildCoverageModel({ documentation });
    const cells = cellsOf(probed, 'listInstitutionDisclosures', 'X-Probe');
    expect(cells.map((c) => `${c.side}${c.value ? ` ${c.value}` : ''}`).sort()).toEqual([
      'omitted',
      'sent',
      'shown-value off',
      'shown-value on',
      'type-violated',
    ]);
    // Required, but the disclosures document no refusal: omitting it or breaking its type is not testable.
    expect(cells.find((c) => c.side === 'omitted')!.notTestable).toMatch(
      /Errors of the disclosures operations: not shown/,
    );
    expect(cells.find((c) => c.side === 'sent')!.notTestable).toBeUndefined();
    expect(cellsOf(model, 'listInstitutionDisclosures', 'X-Probe')).toEqual([]);
    expect(probed.cells.length).toBe(model.cells.length + 5);
  });

  test('a catalog rule that states the header is required makes its omission testable, and is its input', () => {
    const documentation = structuredClone(OPERATION_DOCUMENTATION);
    documentation.listInstitutionDisclosures.parameters.push({
      name: 'X-Probe',
      in: 'header',
      description: 'A probe.',
    });
    const rule = {
      id: 'OP1-PROBE',
      section: '1. List institution disclosures',
      grade: 'MUST' as const,
      operations: [1],
      statement: 'A request without X-Probe is not served.',
    };
    const without = cellsOf(buildCoverageModel({ documentation }), 'listInstitutionDisclosures', 'X-Probe').find(
      (c) => c.side === 'omitted',
    )!;
    expect(without.notTestable).toMatch(/does not say whether it is required/);
    const probed = buildCoverageModel({ documentation, catalog: [...CATALOG, rule] });
    const omitted = cellsOf(probed, 'listInstitutionDisclosures', 'X-Probe').find((c) => c.side === 'omitted')!;
    expect(omitted.notTestable).toBeUndefined();
    expect(omitted.rules).toEqual(['OP1-PROBE']);
    expect(cellsOf(probed, 'listInstitutionDisclosures', 'OP1-PROBE').map((c) => c.side)).toEqual(['judged']);
  });

  test('a body member added to a schema gets its cells, with the values the schema shows', () => {
    const schema = (name: string) => {
      const s = fileSchema(name);
      if (name === 'institution-disclosure-create-request')
        (s.properties as Record<string, unknown>).probeKind = { type: 'string', examples: ['PROBE'] };
      return s;
    };
    const cells = cellsOf(buildCoverageModel({ schema }), 'createInstitutionDisclosure', 'probeKind');
    expect(cells.map((c) => `${c.kind} ${c.side}${c.value ? ` ${c.value}` : ''}`).sort()).toEqual([
      'body-member omitted',
      'body-member sent',
      'body-member shown-value PROBE',
      'body-member type-violated',
    ]);
  });

  test('every documented parameter, body member, response member, status, shown value and rule has its cells', () => {
    for (const key of Object.keys(OPERATIONS) as OperationKey[]) {
      const doc = OPERATION_DOCUMENTATION[key];
      const mine = model.cells.filter((c) => c.operation === key);
      for (const p of doc.parameters)
        expect(
          mine.some((c) => c.kind === p.in && c.element === p.name && c.side === 'sent'),
          `${key} ${p.name}`,
        ).toBe(true);
      for (const m of doc.body ? membersOf(doc.body.schema) : []) {
        expect(
          mine.filter((c) => c.kind === 'body-member' && c.element === m.path).map((c) => c.side),
          `${key} ${m.path}`,
        ).toEqual(expect.arrayContaining(['sent', 'omitted']));
      }
      for (const r of doc.responses)
        expect(
          mine.some((c) => c.kind === 'status' && (c.status === r.status || r.status === 'default')),
          `${key} ${r.status}`,
        ).toBe(true);
      const first = (Object.keys(OPERATIONS) as OperationKey[]).find(
        (k) => OPERATIONS[k].number === OPERATIONS[key].number,
      );
      if (first === key) {
        for (const r of CATALOG.filter((q) => q.operations.includes(OPERATIONS[key].number)))
          expect(
            mine.some((c) => c.kind === 'rule' && c.element === r.id),
            `${key} ${r.id}`,
          ).toBe(true);
      }
    }
    const shownSent = new Set(model.cells.filter((c) => c.side === 'shown-value').map((c) => c.value));
    for (const [member, values] of Object.entries(SHOWN))
      for (const v of values) expect(shownSent.has(v), `${member} ${v}`).toBe(true);
  });

  test('what the spec leaves open is not testable, with the reason', () => {
    const differ = model.cells.find(
      (c) => c.operation === 'createInstitutionDisclosure' && c.kind === 'combination' && c.side === 'differ',
    )!;
    expect(differ.notTestable).toMatch(/which of the two wins when they differ: not shown/);
    expect(cellsOf(model, 'revokeToken', '500')[0]!.notTestable).toMatch(/cannot safely provoke/);
    expect(cellsOf(model, 'updateContactInfo', 'authentication')[0]!.notTestable).toMatch(/not shown/);
    const notShown = model.cells.filter(
      (c) => c.kind === 'rule' && CATALOG.find((r) => r.id === c.element)!.notTestable,
    );
    expect(notShown.length).toBeGreaterThan(0);
    for (const c of notShown) expect(c.notTestable).toBeTruthy();
  });
});

describe('measured on a run of the suites against the reference target', () => {
  let cases: CaseReport[];
  let report: ContractCoverageReport;
  let dir: string;
  let opts: ContractCoverageOptions;
  beforeAll(async () => {
    const run = await runAreas({ areas: ['disclosures', 'authentication', 'money-movement', 'contact-info'] });
    cases = run.cases;
    opts = { testData: run.config.testData };
    report = contractCoverage(cases, model, opts);
    dir = mkdtempSync(join(tmpdir(), 'dbsi-contract-coverage-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const cell = (op: OperationKey, element: string, side: string, value?: string) =>
    report.operations
      .find((o) => o.operation === op)!
      .cells.find((c) => c.element === element && c.side === side && c.value === value)!;

  test('the cells the suite exercises are tested, with the case and exchange that did', () => {
    const tested = [
      cell('listInstitutionDisclosures', 'Authorization', 'omitted'),
      cell('listInstitutionDisclosures', 'institutionDisclosures[].institutionDisclosureName', 'received'),
      cell('revokeToken', 'institutionId', 'omitted'),
      cell('revokeToken', 'institutionId', 'type-violated'),
      cell('createTransfer', '401', 'received'),
      cell('createTransfer', '403', 'received'),
      cell('createTransfer', 'Authorization', 'near-miss'),
      cell('createTransfer', 'amount.amount', 'type-violated'),
      cell('createTransfer', 'paymentOption', 'shown-value', 'DEFAULT'),
      cell('createInstitutionDisclosure', 'InstitutionDisclosureStatus', 'shown-value', 'true'),
      cell('updateContactInfo', 'phoneNumber.oldPhoneNumber', 'omitted'),
      cell('changeUserDisclosureById', 'institutionUserDisclosureId', 'reference'),
      cell('listUserDisclosures', 'STATE-UD-CREATE', 'judged'),
      cell('createUserDisclosure', 'STATE-UD-CREATE', 'judged'),
    ];
    for (const [i, c] of tested.entries()) expect(c?.status, c?.id ?? `cell ${i}`).toBe('tested');
    const ids = new Set(cases.map((c) => c.id));
    const seqs = new Set(cases.flatMap((c) => c.exchanges.map((x) => x.seq)));
    for (const c of report.operations.flatMap((o) => o.cells).filter((c) => c.status === 'tested')) {
      expect(ids.has(c.evidence!.case), c.id).toBe(true);
      expect(seqs.has(c.evidence!.exchange), c.id).toBe(true);
    }
    // Every catalog rule a check judged (passed or failed) is tested on some operation it concerns.
    const judged = new Set(
      cases.flatMap((c) => c.checks.filter((k) => k.outcome !== 'not-applicable').map((k) => k.requirement)),
    );
    const ruleCells = report.operations.flatMap((o) => o.cells).filter((c) => c.kind === 'rule');
    for (const r of judged)
      expect(
        ruleCells.some((c) => c.element === r && c.status === 'tested'),
        r,
      ).toBe(true);
  });

  test('the totals add up, per operation, per side and in all', () => {
    const all = report.operations.flatMap((o) => o.cells);
    expect(all.length).toBe(model.cells.length);
    expect(report.total.cells).toBe(all.length);
    const t = report.total;
    expect(t.tested + t.notTested + t.notApplicable + t.skipped + t.notTestable).toBe(t.cells);
    expect(t.testable).toBe(t.cells - t.notTestable - t.notApplicable);
    for (const k of ['cells', 'tested', 'notTested', 'notApplicable', 'skipped', 'notTestable'] as const) {
      expect(
        report.operations.reduce((n, o) => n + o.counts[k], 0),
        k,
      ).toBe(report.total[k]);
      expect(
        Object.values(report.bySide).reduce((n, c) => n + c[k], 0),
        k,
      ).toBe(report.total[k]);
    }
    expect(report.total.skipped).toBe(0);
    expect(report.total.percent).toBe(Math.round((report.total.tested / report.total.testable) * 1000) / 10);
    expect(report.total.percent).toBeGreaterThan(50);
    expect(t.notApplicable).toBeGreaterThan(0);
    expect(contractCoverageLine(report)).toBe(
      `contract coverage: ${t.tested} of ${t.testable} testable element sides exercised ` +
        `(${t.percent}%; ${t.notApplicable} not applicable on this target, ${t.notTestable} not testable)`,
    );
  });

  test('the JSON validates against schemas/contract-coverage.schema.json; the writer writes both files', () => {
    expect(validate('contract-coverage', report)).toEqual([]);
    const { line } = writeContractCoverage(dir, cases, opts);
    expect(line).toMatch(
      joined(
        '',
        /^contract coverage: \d+ of \d+ testable element sides exercised \(\d+(\.\d)?%; /,
        /\d+ not applicable on this target, \d+ not testable\)$/,
      ),
    );
    const written = JSON.parse(readFileSync(join(dir, CONTRACT_COVERAGE_FILES.json), 'utf8')) as unknown;
    expect(validate('contract-coverage', written)).toEqual([]);
    const md = readFileSync(join(dir, CONTRACT_COVERAGE_FILES.md), 'utf8');
    expect(md).toContain('# Contract coverage');
    expect(md).toContain('## 9. Create a transfer (createTransfer)\n\n`POST /db-transfers/v1/transfers`');
    for (const l of md.split('\n').filter((l) => !l.startsWith('|'))) expect(l.length, l).toBeLessThanOrEqual(120);
  });

  test('a body cut short (4 KiB as a report leaves the vitest worker) is read as far as it goes', () => {
    const cut = (t: string | undefined) => (t && t.length > 4096 ? `${t.slice(0, 4096)}… (cut)` : t);
    const crossed = cases.map((c) => ({
      ...c,
      exchanges: c.exchanges.map((x) => ({
        ...x,
        request: { ...x.request, body: cut(x.request.body) },
        response: x.response && { ...x.response, body: cut(x.response.body) ?? '' },
      })),
    }));
    expect(crossed.some((c) => c.exchanges.some((x) => x.response?.body.endsWith('(cut)')))).toBe(true);
    const after = contractCoverage(crossed, model, opts);
    expect(after.total).toEqual(report.total);
    expect(cutJson('{"a":[{"b":1,"c":"x,y"},{"b":2,"c":"z')).toEqual({ a: [{ b: 1, c: 'x,y' }, { b: 2 }] });
    expect(cutJson('{"a":"\\\\","b":"\\"},')).toEqual({ a: '\\' }); // an escaped backslash ends; a quote does not
    expect(cutJson('<html>')).toBeUndefined();
  });

  test('nothing judged: every testable cell is not tested, and the JSON still validates', () => {
    const empty = contractCoverage([], model);
    expect(empty.total.tested).toBe(0);
    expect(empty.total.notTested).toBe(empty.total.testable);
    expect(empty.total.percent).toBe(0);
    expect(validate('contract-coverage', empty)).toEqual([]);
  });
});

describe('an operation whose switch is off', () => {
  test('its testable cells are skipped, with the switch', async () => {
    const { cases } = await runAreas({ areas: ['money-movement'], allow: { moneyMovement: false } });
    const report = contractCoverage(cases, model);
    const transfer = report.operations.find((o) => o.operation === 'createTransfer')!;
    expect(transfer.counts.tested).toBe(0);
    expect(transfer.counts.skipped).toBe(transfer.counts.testable);
    expect(transfer.cells.find((c) => c.status === 'skipped')!.reason).toBe(
      'allow.moneyMovement is off on this target',
    );
    expect(report.operations.find((o) => o.operation === 'listInstitutionDisclosures')!.counts.skipped).toBe(0);
    expect(contractCoverageLine(report)).toMatch(/skipped: switch off\)$/);
    const list = report.operations.find((o) => o.operation === 'listInstitutionDisclosures')!;
    expect(list.cells.find((c) => c.status === 'not-tested')!.reason).toMatch(/^no case of this operation ran/);
  });
});

describe('the finish step of either source writes the report and prints its line', () => {
  test('an active run (main): reports/contract-coverage.md and .json, the line above the verdict', async () => {
    const run = await runMain(['--area', 'authentication', '--grep', 'OP8-AUTH-401', '--quiet']);
    try {
      const lines = run.stdout.split('\n');
      const at = lines.findIndex((l) => l.startsWith('contract coverage: '));
      expect(at, run.stdout).toBeGreaterThan(-1);
      expect(lines[at + 1]).toMatch(/^Verdict: /);
      const json = JSON.parse(
        readFileSync(join(run.reports, CONTRACT_COVERAGE_FILES.json), 'utf8'),
      ) as ContractCoverageReport;
      expect(validate('contract-coverage', json)).toEqual([]);
      expect(json.source).toBe('active');
      expect(json.total.tested).toBeGreaterThan(0);
      expect(lines[at]).toBe(contractCoverageLine(json));
      expect(readFileSync(join(run.reports, CONTRACT_COVERAGE_FILES.md), 'utf8')).toContain('# Contract coverage');
    } finally {
      rmSync(run.reports, { recursive: true, force: true });
    }
  });

  test('recorded traffic (--traffic): the same report, measured on the judged exchanges of the capture', async () => {
    const rec = await recordActiveRun({ areas: ['authentication'] });
    try {
      const j = await judgeFile(rec.har, rec.config);
      const report = contractCoverage(j.cases, model, { source: 'traffic' });
      expect(validate('contract-coverage', report)).toEqual([]);
      const revoke = report.operations.find((o) => o.operation === 'revokeToken')!;
      expect(revoke.counts.tested).toBeGreaterThan(0);
      expect(revoke.cells.find((c) => c.element === 'Authorization' && c.side === 'near-miss')!.status).toBe(
        'not-testable',
      );
      const reports = join(rec.dir, 'reports');
      const lines: string[] = [];
      const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
      await main(['--traffic', rec.har, '--config', rec.configFile, '--reports', reports], {}, io);
      const json = JSON.parse(
        readFileSync(join(reports, CONTRACT_COVERAGE_FILES.json), 'utf8'),
      ) as ContractCoverageReport;
      expect(json.source).toBe('traffic');
      expect(lines).toContain(contractCoverageLine(json));
    } finally {
      rmSync(rec.dir, { recursive: true, force: true });
    }
  });
});
