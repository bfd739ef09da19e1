import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { faker } from '@faker-js/faker';
import { COVERAGE_CELL } from '../harness/contract-coverage/files';
import {
  documentedType,
  memberAt,
  typeViolationCells,
  violatingValue,
  withMember,
} from '../harness/contract-coverage/generate';
import { contractCoverage } from '../harness/contract-coverage/measure';
import { buildCoverageModel, type SchemaNode } from '../harness/contract-coverage/model';
import { SCHEMA_DIR, validate } from '../harness/schemas';
import { FEATURES_BY_AREA } from '../suites';
import { runAreas } from './_reference';

/**
 * Generated cases (issue 23): one case per testable type-violated body cell of revocation and transfers,
 * derived from the model; each breaks exactly its member's type, names its cell and its requirements.
 */

const fileSchema = (name: string) => JSON.parse(readFileSync(`${SCHEMA_DIR}${name}.schema.json`, 'utf8')) as SchemaNode;
const OPS = ['revokeToken', 'createTransfer'] as const;

describe('cases generated from the model', () => {
  test('a member added to the Transfer schema gets a type-violated cell, so a case', () => {
    const schema = (name: string) => {
      const s = fileSchema(name);
      if (name === 'transfer') (s.properties as Record<string, SchemaNode>).probeCount = { type: 'integer' };
      return s;
    };
    const before = typeViolationCells('createTransfer').map((c) => c.element);
    const after = typeViolationCells('createTransfer', { schema }).map((c) => c.element);
    expect(after).toEqual([...before, 'probeCount']);
    expect(before).not.toContain('probeCount');
  });

  test('a violating value is of another JSON type and is seeded', () => {
    for (const cell of OPS.flatMap((op) => typeViolationCells(op))) {
      const type = documentedType(cell);
      const value = violatingValue(type, undefined, faker);
      const ok = validate('transfer', withMember({}, cell.element, value));
      if (cell.operation === 'createTransfer') expect(ok.length, cell.element).toBeGreaterThan(0);
      faker.seed(7);
      const a = violatingValue(type, undefined, faker);
      faker.seed(7);
      expect(violatingValue(type, undefined, faker)).toEqual(a);
    }
  });

  test('every testable type-violated cell of operations 8 and 9 is exercised on the reference target', async () => {
    const { cases, failed } = await runAreas({ areas: ['authentication', 'money-movement'] });
    expect([...failed]).toEqual([]);
    const report = contractCoverage(cases, buildCoverageModel({ only: [...OPS] }));
    const cells = report.operations.flatMap((o) => o.cells).filter((c) => c.side === 'type-violated');
    expect(cells.filter((c) => c.status !== 'not-testable').map((c) => `${c.id}: ${c.status}`)).toEqual(
      cells.filter((c) => c.status !== 'not-testable').map((c) => `${c.id}: tested`),
    );
    // Each generated case names its cell, sent a body that breaks exactly that member's type, and was refused.
    const generated = cases.filter((c) => c.parameters[COVERAGE_CELL]);
    expect(generated.length).toBe(OPS.flatMap((op) => typeViolationCells(op)).length - 3);
    for (const c of generated) {
      const cell = OPS.flatMap((op) => typeViolationCells(op)).find((x) => x.id === c.parameters[COVERAGE_CELL])!;
      expect(cell, c.id).toBeDefined();
      expect(c.outcome, c.id).toBe('passed');
      const body = JSON.parse(c.exchanges[0]!.request.body ?? '{}') as Record<string, unknown>;
      expect(typeof memberAt(body, cell.element), c.id).not.toBe(documentedType(cell));
      if (cell.operation === 'createTransfer') {
        const errors = validate('transfer', body);
        expect(errors.length, `${c.id}: ${errors.join('; ')}`).toBe(1);
        expect(errors[0], c.id).toContain(cell.element.split('.').pop()!);
      }
      expect(c.exchanges[0]!.response!.status, c.id).toBe(400);
      expect(
        c.requirements.some((r) => /BODY-TYPES|BODY-400/.test(r)),
        c.id,
      ).toBe(true);
      expect(c.exchanges[0]!.curl, c.id).toMatch(/^curl /);
    }
  });

  test('the generated titles are unique and stable across seeds', () => {
    const titles = [...FEATURES_BY_AREA['money-movement'], ...FEATURES_BY_AREA.authentication].flatMap((f) =>
      f.cases.map((c) => c.title),
    );
    expect(new Set(titles).size).toBe(titles.length);
  });
});
