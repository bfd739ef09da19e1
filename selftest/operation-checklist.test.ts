import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { CATALOG } from '../requirements';
import type { Area } from '../harness/model';
import { OPERATIONS, type OperationKey } from '../harness/operations';
import { OPERATION_DOCUMENTATION } from '../harness/operations-documented';
import { CONFIG_SCHEMA_FILE, configSchemaText } from '../harness/config-validator';
import { SCHEMA_DIR } from '../harness/schemas';
import { FEATURES_BY_AREA } from '../suites';
import { FAULTS } from '../reference-target/faults';
import { AREA_RULES, EXCHANGE_RULES } from '../harness/rules/exchange-rules';
import { authenticationArea } from '../reference-target/areas/authentication';
import { contactInfoArea } from '../reference-target/areas/contact-info';
import { disclosuresArea } from '../reference-target/areas/disclosures';
import { moneyMovementArea } from '../reference-target/areas/money-movement';
import type { AreaContext } from '../reference-target/areas/types';
import { fixtureSet } from '../reference-target/fixture-sets';
import { PREFIXES } from '../reference-target/fixtures';
import { compile, type Route } from '../reference-target/http';
import { ReferenceState } from '../reference-target/state';

/**
 * A new operation is a short, checked list (CONTRIBUTING, "A new operation"): for every operation of
 * harness/operations.ts, the catalog names its number, its entry (in harness/operations-<area>.ts) documents it
 * with schemas that exist, data-builders/ has its area's builders, suites/ has a feature for it, the reference
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

/**
 * The files a person edits by hand for a new operation of `area` (CONTRIBUTING, "A new operation", step by
 * step): counted, and held to NEW_OPERATION_BUDGET. `<op>` stands for the new operation's own files.
 */
export function newOperationFiles(area: Area): string[] {
  return [
    `requirements/${area}.ts`,
    'schemas/<op>.schema.json',
    `harness/operations-${area}.ts`,
    `harness/rules/${RULES_FILE[area]}.ts`,
    `suites/${area}/<op>.ts`,
    `suites/${area}/index.ts`,
    `reference-target/areas/${area}.ts`,
    `reference-target/faults/${area}.ts`,
  ];
}
/**
 * The files a new operation changes that nobody edits: a command writes them from the operations table, and a
 * self-test fails until it has (CONTRIBUTING, "A new operation", the last step).
 */
export const REGENERATED_FILES = [
  { file: 'schemas/config.schema.json', command: 'npx tsx bin/config-schema.ts', current: configSchemaIsCurrent },
];
function configSchemaIsCurrent(): boolean {
  const text = readFileSync(CONFIG_SCHEMA_FILE, 'utf8');
  return text === configSchemaText(text);
}
/** The rules file of each area's operations (its record of OperationRules; revocation for authentication). */
const RULES_FILE: Record<Area, string> = {
  disclosures: 'user-disclosures',
  authentication: 'revocation',
  'money-movement': 'transfers',
  'contact-info': 'contact-info',
};
/**
 * Issue 32's goal is 8. Measured with a scratch read operation of contact data (operation 11, GET
 * /customers/{customerId}:contact-info) in a scratch copy: 8 files edited by hand, and schemas/config.schema.json
 * written by its command (branch s38-newop's report).
 */
export const NEW_OPERATION_BUDGET = 8;

/**
 * For each operation, the routes of the reference target's mount that answer its documented path with its
 * method: a route of another operation that matches it too is a collision (the first route listed would win).
 */
export function routeCollisions(
  mounts: ReadonlyArray<{ prefix: string; routes: readonly Route[] }>,
  operations: ReadonlyArray<{ name: string; method: string; path: string; prefix: string }>,
): string[] {
  return operations.flatMap((op) => {
    const concrete = op.path.replace(/\{(\w+)\}/g, (_, n: string) => `sample-${n}`);
    const routes = mounts.find((m) => m.prefix === op.prefix)?.routes ?? [];
    const hits = routes.filter((r) => compile(r)(op.method, concrete) !== undefined);
    const own = hits.filter((r) => template(r.path) === template(op.path));
    if (hits.length === own.length && own.length <= 1) return [];
    return [`${op.name} (${op.method} ${op.path}) is also answered by ${hits.map((r) => r.path).join(', ')}`];
  });
}

describe('a new operation is a checked list', () => {
  test("the catalog has requirements naming each operation's number", () => {
    const missing = KEYS.filter((k) => !CATALOG.some((r) => r.operations.includes(OPERATIONS[k].number)));
    expect(missing, `operations no catalog requirement names:${list(missing)}`).toEqual([]);
  });

  test("each operation's entry documents it (documented) with schemas of schemas/", () => {
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

  test('no route of the reference target answers another operation (a new route cannot collide silently)', () => {
    const prefixOf = (base: string) => PREFIXES[(base === 'contactInfoBaseUrl' ? 'baseUrl' : base) as 'baseUrl'];
    const mounts = [...new Set(AREAS.map((a) => PREFIXES[a.base]))].map((prefix) => ({
      prefix,
      routes: AREAS.filter((a) => PREFIXES[a.base] === prefix).flatMap((a) => a.routes),
    }));
    const ops = KEYS.map((k) => ({ ...OPERATIONS[k], name: k, prefix: prefixOf(OPERATIONS[k].base) }));
    const collisions = routeCollisions(mounts, ops);
    expect(collisions, `operations two routes answer:${list(collisions)}`).toEqual([]);
    // The check itself: a greedy {customerId} route answers the contact-info path too.
    const handler = () => ({ status: 200 });
    const fake = [
      { method: 'GET', path: '/customers/{customerId}', handler },
      { method: 'GET', path: '/customers/{customerId}:contact-info', handler },
    ];
    const op = { name: 'x', method: 'GET', path: '/customers/{customerId}:contact-info', prefix: '/p' };
    expect(routeCollisions([{ prefix: '/p', routes: fake }], [op])).toHaveLength(1);
    expect(routeCollisions([{ prefix: '/p', routes: fake.slice(1) }], [op])).toEqual([]);
  });

  test(`a new operation is edited by hand in at most ${NEW_OPERATION_BUDGET} files, each named in the list`, () => {
    for (const area of ['disclosures', 'authentication', 'money-movement', 'contact-info'] as const) {
      const files = newOperationFiles(area);
      const absent = files.filter((f) => !f.includes('<op>') && !existsSync(join(ROOT, f)));
      expect(absent, `files the checklist names that do not exist:${list(absent)}`).toEqual([]);
      expect(files.length).toBeLessThanOrEqual(NEW_OPERATION_BUDGET);
    }
  });

  test("each operation's entry is in its area's file of the table, where the checklist says to write it", () => {
    const misplaced = KEYS.filter((k) => {
      const file = join(ROOT, 'harness', `operations-${OPERATIONS[k].area}.ts`);
      return !existsSync(file) || !new RegExp(`^  ${k}: \\{$`, 'm').test(readFileSync(file, 'utf8'));
    });
    expect(misplaced, `operations not written in harness/operations-<area>.ts:${list(misplaced)}`).toEqual([]);
  });

  test('every file a new operation changes without an edit is current: its command has been run', () => {
    const stale = REGENERATED_FILES.filter((r) => !r.current()).map((r) => `${r.file}: run ${r.command}`);
    expect(stale, `files to write again:${list(stale)}`).toEqual([]);
  });

  test('each operation has its rule in exactly one area of harness/rules/ (AREA_RULES)', () => {
    const named = AREA_RULES.flatMap((rules) => Object.keys(rules));
    const twice = named.filter((k, i) => named.indexOf(k) !== i);
    expect(twice, `operations two areas give a rule:${list(twice)}`).toEqual([]);
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
