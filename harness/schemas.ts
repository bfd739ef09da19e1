import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

export const SCHEMA_DIR = fileURLToPath(new URL('../schemas/', import.meta.url));
const ID_BASE = 'https://dbsi-conformance.dev/schemas/';

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

/** The run's one Ajv instance, with ajv-formats and every schema under schemas/ added once. */
export function schemaRegistry(): Ajv {
  if (ajv) return ajv;
  ajv = new Ajv({ allErrors: true, strict: false });
  addFormats.default(ajv);
  for (const f of readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith('.schema.json'))
    .sort()) {
    ajv.addSchema(JSON.parse(readFileSync(SCHEMA_DIR + f, 'utf8')));
  }
  return ajv;
}

/** A schema's $id from its file name: 'institution-disclosure-list' ->
 * https://…/institution-disclosure-list.schema.json */
export function schemaId(name: string): string {
  return name.startsWith('http') ? name : `${ID_BASE}${name}.schema.json`;
}

/** Compiled once per run. */
export function validator(name: string): ValidateFunction {
  const id = schemaId(name);
  let v = compiled.get(id);
  if (!v) {
    const found = schemaRegistry().getSchema(id);
    if (!found) throw new Error(`no schema ${id} under schemas/`);
    v = found;
    compiled.set(id, v);
  }
  return v;
}

function show(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? 'undefined' : s.length > 60 ? s.slice(0, 57) + '...' : s;
}

function valueAt(data: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<any>((o, k) => (o == null ? undefined : o[k.replace(/~1/g, '/').replace(/~0/g, '~')]), data);
}

/** Ajv errors as short lines: "/institutionDisclosures/0/institutionDisclosureStatus must be boolean (received
 * "true")". */
export function describeErrors(errors: ErrorObject[] | null | undefined, data: unknown): string[] {
  const lines = (errors ?? [])
    .filter((e) => e.keyword !== 'allOf' && e.keyword !== 'anyOf' && e.keyword !== 'oneOf' && e.keyword !== 'if')
    .map((e) => {
      const at = e.instancePath || '(the body)';
      if (e.keyword === 'required')
        return `${at} is missing member ` + `${(e.params as { missingProperty: string }).missingProperty}`;
      return `${at} ${e.message}${e.instancePath ? ` (received ${show(valueAt(data, e.instancePath))})` : ''}`;
    });
  return [...new Set(lines)];
}

export function validate(name: string, data: unknown): string[] {
  const v = validator(name);
  return v(data) ? [] : describeErrors(v.errors, data);
}
