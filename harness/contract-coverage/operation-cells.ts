import type { Requirement } from '../../requirements';
import type { DocumentedParameter, OperationDocumentation } from '../operations-documented';
import { OPERATIONS, type OperationKey } from '../operations';
import type { CoverageCell, SchemaNode } from './model';
import { membersOf, shownValuesOf } from './schema-members';

/* The cells of one operation, by what the documented facts hold: security, parameters, body, answers, rules. */

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

type NewCell = Omit<CoverageCell, 'id' | 'operation' | 'rules'> & { rules?: string[] };

/** One operation's documented facts and rules, and how a cell of it is added. */
interface OperationCells {
  doc: OperationDocumentation;
  rules: Requirement[];
  testableRules: Requirement[];
  /** A refusal (a 4xx) is documented for this operation (undefined), or why not. */
  refusal: string | undefined;
  load: (name: string) => SchemaNode;
  add: (c: NewCell) => void;
  rulesNaming: (element: string) => string[];
}

/** Adds the cells of one operation to `cells` (a cell already there is not added twice). */
export function operationCells(
  key: OperationKey,
  doc: OperationDocumentation,
  catalog: Requirement[],
  load: (name: string) => SchemaNode,
  cells: CoverageCell[],
  withRules: boolean,
): void {
  const op = OPERATIONS[key];
  const rules = catalog.filter((r) => r.operations.includes(op.number));
  const rulesNaming = (element: string) => rules.filter((r) => names(r.statement, element)).map((r) => r.id);
  const errorsNotShown = doc.responses.find((r) => r.status === 'default');
  const refusal: string | undefined = doc.responses.some((r) => /^4/.test(r.status))
    ? undefined
    : `no refusal is documented: ${errorsNotShown?.description ?? 'no error status is documented'}`;
  const add = (c: NewCell) => {
    const id = cellId({ operation: key, ...c });
    if (cells.some((x) => x.id === id)) return;
    cells.push({ id, operation: key, rules: c.rules ?? rulesNaming(c.element), ...c });
  };
  const o: OperationCells = {
    doc,
    rules,
    testableRules: rules.filter((r) => !r.notTestable),
    refusal,
    load,
    add,
    rulesNaming,
  };
  // Security: where the spec shows no scheme, nothing about credentials can be judged.
  if (typeof doc.security === 'object')
    add({ kind: 'authentication', element: 'authentication', side: 'sent', notTestable: doc.security.notShown });
  for (const p of doc.parameters) parameterCells(o, p);
  if (doc.body) bodyCells(o, doc.body);
  for (const r of doc.responses) responseCells(o, r);
  // The catalog rules, once per spec operation (on its first form): judged on an exchange of either form.
  if (withRules) {
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

/** Whether omitting it is judgeable: the spec (or a catalog rule) says whether it is required. */
function omission(o: OperationCells, p: { name: string; required?: boolean; description: string }): string | undefined {
  const stating = o.testableRules.filter(
    (r) => names(r.statement, p.name, true) && /\bwithout\b|\bmissing\b|\bis required\b/i.test(r.statement),
  );
  if (stating.length) return undefined;
  if (NOT_SHOWN.test(p.description)) return `the spec leaves it open: ${p.description}`;
  if (p.required === true) return o.refusal && `required, but ${o.refusal}`;
  if (p.required === false) return undefined;
  return 'the spec does not say whether it is required';
}

function parameterCells(o: OperationCells, p: DocumentedParameter): void {
  const { add, refusal } = o;
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
  add({ kind, element: p.name, side: 'omitted', notTestable: omission(o, p) });
  for (const v of shownValuesOf(p.schema))
    add({ kind, element: p.name, side: 'shown-value', value: v, schema: p.schema });
  if (p.schema && ['format', 'pattern', 'enum'].some((k) => k in p.schema!))
    add({ kind, element: p.name, side: 'type-violated', schema: p.schema, notTestable: refusal });
  // A credential is compared with what the target issued: a near miss is one it never issued.
  if (p.name.toLowerCase() === 'authorization' && typeof o.doc.security === 'string') {
    const stated = o.testableRules.some(
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

function bodyCells(o: OperationCells, body: NonNullable<OperationDocumentation['body']>): void {
  const { add, refusal } = o;
  const members = membersOf(body.schema, o.load);
  for (const m of members) {
    add({ kind: 'body-member', element: m.path, side: 'sent' });
    const required = body.requiredMembersStated && m.required;
    const omitted = omission(o, { name: m.path, required: required ? true : undefined, description: '' });
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
    const compared = o.testableRules
      .filter((r) => names(r.statement, m.path) && /must match/i.test(r.statement))
      .map((r) => r.id);
    if (compared.length) add({ kind: 'body-member', element: m.path, side: 'near-miss', rules: compared });
  }
  // A header that carries a body member's value: both agree, or they differ.
  for (const p of o.doc.parameters.filter((q) => q.in === 'header')) {
    const m = members.find((x) => x.path.toLowerCase() === p.name.toLowerCase());
    if (!m) continue;
    const element = `${p.name} + ${m.path}`;
    const rs = [...new Set([...o.rulesNaming(p.name), ...o.rulesNaming(m.path)])];
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

function responseCells(o: OperationCells, r: OperationDocumentation['responses'][number]): void {
  const { add, rules } = o;
  if (r.status === 'default') {
    add({ kind: 'status', element: 'error statuses', side: 'received', notTestable: r.description });
    return;
  }
  const provoked =
    rules.find((q) => q.notTestable && new RegExp(`\\b${r.status}\\b`).test(q.statement))?.notTestable ??
    (/^5/.test(r.status) ? 'a conformance suite cannot safely provoke a server fault' : undefined);
  // The rules that speak of the status: "401", or for 2XX "2xx" or any 2nn.
  const said = r.status === '2XX' ? /\b2(xx|\d\d)\b/i : new RegExp(`\\b${r.status}\\b`);
  const rs = rules.filter((q) => said.test(q.statement)).map((q) => q.id);
  add({ kind: 'status', element: r.status, side: 'received', status: r.status, rules: rs, notTestable: provoked });
  if (!r.schema) return;
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
    ? membersOf(r.elements.schema, o.load).map((m) => ({
        ...m,
        path: `${r.elements!.member}[].${m.path}`,
        absent: m.absent ?? `${r.elements!.member} is a list, which may be empty`,
      }))
    : [];
  for (const m of [...membersOf(r.schema, o.load), ...elements]) {
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
