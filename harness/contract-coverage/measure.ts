import { CONFIGURED_QUERY } from '../../data-builders/disclosures';
import type { Area, CaseReport, Exchange } from '../model';
import { OPERATIONS, type OperationKey } from '../operations';
import { schemaRegistry } from '../schemas';
import { COVERAGE_CELL } from './files';
import type { CoverageCell, CoverageModel, ElementKind, SchemaNode, Side } from './model';

/**
 * Contract coverage measured on the exchange log of a run (either source): a cell is tested when a
 * judged exchange exercised it. An exchange is judged when a check of its case naming a requirement
 * passed or failed on it (CheckResult.exchange); a not-applicable check judges nothing.
 */

/**
 * - tested: a judged exchange exercised it;
 * - not-tested: no judged exchange did, and nothing explains why (the reason says so where no case of the
 *   operation ran);
 * - not-applicable: this target gave it no occasion: a response member the answer may leave out and no
 *   judged answer carried, a parameter the suite sends only where the configuration supplies its value;
 * - skipped: its safety switch was off, or a limit (the budget of transfers accepted by mistake) stopped it;
 * - not-testable: the spec leaves it open or the interface cannot show it.
 */
export type CellStatus = 'tested' | 'not-tested' | 'not-applicable' | 'not-testable' | 'skipped';

export const CELL_STATUSES: readonly CellStatus[] = [
  'tested',
  'not-tested',
  'not-applicable',
  'skipped',
  'not-testable',
];

export interface CellResult {
  id: string;
  kind: ElementKind;
  element: string;
  side: Side;
  value?: string;
  status: CellStatus;
  /** not-testable, not-applicable and skipped: why; not-tested: set when no case of the operation ran. */
  reason?: string;
  /** response-member: the documented status of the answer it belongs to ('2XX', '200', '400', …). */
  answer?: string;
  /** Catalog rules naming the element. */
  rules: string[];
  /** tested: the first case and exchange (seq) that exercised it, and how many judged exchanges did. */
  evidence?: { case: string; exchange: number; exchanges: number };
}

export interface CoverageCounts {
  cells: number;
  /** tested + not-tested + skipped (not-applicable and not-testable are counted apart). */
  testable: number;
  tested: number;
  notTested: number;
  /** Not applicable on this target: it gave the cell no occasion (the reason says which). */
  notApplicable: number;
  skipped: number;
  notTestable: number;
  /** tested / testable, in percent (one decimal); 0 when nothing is testable. */
  percent: number;
}

export interface OperationCoverage {
  operation: OperationKey;
  section: string;
  method: string;
  path: string;
  counts: CoverageCounts;
  /** Judged exchanges of this operation. */
  exchanges: number;
  cells: CellResult[];
}

export interface ContractCoverageReport {
  $schema: 'https://dbsi-conformance.dev/schemas/contract-coverage.schema.json';
  source: 'active' | 'traffic';
  /** The areas the run selected: the operations counted are theirs only (absent: every operation). */
  areas?: Area[];
  total: CoverageCounts;
  /** Per side, over every operation. */
  bySide: Record<string, CoverageCounts>;
  operations: OperationCoverage[];
}

/** What one judged exchange shows, read once. */
interface Seen {
  caseId: string;
  x: Exchange;
  headers: Map<string, string>;
  query: URLSearchParams;
  body: Flat | undefined;
  answer: Flat | undefined;
  status: number | undefined;
  /** Requirement ids checked (passed or failed) on it. */
  judgedBy: Set<string>;
}

/** A JSON document flattened to member paths (a.b, list[].c) and the values found there. */
type Flat = Map<string, unknown[]>;

function flatten(doc: unknown): Flat | undefined {
  if (doc === null || typeof doc !== 'object') return undefined;
  const out: Flat = new Map();
  const walk = (v: unknown, path: string) => {
    if (path) out.set(path, [...(out.get(path) ?? []), v]);
    if (Array.isArray(v)) for (const item of v) walk(item, `${path}[]`);
    else if (v !== null && typeof v === 'object')
      for (const [k, w] of Object.entries(v)) walk(w, path ? `${path}.${k}` : k);
  };
  walk(doc, '');
  return out;
}

function json(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return cutJson(text);
  }
}

/**
 * A JSON body cut short (at the configured size limit, or as a case report crosses from the vitest
 * worker: suites/_register.ts keeps 4 KiB), read as far as it goes: cut back to the last complete
 * member or element and close what is open. Members past the cut are not seen; undefined when
 * nothing of it is JSON.
 */
export function cutJson(text: string): unknown {
  const stack: string[] = [];
  const points: Array<{ at: number; close: string }> = [];
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') {
      stack.push(ch === '{' ? '}' : ']');
      points.push({ at: i + 1, close: [...stack].reverse().join('') });
    } else if (ch === '}' || ch === ']') stack.pop();
    else if (ch === ',') points.push({ at: i, close: [...stack].reverse().join('') });
  }
  for (const p of points.reverse().slice(0, 50)) {
    try {
      return JSON.parse(text.slice(0, p.at) + p.close);
    } catch {
      // an earlier point
    }
  }
  return undefined;
}

const validators = new Map<string, (v: unknown) => boolean>();
function fits(schema: SchemaNode, value: unknown): boolean {
  const key = JSON.stringify(schema);
  let v = validators.get(key);
  if (!v) {
    const { examples: _e, ...rest } = schema;
    const compiled = schemaRegistry().compile(rest);
    v = (x: unknown) => compiled(x) as boolean;
    validators.set(key, v);
  }
  return v(value);
}

/** A header's or query parameter's text against its documented value (a string, or "true"/"false"). */
function textFits(schema: SchemaNode, text: string): boolean {
  const asText: SchemaNode = { ...schema, type: 'string' };
  if (Array.isArray(schema.enum)) asText.enum = schema.enum.map(String);
  return fits(asText, text);
}

/**
 * The judged exchanges of the run. A check may judge an exchange another case sent (a shared list:
 * CaseReport.judged), so exchanges are found by seq across the run; the evidence names the judging case.
 */
function judgedExchanges(cases: CaseReport[]): Seen[] {
  const sent = new Map<number, Exchange>();
  for (const c of cases) for (const x of c.exchanges) sent.set(x.seq, x);
  const out = new Map<number, Seen>();
  for (const c of cases) {
    const mine = new Set([...c.exchanges.map((x) => x.seq), ...(c.judged ?? [])]);
    for (const k of c.checks) {
      if (k.exchange === undefined || !k.requirement || k.outcome === 'not-applicable' || !mine.has(k.exchange))
        continue;
      const x = sent.get(k.exchange);
      if (!x || x.notSent || !(x.operation in OPERATIONS)) continue;
      const seen = out.get(x.seq) ?? seenOf(c.id, x);
      seen.judgedBy.add(k.requirement);
      out.set(x.seq, seen);
    }
  }
  return [...out.values()].sort((a, b) => a.x.seq - b.x.seq);
}

/**
 * The exchanges each catalog rule was judged with: those of every case with a check naming it that passed
 * or failed (its own and those its verdict rests on), so that a state rule judged on the list after a create
 * counts for the create too.
 */
function ruleExchanges(cases: CaseReport[]): Array<{ rule: string; caseId: string; x: Exchange }> {
  const sent = new Map<number, Exchange>();
  for (const c of cases) for (const x of c.exchanges) sent.set(x.seq, x);
  const out: Array<{ rule: string; caseId: string; x: Exchange }> = [];
  for (const c of cases) {
    const rules = new Set(
      c.checks.filter((k) => k.requirement && k.outcome !== 'not-applicable').map((k) => k.requirement),
    );
    const xs = [...c.exchanges.map((x) => x.seq), ...(c.judged ?? [])].map((seq) => sent.get(seq));
    for (const rule of rules) {
      for (const x of xs)
        if (x && !x.notSent && x.response && x.operation in OPERATIONS) out.push({ rule, caseId: c.id, x });
    }
  }
  return out;
}

function seenOf(caseId: string, x: Exchange): Seen {
  let query = new URLSearchParams();
  try {
    query = new URL(x.request.url).searchParams;
  } catch {
    // not a URL: no query
  }
  return {
    caseId,
    x,
    headers: new Map(Object.entries(x.request.headers).map(([k, v]) => [k.toLowerCase(), v])),
    query,
    body: flatten(json(x.request.body)),
    answer: x.response ? flatten(json(x.response.body)) : undefined,
    status: x.response?.status,
    judgedBy: new Set(),
  };
}

/** 'a.b' -> 'a', 'a[].b' -> 'a[]', 'a[]' -> 'a', 'a' -> undefined. */
function parentOf(path: string): string | undefined {
  const m = /^(.*)(\.[^.[\]]+|\[\])$/.exec(path);
  return m?.[1] || undefined;
}

const is2xx = (s: number | undefined) => s !== undefined && s >= 200 && s < 300;

/** Whether the answer's status is the one a cell names ('2XX': any 2xx). */
function answers(status: string | undefined, s: Seen): boolean {
  const st = status ?? '';
  return st === '2XX' ? is2xx(s.status) : String(s.status) === st;
}

/**
 * Why this target gave a cell no occasion, judged on what the run saw (undefined: it did, or nothing shows
 * that it did not): a response member the answer may leave out that none of the judged answers of its
 * status carried; a query parameter the suite sends only where the configuration supplies its value
 * (data-builders/disclosures.ts, CONFIGURED_QUERY), on a target whose configuration does not.
 */
function notApplicable(
  cell: CoverageCell,
  mine: Seen[],
  testData: Record<string, unknown> | undefined,
): string | undefined {
  if (cell.kind === 'response-member' && cell.side === 'received' && cell.optional) {
    const n = mine.filter((s) => answers(cell.status, s)).length;
    if (n === 0) return undefined;
    const status = cell.status === '2XX' ? '2xx' : cell.status;
    const none =
      n === 1
        ? `the one judged ${status} answer of this target did not carry it`
        : `none of the ${n} judged ${status} answers of this target carried it`;
    return `${none}, and the answer may leave it out (${cell.optional})`;
  }
  const key = cell.kind === 'query' && cell.side === 'sent' ? CONFIGURED_QUERY[cell.element] : undefined;
  if (key && testData && testData[key] === undefined)
    return (
      `the suite sends it only where testData.${key} is configured, and this target's configuration does not ` +
      `set it (the spec: ${(cell.description ?? 'a condition').replace(/\.$/, '')})`
    );
  return undefined;
}

/** Whether the exchange exercised the cell. */
function exercises(cell: CoverageCell, s: Seen): boolean {
  const name = cell.element;
  switch (cell.kind) {
    case 'header':
    case 'query': {
      const value = cell.kind === 'header' ? s.headers.get(name.toLowerCase()) : (s.query.get(name) ?? undefined);
      if (cell.side === 'omitted') return value === undefined;
      if (value === undefined) return false;
      if (cell.side === 'sent') return true;
      if (cell.side === 'shown-value') return value === cell.value;
      if (cell.side === 'type-violated') return !!cell.schema && !textFits(cell.schema, value);
      // near-miss of a credential: a request that carried no configured credential as configured.
      if (cell.side === 'near-miss') return !s.x.credentials?.length;
      return false;
    }
    case 'path':
      if (cell.side === 'sent') return true;
      if (cell.side === 'reference') return is2xx(s.status);
      if (cell.side === 'near-miss') return s.status !== undefined && s.status >= 400 && s.status < 500;
      return false;
    case 'body-member': {
      // Omitted: the object that holds it was sent (a member of an object not sent is not omitted from it).
      if (cell.side === 'omitted')
        return !!s.body && !s.body.has(name) && (!parentOf(name) || s.body.has(parentOf(name)!));
      const values = s.body?.get(name);
      if (!values) return false;
      if (cell.side === 'sent') return true;
      if (cell.side === 'shown-value') return values.some((v) => String(v) === cell.value);
      if (cell.side === 'type-violated')
        return !!cell.schema && values.some((v) => !fits({ type: cell.schema!.type }, v));
      // A near miss of a compared member: sent, judged by the rule that compares it, and not served.
      if (cell.side === 'near-miss') return cell.rules.some((r) => s.judgedBy.has(r)) && !is2xx(s.status);
      return false;
    }
    case 'combination': {
      const [header, member] = name.split(' + ') as [string, string];
      const h = s.headers.get(header.toLowerCase());
      const values = s.body?.get(member);
      if (h === undefined || !values) return false;
      const same = values.some((v) => String(v) === h);
      return cell.side === 'agree' ? same : !same;
    }
    case 'status':
    case 'error-shape': {
      if (!answers(cell.status, s)) return false;
      // An error shape is exercised by a body that is a JSON object.
      return cell.kind === 'status' || (!!s.x.response && s.answer !== undefined);
    }
    case 'response-member': {
      if (!answers(cell.status, s)) return false;
      const values = s.answer?.get(name);
      if (!values) return false;
      return cell.side === 'received' || values.some((v) => String(v) === cell.value);
    }
    case 'rule':
    case 'authentication':
      return false;
  }
}

function counts(cells: CellResult[]): CoverageCounts {
  const n = (st: CellStatus) => cells.filter((c) => c.status === st).length;
  const tested = n('tested');
  const testable = cells.length - n('not-testable') - n('not-applicable');
  return {
    cells: cells.length,
    testable,
    tested,
    notTested: n('not-tested'),
    notApplicable: n('not-applicable'),
    skipped: n('skipped'),
    notTestable: n('not-testable'),
    percent: testable ? Math.round((tested / testable) * 1000) / 10 : 0,
  };
}

/**
 * Which operations' safety switches were off in the run: an operation behind a switch with a case
 * reported not allowed naming it (harness/http/client.ts refuses the request, "allow.<switch>").
 */
function switchedOff(cases: CaseReport[]): Set<OperationKey> {
  const off = new Set<OperationKey>();
  const reasons = cases.filter((c) => c.outcome === 'not-allowed').map((c) => c.reason ?? '');
  for (const key of Object.keys(OPERATIONS) as OperationKey[]) {
    const sw: string | undefined = (OPERATIONS[key] as { mutates?: string }).mutates;
    if (sw && reasons.some((r) => r.includes(`allow.${sw}`))) off.add(key);
  }
  return off;
}

/**
 * The cells whose generated case was skipped though its switch was on (a limit stopped it: the budget of
 * transfers accepted by mistake), with the case's reason: by the cell the case names (COVERAGE_CELL).
 */
function skippedByLimit(cases: CaseReport[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of cases) {
    const cell = c.parameters?.[COVERAGE_CELL];
    if (cell && c.outcome === 'not-allowed' && !/allow\.\w+ is off/.test(c.reason ?? ''))
      out.set(cell, (c.reason ?? '').replace(/^skipped: /, ''));
  }
  return out;
}

const NOT_RUN = 'no case of this operation ran (not selected, or not in the traffic)';
const CREDENTIALS_UNKNOWN = 'recorded traffic does not tell which credentials the target issued';

export interface ContractCoverageOptions {
  source?: 'active' | 'traffic';
  /** The run's configured testData (an active run): which values the suite had to send. */
  testData?: Record<string, unknown>;
}

/** The report: a pure function of the run's cases and the model. */
export function contractCoverage(
  cases: CaseReport[],
  model: CoverageModel,
  opts: ContractCoverageOptions = {},
): ContractCoverageReport {
  const source = opts.source ?? 'active';
  const seen = judgedExchanges(cases);
  const ruled = ruleExchanges(cases);
  const off = switchedOff(cases);
  const limited = skippedByLimit(cases);
  // The operations some case of the run was about, or sent a request of (a case names its operation's section).
  const ran = new Set<string>([
    ...cases.map((c) => c.operation),
    ...cases.flatMap((c) =>
      c.exchanges.map((x) => (OPERATIONS as Record<string, { section: string }>)[x.operation]?.section ?? ''),
    ),
  ]);
  const byOp = new Map<OperationKey, CellResult[]>();
  for (const cell of model.cells) {
    const op = OPERATIONS[cell.operation];
    const numberOf = (x: Exchange) => OPERATIONS[x.operation as OperationKey].number;
    const mine =
      cell.kind === 'rule'
        ? ruled
            .filter((r) => r.rule === cell.element && numberOf(r.x) === op.number)
            .map((r) => ({ caseId: r.caseId, x: r.x }))
        : seen.filter((s) => s.x.operation === cell.operation);
    const base = {
      id: cell.id,
      kind: cell.kind,
      element: cell.element,
      side: cell.side,
      ...(cell.value !== undefined ? { value: cell.value } : {}),
      ...(cell.kind === 'response-member' ? { answer: cell.status } : {}),
      rules: cell.rules,
    };
    let result: CellResult;
    const notTestable =
      cell.notTestable ??
      (cell.trafficOnly && source === 'active' ? `judged only in recorded traffic: ${cell.trafficOnly}` : undefined) ??
      (cell.side === 'near-miss' && cell.kind === 'header' && source === 'traffic' ? CREDENTIALS_UNKNOWN : undefined);
    if (notTestable) result = { ...base, status: 'not-testable', reason: notTestable };
    else {
      const hits = cell.kind === 'rule' ? mine : (mine as Seen[]).filter((s) => exercises(cell, s));
      if (hits.length)
        result = {
          ...base,
          status: 'tested',
          evidence: { case: hits[0]!.caseId, exchange: hits[0]!.x.seq, exchanges: hits.length },
        };
      else if (limited.has(cell.id)) result = { ...base, status: 'skipped', reason: limited.get(cell.id)! };
      else if (cell.kind !== 'rule' && notApplicable(cell, mine as Seen[], opts.testData))
        result = { ...base, status: 'not-applicable', reason: notApplicable(cell, mine as Seen[], opts.testData)! };
      else if (off.has(cell.operation))
        result = {
          ...base,
          status: 'skipped',
          reason: `allow.${(op as { mutates?: string }).mutates} is off on this target`,
        };
      else if (!ran.has(op.section)) result = { ...base, status: 'not-tested', reason: NOT_RUN };
      else result = { ...base, status: 'not-tested' };
    }
    byOp.set(cell.operation, [...(byOp.get(cell.operation) ?? []), result]);
  }
  const operations: OperationCoverage[] = [...byOp].map(([key, cells]) => ({
    operation: key,
    section: OPERATIONS[key].section,
    method: OPERATIONS[key].method,
    path: OPERATIONS[key].path,
    counts: counts(cells),
    exchanges: seen.filter((s) => s.x.operation === key).length,
    cells,
  }));
  const all = operations.flatMap((o) => o.cells);
  const sides = [...new Set(all.map((c) => c.side))];
  return {
    $schema: 'https://dbsi-conformance.dev/schemas/contract-coverage.schema.json',
    source,
    total: counts(all),
    bySide: Object.fromEntries(sides.map((side) => [side, counts(all.filter((c) => c.side === side))])),
    operations,
  };
}
