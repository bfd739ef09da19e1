import { readdirSync, readFileSync } from 'node:fs';
import { CATALOG, type Requirement } from '../../requirements';
import type { OperationDef, OperationKey } from '../operations';
import { OPERATION_DOCUMENTATION, type OperationDocumentation } from '../operations-documented';
import { SCHEMA_DIR } from '../schemas';
import { toComponentSchema, type JsonObject } from './dialect';

/* components/schemas of the OpenAPI document: the spec's schemas translated, and the catalog entries of each. */

interface LoadedSchema {
  name: string;
  id: string;
  schema: JsonObject;
}

export function readJson(file: string): JsonObject {
  return JSON.parse(readFileSync(file, 'utf8')) as JsonObject;
}

/** The spec's shapes among schemas/: those that carry x-spec-section (not the suite's own config and summary). */
function specSchemas(): LoadedSchema[] {
  return readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith('.schema.json'))
    .sort()
    .map((f) => ({ name: f.replace(/\.schema\.json$/, ''), schema: readJson(SCHEMA_DIR + f) }))
    .filter((s) => typeof s.schema['x-spec-section'] === 'string')
    .map((s) => ({ ...s, id: String(s.schema.$id) }));
}

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Names of the schemas a translated schema refers to. */
export function referencedNames(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => referencedNames(n, into));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') into.add(v.replace('#/components/schemas/', '').split('/')[0]!);
      else referencedNames(v, into);
    }
  }
  return into;
}

/** Where a component hoisted out of a schema's `$defs` was defined (schemas/<file>#/definitions/<name>). */
export const DEFINED_IN = 'x-defined-in';

/**
 * Every `$defs` entry of a component becomes a component of its own (`<schema>-<definition>`, e.g.
 * `schedule-date`), and every `$ref` into it (`#/components/schemas/schedule/$defs/date…`) points there:
 * Dredd refuses a `$ref` into a Schema Object's `$defs` and Step CI does not resolve one. The verdicts
 * are the same (a `$ref` is resolved against the document either way).
 */
export function hoistDefinitions(schemas: Record<string, JsonObject>): void {
  const moved = new Map<string, string>();
  for (;;) {
    const [name, s] = Object.entries(schemas).find(([, x]) => x.$defs !== undefined) ?? [];
    if (!name || !s) break;
    const file = String(s[DEFINED_IN] ?? `schemas/${name}.schema.json#`).replace(/#.*$/, '');
    const at = String(s[DEFINED_IN] ?? '').replace(/^[^#]*#?/, '');
    for (const [def, sub] of Object.entries(s.$defs as JsonObject)) {
      const target = `${name}-${def}`;
      if (schemas[target]) {
        throw new Error(`${file}: definitions/${def} would be the component ${target}, which already exists`);
      }
      schemas[target] = {
        ...(sub as JsonObject),
        'x-spec-section': s['x-spec-section'],
        [DEFINED_IN]: `${file}#${at}/definitions/${def}`,
        description: [(sub as JsonObject).description, `Defined in ${file} as definitions/${def}.`]
          .filter(Boolean)
          .join(' '),
      };
      moved.set(`${name}/$defs/${def}`, target);
    }
    delete s.$defs;
  }
  if (!moved.size) return;
  const rewrite = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(rewrite);
    else if (node && typeof node === 'object') {
      const o = node as JsonObject;
      for (const [k, v] of Object.entries(o)) {
        if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) {
          let rest = decodeURIComponent(v.slice('#/components/schemas/'.length));
          for (let again = true; again; ) {
            again = false;
            for (const [from, to] of moved) {
              if (rest === from || rest.startsWith(from + '/')) {
                rest = to + rest.slice(from.length);
                again = true;
              }
            }
          }
          const escaped = rest.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/]/g, (c) => encodeURIComponent(c));
          o[k] = `#/components/schemas/${escaped}`;
        } else rewrite(v);
      }
    }
  };
  for (const s of Object.values(schemas)) rewrite(s);
}

export function ids(rs: Requirement[]): string[] {
  return rs.map((r) => r.id);
}

/** The schemas an operation's documentation names directly. */
export function schemasOf(doc: OperationDocumentation): string[] {
  return [doc.body?.schema, ...doc.responses.flatMap((r) => [r.schema, r.elements?.schema])].filter(
    (n): n is string => n !== undefined,
  );
}

/**
 * components/schemas: every spec schema, translated, with the catalog entries of each; request bodies whose
 * required members the spec does not state lose the list.
 */
export function componentSchemas(entries: [OperationKey, OperationDef][]): Record<string, JsonObject> {
  const loaded = specSchemas();
  const nameOfId = new Map(loaded.map((s) => [s.id, s.name]));
  const schemas: Record<string, JsonObject> = {};
  for (const s of loaded) schemas[s.name] = toComponentSchema(s.schema, s, nameOfId);
  hoistDefinitions(schemas);
  for (const [key, op] of entries) {
    for (const n of schemasOf(OPERATION_DOCUMENTATION[key]))
      if (!schemas[n])
        throw new Error(
          `harness/operations-${op.area}.ts: ${key} names schema ${n}, ` + `which is not a spec schema under schemas/`,
        );
  }
  dropUnstatedRequired(schemas, entries);
  withRequirements(schemas, entries);
  return schemas;
}

/** A request body whose required members the spec does not state requires none (and is used nowhere else). */
function dropUnstatedRequired(schemas: Record<string, JsonObject>, entries: [OperationKey, OperationDef][]): void {
  const unstated = new Set(
    entries.flatMap(([k]) =>
      OPERATION_DOCUMENTATION[k].body && !OPERATION_DOCUMENTATION[k].body!.requiredMembersStated
        ? [OPERATION_DOCUMENTATION[k].body!.schema]
        : [],
    ),
  );
  for (const n of unstated) {
    const s = schemas[n]!;
    const usedElsewhere =
      entries.some(([k]) =>
        OPERATION_DOCUMENTATION[k].responses.some((r) => r.schema === n || r.elements?.schema === n),
      ) || Object.entries(schemas).some(([other, o]) => other !== n && referencedNames(o).has(n));
    if (usedElsewhere)
      throw new Error(
        `schemas/${n}.schema.json is a request body whose required members the ` +
          `spec does not state, and is also used elsewhere`,
      );
    if (Array.isArray(s.required)) {
      s['x-members-the-suite-sends'] = s.required;
      s.description = (
        `${String(s.description ?? '')} Which members are required is not stated by the spec, so the ` +
        `document requires none; the suite always sends ${(s.required as string[]).join(', ')}.`
      ).trim();
      delete s.required;
    }
  }
}

/** Which operations use each schema, directly or through $ref; and which schemas refer to it. */
interface SchemaUse {
  schemas: Record<string, JsonObject>;
  opsUsing: Map<string, Set<number>>;
  referrers: Map<string, Set<string>>;
}

function schemaUse(schemas: Record<string, JsonObject>, entries: [OperationKey, OperationDef][]): SchemaUse {
  const opsUsing = new Map<string, Set<number>>(Object.keys(schemas).map((n) => [n, new Set<number>()]));
  const referrers = new Map<string, Set<string>>(Object.keys(schemas).map((n) => [n, new Set<string>()]));
  for (const [n, s] of Object.entries(schemas)) for (const r of referencedNames(s)) referrers.get(r)?.add(n);
  const mark = (name: string, op: number, seen = new Set<string>()) => {
    if (seen.has(name)) return;
    seen.add(name);
    opsUsing.get(name)!.add(op);
    for (const r of referencedNames(schemas[name])) if (schemas[r]) mark(r, op, seen);
  };
  for (const [key, op] of entries) for (const n of schemasOf(OPERATION_DOCUMENTATION[key])) mark(n, op.number);
  return { schemas, opsUsing, referrers };
}

/**
 * x-requirements of a schema: the catalog entries of its spec section that concern an operation using it
 * (any, for a schema no operation uses); where there are none, those of the schemas that refer to it;
 * else those of the operations using it that name its title.
 */
function withRequirements(schemas: Record<string, JsonObject>, entries: [OperationKey, OperationDef][]): void {
  const use = schemaUse(schemas, entries);
  for (const name of Object.keys(schemas)) {
    const s = schemas[name]!;
    s['x-requirements'] = ids(checkedAt(use, name));
    const nt = own(use, name, true);
    if (nt.length) s['x-requirements-not-testable'] = ids(nt);
  }
}

/**
 * The entries of a schema's own section. An entry of a shared section (e.g. "Error records") counts for a schema
 * with members only where it names one of them.
 */
function own(use: SchemaUse, name: string, notTestable: boolean): Requirement[] {
  const s = use.schemas[name]!;
  const ops = use.opsUsing.get(name)!;
  const words = Object.keys((s.properties as JsonObject | undefined) ?? {});
  const names = (r: Requirement) =>
    words.length === 0 ||
    words.some((w) => new RegExp(`(^|[^\\w])${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w])`).test(r.statement));
  return CATALOG.filter(
    (r) =>
      r.section === s['x-spec-section'] &&
      !!r.notTestable === notTestable &&
      (ops.size === 0 || r.operations.length === 0 || r.operations.some((o) => ops.has(o))) &&
      (notTestable || names(r)),
  );
}

function checkedAt(use: SchemaUse, name: string, seen = new Set<string>()): Requirement[] {
  seen.add(name);
  const mine = own(use, name, false);
  if (mine.length) return mine;
  const inherited = [...use.referrers.get(name)!].filter((r) => !seen.has(r)).flatMap((r) => checkedAt(use, r, seen));
  if (inherited.length) return [...new Map(inherited.map((r) => [r.id, r])).values()];
  // Else the checked entries of the operations using it that name it by its title (e.g. "the Token request body").
  const title = use.schemas[name]!.title;
  const ops = use.opsUsing.get(name)!;
  return typeof title === 'string'
    ? CATALOG.filter((r) => !r.notTestable && r.operations.some((o) => ops.has(o)) && r.statement.includes(title))
    : [];
}
