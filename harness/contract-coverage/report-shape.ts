import type { StateCoverage } from './states';
import type { Area } from '../model';
import type { OperationKey } from '../operations';
import type { ElementKind, Side } from './model';

/* The shape of the contract coverage report: a status per cell, counted per operation, side and in total. */

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
  /** Which transitions of the spec's state the log took and read back (harness/contract-coverage/states.ts). */
  states?: StateCoverage;
}

export function counts(cells: CellResult[]): CoverageCounts {
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
