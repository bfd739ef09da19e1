import { CONFIGURED_QUERY } from '../../data-builders/disclosures';
import type { CaseReport, Exchange } from '../model';
import { OPERATIONS, type OperationKey } from '../operations';
import { COVERAGE_CELL } from './files';
import { fits, judgedExchanges, parentOf, ruleExchanges, type Seen, textFits } from './judged-exchanges';
import type { CoverageCell, CoverageModel } from './model';
import { type CellResult, type ContractCoverageReport, counts, type OperationCoverage } from './report-shape';

export { cutJson } from './judged-exchanges';
export {
  type CellResult,
  type CellStatus,
  CELL_STATUSES,
  type ContractCoverageReport,
  type CoverageCounts,
  type OperationCoverage,
} from './report-shape';

/**
 * Contract coverage measured on the exchange log of a run (either source): a cell is tested when a
 * judged exchange exercised it. An exchange is judged when a check of its case naming a requirement
 * passed or failed on it (CheckResult.exchange); a not-applicable check judges nothing.
 */

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

/** What the run holds that a cell's status is read from. */
interface RunView {
  source: 'active' | 'traffic';
  seen: Seen[];
  ruled: Array<{ rule: string; caseId: string; x: Exchange }>;
  off: Set<OperationKey>;
  limited: Map<string, string>;
  /** The operations some case of the run was about, or sent a request of (by section). */
  ran: Set<string>;
  testData: Record<string, unknown> | undefined;
}

function runView(cases: CaseReport[], opts: ContractCoverageOptions): RunView {
  return {
    source: opts.source ?? 'active',
    seen: judgedExchanges(cases),
    ruled: ruleExchanges(cases),
    off: switchedOff(cases),
    limited: skippedByLimit(cases),
    // A case names its operation's section.
    ran: new Set<string>([
      ...cases.map((c) => c.operation),
      ...cases.flatMap((c) =>
        c.exchanges.map((x) => (OPERATIONS as Record<string, { section: string }>)[x.operation]?.section ?? ''),
      ),
    ]),
    testData: opts.testData,
  };
}

/** The report: a pure function of the run's cases and the model. */
export function contractCoverage(
  cases: CaseReport[],
  model: CoverageModel,
  opts: ContractCoverageOptions = {},
): ContractCoverageReport {
  const run = runView(cases, opts);
  const byOp = new Map<OperationKey, CellResult[]>();
  for (const cell of model.cells)
    byOp.set(cell.operation, [...(byOp.get(cell.operation) ?? []), cellResult(cell, run)]);
  const operations: OperationCoverage[] = [...byOp].map(([key, cells]) => ({
    operation: key,
    section: OPERATIONS[key].section,
    method: OPERATIONS[key].method,
    path: OPERATIONS[key].path,
    counts: counts(cells),
    exchanges: run.seen.filter((s) => s.x.operation === key).length,
    cells,
  }));
  const all = operations.flatMap((o) => o.cells);
  const sides = [...new Set(all.map((c) => c.side))];
  return {
    $schema: 'https://dbsi-conformance.dev/schemas/contract-coverage.schema.json',
    source: run.source,
    total: counts(all),
    bySide: Object.fromEntries(sides.map((side) => [side, counts(all.filter((c) => c.side === side))])),
    operations,
  };
}

/** One cell's status, with its reason or evidence. */
function cellResult(cell: CoverageCell, run: RunView): CellResult {
  const op = OPERATIONS[cell.operation];
  const numberOf = (x: Exchange) => OPERATIONS[x.operation as OperationKey].number;
  const mine =
    cell.kind === 'rule'
      ? run.ruled
          .filter((r) => r.rule === cell.element && numberOf(r.x) === op.number)
          .map((r) => ({ caseId: r.caseId, x: r.x }))
      : run.seen.filter((s) => s.x.operation === cell.operation);
  const base = {
    id: cell.id,
    kind: cell.kind,
    element: cell.element,
    side: cell.side,
    ...(cell.value !== undefined ? { value: cell.value } : {}),
    ...(cell.kind === 'response-member' ? { answer: cell.status } : {}),
    rules: cell.rules,
  };
  const notTestable =
    cell.notTestable ??
    (cell.trafficOnly && run.source === 'active'
      ? `judged only in recorded traffic: ${cell.trafficOnly}`
      : undefined) ??
    (cell.side === 'near-miss' && cell.kind === 'header' && run.source === 'traffic' ? CREDENTIALS_UNKNOWN : undefined);
  if (notTestable) return { ...base, status: 'not-testable', reason: notTestable };
  const hits = cell.kind === 'rule' ? mine : (mine as Seen[]).filter((s) => exercises(cell, s));
  if (hits.length)
    return {
      ...base,
      status: 'tested',
      evidence: { case: hits[0]!.caseId, exchange: hits[0]!.x.seq, exchanges: hits.length },
    };
  if (run.limited.has(cell.id)) return { ...base, status: 'skipped', reason: run.limited.get(cell.id)! };
  const occasion = cell.kind !== 'rule' ? notApplicable(cell, mine as Seen[], run.testData) : undefined;
  if (occasion) return { ...base, status: 'not-applicable', reason: occasion };
  if (run.off.has(cell.operation))
    return {
      ...base,
      status: 'skipped',
      reason: `allow.${(op as { mutates?: string }).mutates} is off on this target`,
    };
  if (!run.ran.has(op.section)) return { ...base, status: 'not-tested', reason: NOT_RUN };
  return { ...base, status: 'not-tested' };
}
