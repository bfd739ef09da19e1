import { readFileSync } from 'node:fs';
import { SCHEMA_DIR } from '../schemas';
import type { SchemaNode } from './model';

/* The members of a schema of schemas/, flattened, and the values the spec shows for one. */

const ID_BASE = 'https://dbsi-conformance.dev/schemas/';

export function fileSchema(name: string): SchemaNode {
  return JSON.parse(readFileSync(`${SCHEMA_DIR}${name}.schema.json`, 'utf8')) as SchemaNode;
}

/** A documented member of a body or answer, flattened: a.b for objects, a[] for arrays. */
export interface Member {
  path: string;
  schema: SchemaNode;
  /** Required by the schema of the object that holds it. */
  required: boolean;
  /**
   * Why a document the schema accepts may leave it out (undefined: present in every one): not required (by
   * its object or an allOf around it) at some level of its path, in one anyOf/oneOf branch, or in an array.
   */
  absent?: string;
}

/** Every member of a schema, depth first, with $refs (other files by $id, #/definitions here) resolved. */
export function membersOf(name: string, load: (name: string) => SchemaNode = fileSchema): Member[] {
  const out = new Map<string, Member>();
  const resolve = (node: SchemaNode, doc: SchemaNode, seen: string[]): [SchemaNode, SchemaNode] => {
    const ref = node.$ref;
    if (typeof ref !== 'string') return [node, doc];
    if (seen.includes(ref)) return [{}, doc];
    seen.push(ref);
    if (ref.startsWith('#/')) {
      const at = ref
        .slice(2)
        .split('/')
        .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], doc);
      return resolve({ ...(at as SchemaNode), ...withoutRef(node) }, doc, seen);
    }
    const file = (ref.startsWith(ID_BASE) ? ref.slice(ID_BASE.length) : ref).replace(/\.schema\.json$/, '');
    const other = load(file);
    return resolve({ ...other, ...withoutRef(node) }, other, seen);
  };
  /** `absent`: why the object walked may be absent (undefined: never); `around`: the required lists of the allOf
   * schemas around it. */
  type Walk = (
    raw: SchemaNode,
    doc: SchemaNode,
    prefix: string,
    depth: number,
    absent?: string,
    around?: string[],
  ) => void;
  const walk: Walk = (raw, doc, prefix, depth, absent, around = []) => {
    if (depth > 8) return;
    const [node, home] = resolve(raw, doc, []);
    const required = Array.isArray(node.required) ? (node.required as string[]) : [];
    const enclosing = [...around, ...required];
    for (const key of ['anyOf', 'oneOf', 'allOf']) {
      const branches = node[key];
      if (!Array.isArray(branches)) continue;
      const alternative = `schemas/${name} accepts ${branches.length} alternative shapes (${key}); it belongs to one`;
      for (const b of branches)
        if (key === 'allOf') walk(b as SchemaNode, home, prefix, depth + 1, absent, enclosing);
        else walk(b as SchemaNode, home, prefix, depth + 1, absent ?? alternative);
    }
    const props = (node.properties ?? {}) as Record<string, SchemaNode>;
    for (const [k, v] of Object.entries(props)) {
      const path = prefix ? `${prefix}.${k}` : k;
      const [member, memberHome] = resolve(v, home, []);
      const why = absent ?? (enclosing.includes(k) ? undefined : `schemas/${name} does not require ${path}`);
      const known = out.get(path);
      if (!known) out.set(path, { path, schema: valueSchema(member), required: required.includes(k), absent: why });
      else if (!why) known.absent = undefined;
      walk(member, memberHome, path, depth + 1, why);
    }
    if (node.items && typeof node.items === 'object') {
      const [item, itemHome] = resolve(node.items as SchemaNode, home, []);
      walk(item, itemHome, `${prefix}[]`, depth + 1, absent ?? `${prefix} is a list, which may be empty`);
    }
  };
  const root = load(name);
  walk(root, root, '', 0);
  return [...out.values()];
}

function withoutRef(node: SchemaNode): SchemaNode {
  const { $ref: _ref, ...rest } = node;
  return rest;
}

/** The parts of a member's schema that say what its value is (no nested members). */
function valueSchema(node: SchemaNode): SchemaNode {
  const keep = ['type', 'format', 'pattern', 'enum', 'examples', 'const'];
  return Object.fromEntries(Object.entries(node).filter(([k]) => keep.includes(k)));
}

/** The values the spec shows for a value: its enumeration, else its examples (harness/shown-values.ts). */
export function shownValuesOf(schema: SchemaNode | undefined): string[] {
  if (!schema) return [];
  const list = Array.isArray(schema.enum) ? schema.enum : Array.isArray(schema.examples) ? schema.examples : [];
  return list.map((v) => String(v));
}
