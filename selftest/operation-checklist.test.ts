import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { CATALOG } from '../requirements';
import type { Area } from '../harness/model';
import { OPERATIONS, type OperationKey } from '../harness/operations';
import { OPERATION_DOCUMENTATION } from '../harness/operations-documented';
import { SCHEMA_DIR } from '../harness/schemas';
import { FEATURES_BY_AREA } from '../suites';
import { FAULTS } from '../reference-target/faults';
import { EXCHANGE_RULES } from '../harness/rules/exchange-rules';
import { authenticationArea } from '../reference-target/areas/authentication';
import { contactInfoArea } from '../reference-target/areas/contact-info';
import { disclosuresArea } from '../reference-target/areas/disclosures';
import { moneyMovementArea } from '../reference-target/areas/money-movement';
import type { AreaContext } from '../reference-target/areas/types';
import { fixtureSet } from '../reference-target/fixture-sets';
import { ReferenceState } from '../reference-target/state';

/**
 * A new operation is a short, checked list (CONTRIBUTING, "A new operation"): for every operation of
 * harness/operations.ts, the catalog names its number, harness/operations-documented.ts documents it with
 * schemas that exist, data-builders/ has its area's builders, suites/ has a feature for it, the reference
 * target serves it (faultless) and a named fault of its area breaks one of its requirements; and every
 * catalog requirement is declared by a case, or is notTestable, or is judgedInTraffic.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The builders' module of each area. */
const BUILDERS: Record<Area, string> = {
  disclosures: 'disclosures',
  authentication: 'authentication',
  'money-movement': 'transfers',
  'contact-info': 'contact-info',
};
const KEYS = Object.keys(OPERATIONS) as OperationKey[];
const list = (lines: string[]) => (lines.length ? `\n  ${lines.join('\n  ')}` : '');

const ctx: AreaContext = { state: new ReferenceState(fixtureSet('default')), fault: () => false };
const AREAS = [disclosuresArea(ctx), authenticationArea(ctx), moneyMovementArea(ctx), contactInfoArea(ctx)];
function suiteFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? suiteFiles(`${folder}/${e.name}`) : e.name.endsWith('.ts') ? [join(ROOT, folder, e.name)] : [],
  );
}
const template = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

describe('a new operation is a checked list', () => {
  test("the catalog has requirements naming each operation's number", () => {
    const missing = KEYS.filter((k) => !CATALOG.some((r) => r.operations.includes(OPERATIONS[k].number)));
    expect(missing, `operations no catalog requirement names:${list(missing)}`).toEqual([]);
  });

  test('each operation has documented facts (harness/operations-documented.ts) naming schemas of schemas/', () => {
    const bad = KEYS.flatMap((k) => {
      const doc = OPERATION_DOCUMENTATION[k];
      if (!doc) return [`${k}: no documented facts`];
      if (doc.responses.length === 0) return [`${k}: no documented response`];
      const schemas = [doc.body?.schema, ...doc.responses.flatMap((r) => [r.schema, r.elements?.schema])];
      return schemas
        .filter((s): s is string => s !== undefined)
        .filter((s) => !existsSync(join(SCHEMA_DIR, `${s}.schema.json`)))
        .map((s) => `${k}: schema ${s} is not in schemas/`);
    });
    expect(bad, `operations without documented facts:${list(bad)}`).toEqual([]);
  });

  test("each operation's area has request builders in data-builders/", () => {
    const missing = KEYS.filter((k) => !existsSync(join(ROOT, 'data-builders', `${BUILDERS[OPERATIONS[k].area]}.ts`)));
    expect(missing, `operations whose area has no builders in data-builders/:${list(missing)}`).toEqual([]);
  });

  test('each operation has a feature in suites/ (or shares one with the other form of its number)', () => {
    const features = Object.values(FEATURES_BY_AREA).flat();
    const driven = new Set(features.map((f) => OPERATIONS[f.operation].number));
    const missing = KEYS.filter((k) => !driven.has(OPERATIONS[k].number));
    expect(missing, `operations no feature of suites/ drives:${list(missing)}`).toEqual([]);
    const sources = suiteFiles('suites')
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const unsent = KEYS.filter((k) => !sources.includes(`'${k}'`));
    expect(unsent, `operations no driver of suites/ sends:${list(unsent)}`).toEqual([]);
  });

  test('the faultless reference target has a route for each operation', () => {
    const missing = KEYS.filter((k) => {
      const op = OPERATIONS[k];
      const base = op.base === 'contactInfoBaseUrl' ? 'baseUrl' : op.base;
      return !AREAS.filter((a) => a.base === base)
        .flatMap((a) => a.routes)
        .some((r) => r.method === op.method && template(r.path) === template(op.path));
    });
    expect(missing, `operations reference-target/areas/ does not serve:${list(missing)}`).toEqual([]);
  });

  test('a named fault of reference-target/faults/ breaks a requirement of each operation', () => {
    const missing = KEYS.filter((k) => {
      const ids = new Set(CATALOG.filter((r) => r.operations.includes(OPERATIONS[k].number)).map((r) => r.id));
      return !FAULTS.some((f) => f.breaks.some((id) => ids.has(id)));
    });
    expect(missing, `operations no named fault breaks:${list(missing)}`).toEqual([]);
  });

  test('every catalog requirement is declared by a case, or is notTestable, or is judgedInTraffic', () => {
    const cases = Object.values(FEATURES_BY_AREA)
      .flat()
      .flatMap((f) => f.cases);
    const declared = new Set(cases.flatMap((c) => c.requirements));
    const orphans = CATALOG.filter((r) => !declared.has(r.id) && !r.notTestable && !r.judgedInTraffic).map((r) => r.id);
    expect(orphans, `requirements nothing tests:${list(orphans)}`).toEqual([]);
  });

  test(
    'each operation has rules in harness/rules/ (exchange-rules.ts), ' + 'and every rule judges a catalog requirement',
    () => {
      const without = KEYS.filter((k) => typeof EXCHANGE_RULES[k] !== 'function');
      expect(without, `operations without rules:${list(without)}`).toEqual([]);
      const ids = new Set(CATALOG.map((r) => r.id));
      const named = suiteFiles('harness/rules').flatMap((f) =>
        [...readFileSync(f, 'utf8').matchAll(/'((?:OP\d+|DISC|STATE|RES|CONV|CLIENT)-[A-Z0-9-]+)'/g)].map((m) => m[1]!),
      );
      const unknown = [...new Set(named.filter((id) => !ids.has(id)))];
      expect(unknown, `harness/rules/ judges requirements the catalog does not have:${list(unknown)}`).toEqual([]);
    },
  );

  test('every requirement a driver holds an exchange to is stated by a rule of harness/rules/', () => {
    const stated = new Set(
      suiteFiles('harness/rules').flatMap((f) =>
        [...readFileSync(f, 'utf8').matchAll(/'([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)'/g)].map((m) => m[1]!),
      ),
    );
    const judged = suiteFiles('suites').flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/\.judge(?:Log)?\(([^;]*?)\)/gs)].flatMap((m) =>
        [...m[1]!.matchAll(/'([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)'/g)].map((x) => x[1]!),
      ),
    );
    const missing = [...new Set(judged.filter((id) => !stated.has(id)))];
    expect(judged.length).toBeGreaterThan(20);
    expect(
      missing,
      `requirements drivers judge that no rule states (a rule neither source can reach):${list(missing)}`,
    ).toEqual([]);
  });
});
