import { readFileSync } from 'node:fs';
import { CATALOG, type Requirement } from '../../requirements';
import {
  OPERATION_DOCUMENTATION,
  type DocumentedParameter,
  type OperationDocumentation,
} from '../operations-documented';
import { OPERATIONS, type OperationKey } from '../operations';
import { SCHEMA_DIR } from '../schemas';

/**
 * The contract-coverage model (issue 23): for each operation, every element the spec documents (headers,
 * query and path parameters, body and response members, shown values, statuses, error shapes, catalog
 * rules) and the sides an exchange can exercise it from. Derived from harness/operations-documented.ts,
 * schemas/ and the catalog: nothing here is listed per operation. Not to be confused with
 * harness/run/coverage.ts (which areas a run verified something in).
 */

export type ElementKind =
  | 'header'
  | 'query'
  | 'path'
  | 'body-member'
  | 'response-member'
  | 'status'
  | 'error-shape'
  | 'combination'
  | 'authentication'
  | 'rule';

/**
 * - sent / omitted: presence in a request; received: presence in an answer (or a status answered)
 * - shown-value: a value the spec shows, sent (request) or received (answer) as written
 * - type-violated: a request whose value breaks the documented type, format or pattern
 * - near-miss: a value the target compares with state and that matches nothing (a credential never
 *   issued, a path identifier of no record)
 * - reference: a path identifier of a stored record, answered 2xx
 * - agree / differ: a header and the body member of the same name, with the same or different values
 * - judged: a check naming the catalog rule judged an exchange of the operation
 */
export type Side =
  | 'sent'
  | 'omitted'
  | 'received'
  | 'shown-value'
  | 'type-violated'
  | 'near-miss'
  | 'reference'
  | 'agree'
  | 'differ'
  | 'judged';

export const SIDES: readonly Side[] = [
  'sent',
  'omitted',
  'received',
  'shown-value',
  'type-violated',
  'near-miss',
  'reference',
  'agree',
  'differ',
  'judged',
];

/** A JSON Schema fragment, as read from schemas/ ($refs resolved). */
export type SchemaNode = Record<string, unknown>;

export interface CoverageCell {
  /** Stable within a model: operation, element, side and value. */
  id: string;
  operation: OperationKey;
  kind: ElementKind;
  /** The header or parameter name, the member path (a.b, list[].c), the status, the rule id. */
  element: string;
  side: Side;
  /** The value of a shown-value side, the status of a status side. */
  value?: string;
  /** Set when the spec leaves it open ("not shown") or the interface cannot show it: why. */
  notTestable?: string;
  /** Catalog rules of the operation that name the element (its inputs). */
  rules: string[];
  /** For type-violated and shown-value sides of parameters and members: the documented value schema. */
  schema?: SchemaNode;
  /** A rule about the client's side: testable in recorded traffic only (an active run's suite is the client). */
  trafficOnly?: string;
  /** For the status and error-shape sides: the status ('2XX' for any 2xx). */
  status?: string;
  /**
   * A response member the answer may leave out, and why (schemas/: not required at every level of its path,
   * in one branch of an anyOf/oneOf, or in a list's elements): where no answer carries it, the cell is not
   * applicable on that target rather than not tested.
   */
  optional?: string;
  /** A parameter's documented words (operations-documented.ts), for the reasons the report gives. */
  description?: string;
}

export interface CoverageModel {
  cells: CoverageCell[];
}

export interface ModelSources {
  documentation?: Record<OperationKey, OperationDocumentation>;
  catalog?: Requirement[];
  /** A schema of schemas/ by name (default: the file). */
  schema?: (name: string) => SchemaNode;
  /** Only the cells of these operations (the generated cases of one operation need no more). */
  only?: OperationKey[];
}

const ID_BASE = 'https://dbsi-conformance.dev/schemas/';

function fileSchema(name: string): SchemaNode {
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

const wordRe = (word: string) => new RegExp(`(^|[^A-Za-z0-9_])${word.replace(/[^A-Za-z0-9_-]/g, '')}([^A-Za-z0-9_]|$)`);

/**
 * Whether a rule's statement names the element (its last segment). `strict`: a nested member whose name is
 * also an everyday word (postalAddress.state, postalAddress.country: "does not state it", "country code")
 * counts as named only in a sentence or clause that names the object holding it too.
 */
function names(statement: string, element: string, strict = false): boolean {
  const parts = element.split(/[.[\]]+/).filter(Boolean);
  const last = parts.pop() ?? element;
  const parent = parts.pop();
  if (!strict || !parent || !/^[a-z]+$/.test(last)) return wordRe(last).test(statement);
  return statement.split(/(?<=[.;])\s+/).some((s) => wordRe(last).test(s) && wordRe(parent).test(s));
}

const NOT_SHOWN = /not shown/i;

/** A cell's id: operation, kind, (an answer's status), element, side and value, as the reports show it. */
export function cellId(c: Pick<CoverageCell, 'operation' | 'kind' | 'element' | 'side' | 'value' | 'status'>): string {
  const status = c.kind === 'response-member' ? c.status : undefined;
  return [c.operation, c.kind, status, c.element, c.side, c.value].filter((p) => p !== undefined).join(' ');
}

/**
 * Build the model from the documented facts, the catalog and the schemas. Pass a copy of any of them
 * to see what the model makes of a change (the self-tests do).
 */
export function buildCoverageModel(sources: ModelSources = {}): CoverageModel {
  const documentation = sources.documentation ?? OPERATION_DOCUMENTATION;
  const catalog = sources.catalog ?? CATALOG;
  const load = sources.schema ?? fileSchema;
  const cells: CoverageCell[] = [];
  const firstOfNumber = new Map<number, OperationKey>();
  for (const key of Object.keys(documentation) as OperationKey[]) {
    const n = OPERATIONS[key].number;
    if (!firstOfNumber.has(n)) firstOfNumber.set(n, key);
  }

  for (const key of Object.keys(documentation) as OperationKey[]) {
    if (sources.only && !sources.only.includes(key)) continue;
    const doc = documentation[key];
    const op = OPERATIONS[key];
    const rules = catalog.filter((r) => r.operations.includes(op.number));
    const testableRules = rules.filter((r) => !r.notTestable);
    const rulesNaming = (element: string) => rules.filter((r) => names(r.statement, element)).map((r) => r.id);
    const errorsNotShown = doc.responses.find((r) => r.status === 'default');
    /** A refusal (a 4xx) is documented for this operation, or why not. */
    const refusal: string | undefined = doc.responses.some((r) => /^4/.test(r.status))
      ? undefined
      : `no refusal is documented: ${errorsNotShown?.description ?? 'no error status is documented'}`;
    const add = (c: Omit<CoverageCell, 'id' | 'operation' | 'rules'> & { rules?: string[] }) => {
      const id = cellId({ operation: key, ...c });
      if (cells.some((x) => x.id === id)) return;
      cells.push({ id, operation: key, rules: c.rules ?? rulesNaming(c.element), ...c });
    };
    /** Whether omitting it is judgeable: the spec (or a catalog rule) says whether it is required. */
    const omission = (p: { name: string; required?: boolean; description: string }): string | undefined => {
      const stating = testableRules.filter(
        (r) => names(r.statement, p.name, true) && /\bwithout\b|\bmissing\b|\bis required\b/i.test(r.statement),
      );
      if (stating.length) return undefined;
      if (NOT_SHOWN.test(p.description)) return `the spec leaves it open: ${p.description}`;
      if (p.required === true) return refusal && `required, but ${refusal}`;
      if (p.required === false) return undefined;
      return 'the spec does not say whether it is required';
    };

    // Security: where the spec shows no scheme, nothing about credentials can be judged.
    if (typeof doc.security === 'object')
      add({ kind: 'authentication', element: 'authentication', side: 'sent', notTestable: doc.security.notShown });

    for (const p of doc.parameters) parameterCells(p);
    function parameterCells(p: DocumentedParameter) {
      const kind = p.in;
      add({ kind, element: p.name, side: 'sent', description: p.description });
      if (kind === 'path') {
        add({ kind, element: p.name, side: 'reference' });
        add({
          kind,
          element: p.name,
          side: 'near-miss',
          notTestable: refusal && `an identifier of no record: ${refusal}`,
        });
        return;
      }
      add({ kind, element: p.name, side: 'omitted', notTestable: omission(p) });
      for (const v of shownValuesOf(p.schema))
        add({ kind, element: p.name, side: 'shown-value', value: v, schema: p.schema });
      if (p.schema && ['format', 'pattern', 'enum'].some((k) => k in p.schema!))
        add({ kind, element: p.name, side: 'type-violated', schema: p.schema, notTestable: refusal });
      // A credential is compared with what the target issued: a near miss is one it never issued.
      if (p.name.toLowerCase() === 'authorization' && typeof doc.security === 'string') {
        const stated = testableRules.some(
          (r) => /never issued|invalid|unsuccessful|401/i.test(r.statement) && names(r.statement, p.name),
        );
        add({
          kind,
          element: p.name,
          side: 'near-miss',
          notTestable: stated || !refusal ? undefined : `a credential never issued: ${refusal}`,
        });
      }
    }

    if (doc.body) {
      const members = membersOf(doc.body.schema, load);
      for (const m of members) {
        add({ kind: 'body-member', element: m.path, side: 'sent' });
        const required = doc.body.requiredMembersStated && m.required;
        const omitted = omission({ name: m.path, required: required ? true : undefined, description: '' });
        add({
          kind: 'body-member',
          element: m.path,
          side: 'omitted',
          notTestable: omitted && (required ? omitted : 'the spec does not say whether it is required'),
        });
        for (const v of shownValuesOf(m.schema))
          add({ kind: 'body-member', element: m.path, side: 'shown-value', value: v, schema: m.schema });
        if (typeof m.schema.type === 'string')
          add({ kind: 'body-member', element: m.path, side: 'type-violated', schema: m.schema, notTestable: refusal });
        // A member the target compares with what it holds ("must match the phone number on record"): a near miss.
        const compared = testableRules
          .filter((r) => names(r.statement, m.path) && /must match/i.test(r.statement))
          .map((r) => r.id);
        if (compared.length) add({ kind: 'body-member', element: m.path, side: 'near-miss', rules: compared });
      }
      // A header that carries a body member's value: both agree, or they differ.
      for (const p of doc.parameters.filter((q) => q.in === 'header')) {
        const m = members.find((x) => x.path.toLowerCase() === p.name.toLowerCase());
        if (!m) continue;
        const element = `${p.name} + ${m.path}`;
        const rs = [...new Set([...rulesNaming(p.name), ...rulesNaming(m.path)])];
        add({ kind: 'combination', element, side: 'agree', rules: rs });
        const open = NOT_SHOWN.test(p.description) ? p.description : 'the spec does not say which of the two wins';
        add({
          kind: 'combination',
          element,
          side: 'differ',
          rules: rs,
          notTestable: `which value counts when they differ: ${open}`,
        });
      }
    }

    for (const r of doc.responses) {
      if (r.status === 'default') {
        add({ kind: 'status', element: 'error statuses', side: 'received', notTestable: r.description });
        continue;
      }
      const provoked =
        rules.find((q) => q.notTestable && new RegExp(`\\b${r.status}\\b`).test(q.statement))?.notTestable ??
        (/^5/.test(r.status) ? 'a conformance suite cannot safely provoke a server fault' : undefined);
      // The rules that speak of the status: "401", or for 2XX "2xx" or any 2nn.
      const said = r.status === '2XX' ? /\b2(xx|\d\d)\b/i : new RegExp(`\\b${r.status}\\b`);
      const rs = rules.filter((q) => said.test(q.statement)).map((q) => q.id);
      add({ kind: 'status', element: r.status, side: 'received', status: r.status, rules: rs, notTestable: provoked });
      if (!r.schema) continue;
      if (/^[45]/.test(r.status))
        add({
          kind: 'error-shape',
          element: `${r.status} ${r.schema}`,
          side: 'received',
          status: r.status,
          rules: rs,
          notTestable: provoked,
        });
      // A list's elements, where the documented facts name their schema (the envelope's items are any object).
      const elements = r.elements
        ? membersOf(r.elements.schema, load).map((m) => ({
            ...m,
            path: `${r.elements!.member}[].${m.path}`,
            absent: m.absent ?? `${r.elements!.member} is a list, which may be empty`,
          }))
        : [];
      for (const m of [...membersOf(r.schema, load), ...elements]) {
        add({
          kind: 'response-member',
          element: m.path,
          side: 'received',
          status: r.status,
          notTestable: provoked,
          ...(m.absent ? { optional: m.absent } : {}),
        });
        for (const v of shownValuesOf(m.schema)) {
          add({
            kind: 'response-member',
            element: m.path,
            side: 'shown-value',
            value: v,
            status: r.status,
            schema: m.schema,
            notTestable: 'the target chooses the values it answers',
          });
        }
      }
    }

    // The catalog rules, once per spec operation (on its first form): judged on an exchange of either form.
    if (firstOfNumber.get(op.number) === key) {
      for (const r of rules) {
        add({
          kind: 'rule',
          element: r.id,
          side: 'judged',
          rules: [r.id],
          notTestable: r.notTestable,
          trafficOnly: r.judgedInTraffic,
        });
      }
    }
  }
  return { cells };
}
