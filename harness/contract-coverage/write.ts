import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CaseReport } from '../model';
import {
  contractCoverage,
  type CellResult,
  type ContractCoverageOptions,
  type ContractCoverageReport,
  type CoverageCounts,
} from './measure';
import { CONTRACT_COVERAGE_FILES } from './files';
import { stateCoverageMarkdown, type StateCoverage } from './states';
import { buildCoverageModel } from './model';
import { OPERATIONS, type OperationKey } from '../operations';
import type { Area } from '../model';

export { CONTRACT_COVERAGE_FILES };

/** The console's one line: "contract coverage: N of M testable element sides exercised (P%)". */
export function contractCoverageLine(r: ContractCoverageReport): string {
  const t = r.total;
  const budget = budgetSkipped(r).length;
  const off = t.skipped - budget;
  const extra = [
    ...(t.notApplicable ? [`${t.notApplicable} not applicable on this target`] : []),
    `${t.notTestable} not testable`,
    ...(off ? [`${off} skipped: switch off`] : []),
    ...(budget ? [`${budget} skipped: budget of transfers accepted by mistake used up`] : []),
  ].join(', ');
  // A run of some areas counts theirs only, and says so.
  const all = new Set(Object.values(OPERATIONS).map((o) => o.area));
  const some = r.areas && r.areas.length < all.size ? `${r.areas.join(', ')} only; ` : '';
  return (
    `contract coverage: ${t.tested} of ${t.testable} testable element sides exercised ` +
    `(${t.percent}%; ${some}${extra})`
  );
}

/** The cells skipped because the budget of transfers accepted by mistake was used up. */
export function budgetSkipped(r: ContractCoverageReport): CellResult[] {
  return r.operations.flatMap((o) => o.cells).filter((c) => c.status === 'skipped' && /budget/.test(c.reason ?? ''));
}

const cellText = (c: CellResult) => (c.value !== undefined ? `${c.side} \`${c.value}\`` : c.side);
const esc = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const countsRow = (name: string, c: CoverageCounts) =>
  `| ${name} | ${c.tested} | ${c.notTested} | ${c.notApplicable} | ${c.skipped} | ` +
  `${c.notTestable} | ${c.testable ? `${c.percent}%` : '—'} |`;
const COUNTS_HEAD = [
  'tested | not tested | not applicable | skipped | not testable | coverage |',
  '---|---|---|---|---|---|',
] as const;

/** A paragraph in lines of at most 120 characters (the Markdown joins them). */
function wrap(text: string, width = 120): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** reports/contract-coverage.md: the totals, per operation and per side, then every cell of every operation. */
export function contractCoverageMarkdown(r: ContractCoverageReport): string {
  const out: string[] = [
    '# Contract coverage',
    '',
    ...wrap(`${contractCoverageLine(r)[0]!.toUpperCase()}${contractCoverageLine(r).slice(1)}.`),
    '',
    `Measured on the ${r.source === 'active' ? 'exchanges of this run' : 'exchanges of the recorded traffic'}:`,
    'a cell (an element of an operation, from one side) is *tested* when an exchange judged by a check naming a',
    'requirement exercised it; *not applicable* where this target gave it no occasion (a response member the',
    'answer may leave out and no answer carried, a parameter sent only where the configuration supplies it); *not',
    'testable* where the spec leaves it open or the interface cannot show it (the reason is given for both);',
    "*skipped* where the operation's safety switch was off. Not applicable and not testable cells are counted",
    'apart from the testable ones. The model is derived from harness/operations-documented.ts, schemas/ and the',
    'catalog (docs/reports.md, "Contract coverage").',
    '',
    `| operation | ${COUNTS_HEAD[0]}`,
    `|---|${COUNTS_HEAD[1]}`,
    ...r.operations.map((o) => countsRow(`${o.method} ${o.path} (${o.operation})`, o.counts)),
    countsRow('**total**', r.total),
    '',
    `| side | ${COUNTS_HEAD[0]}`,
    `|---|${COUNTS_HEAD[1]}`,
    ...Object.entries(r.bySide).map(([side, c]) => countsRow(side, c)),
  ];
  const budget = budgetSkipped(r);
  if (budget.length)
    out.push(
      '',
      `**Budget used up.** ${budget.length} cells were skipped, ${budget[0]!.reason}. ` +
        'Their requests are built to be refused; a target that accepted the ones above moved money each time. ' +
        'Fix what was accepted (or raise budgets.transfersAcceptedByMistake) and run again to cover them.',
    );
  for (const o of r.operations) {
    out.push('', `## ${o.section} (${o.operation})`, '', `\`${o.method} ${o.path}\``, '');
    out.push(
      `${o.counts.tested} of ${o.counts.testable} testable sides exercised (${o.counts.percent}%), ` +
        `${o.exchanges} judged exchanges.`,
      '',
    );
    out.push('| element | kind | side | status | evidence or reason | rules |', '|---|---|---|---|---|---|');
    const order = { 'not-tested': 0, skipped: 1, tested: 2, 'not-applicable': 3, 'not-testable': 4 } as const;
    const cells = [...o.cells].sort((a, b) => order[a.status] - order[b.status]);
    for (const c of cells) {
      const why = c.evidence
        ? `${c.evidence.case} (exchange ${c.evidence.exchange}; ${c.evidence.exchanges} in all)`
        : (c.reason ?? '');
      const element = c.answer ? `${c.element} (in ${c.answer})` : c.element;
      out.push(
        `| ${esc(element)} | ${c.kind} | ${esc(cellText(c))} | ${c.status} | ${esc(why)} | ${c.rules.join(', ')} |`,
      );
    }
  }
  if (r.states) out.push(...stateCoverageMarkdown(r.states));
  out.push('');
  return out.join('\n');
}

/**
 * The finish step of either source: build the model, measure the run's cases, write
 * reports/contract-coverage.md and .json, and return the console line.
 */
export function writeContractCoverage(
  reportsDir: string,
  cases: CaseReport[],
  opts: ContractCoverageOptions & { areas?: readonly string[]; states?: StateCoverage } = {},
): { line: string; report: ContractCoverageReport } {
  // Only the operations of the selected areas: an area the run was not asked to test is no gap of this run.
  const { areas, states, ...measure } = opts;
  const only = areas && (Object.keys(OPERATIONS) as OperationKey[]).filter((k) => areas.includes(OPERATIONS[k].area));
  const report: ContractCoverageReport = {
    ...contractCoverage(cases, buildCoverageModel(only ? { only } : {}), measure),
    ...(areas ? { areas: [...areas] as Area[] } : {}),
    ...(states ? { states } : {}),
  };
  writeFileSync(join(reportsDir, CONTRACT_COVERAGE_FILES.json), JSON.stringify(report, null, 2) + '\n');
  writeFileSync(join(reportsDir, CONTRACT_COVERAGE_FILES.md), contractCoverageMarkdown(report));
  return { line: contractCoverageLine(report), report };
}
