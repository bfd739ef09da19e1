import { CONTRACT_COVERAGE_FILES } from '../contract-coverage/files';
import type { ContractCoverageReport } from '../contract-coverage/measure';
import { stateCoverageLine } from '../contract-coverage/states';

/**
 * The contract-coverage figure as the conformance summary carries it (Markdown and JSON), with the file of the
 * coverage table: a reviewer reading the summary sees how much of the contract the verdict rests on.
 */
export interface ContractFigure {
  /** Testable element sides exercised, of those testable, in the selected areas. */
  tested: number;
  testable: number;
  percent: number;
  /** The areas counted (the run's selection). */
  areas?: string[];
  /** The console's line. */
  line: string;
  /** The state coverage's line (harness/contract-coverage/states.ts), where the run wrote a record it reads back. */
  states?: string;
  /** The coverage table (Markdown) and its JSON, in the same reports folder. */
  table: string;
  json: string;
}

export function contractFigure(r: ContractCoverageReport, line: string): ContractFigure {
  const states = r.states && stateCoverageLine(r.states);
  return {
    tested: r.total.tested,
    testable: r.total.testable,
    percent: r.total.percent,
    ...(r.areas ? { areas: [...r.areas] } : {}),
    line,
    ...(states ? { states } : {}),
    table: CONTRACT_COVERAGE_FILES.md,
    json: CONTRACT_COVERAGE_FILES.json,
  };
}

/** The summary's Markdown lines: the figure, and a link to the table. */
export function contractFigureMarkdown(c: ContractFigure | undefined): string[] {
  if (!c) return [];
  const figure = `${c.line[0]!.toUpperCase()}${c.line.slice(1)}`;
  const states = c.states ? [`${c.states[0]!.toUpperCase()}${c.states.slice(1)}.`, ''] : [];
  return [`${figure}: see the coverage table, [${c.table}](${c.table}) ([${c.json}](${c.json})).`, '', ...states];
}
