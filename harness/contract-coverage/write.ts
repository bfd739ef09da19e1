import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CaseReport } from '../model';
import { contractCoverage, type CellResult, type ContractCoverageReport, type CoverageCounts } from './measure';
import { CONTRACT_COVERAGE_FILES } from './files';
import { buildCoverageModel } from './model';

export { CONTRACT_COVERAGE_FILES };

/** The console's one line: "contract coverage: N of M testable element sides exercised (P%)". */
export function contractCoverageLine(r: ContractCoverageReport): string {
  const t = r.total;
  const budget = budgetSkipped(r).length;
  const off = t.skipped - budget;
  const extra = [
    `${t.notTestable} not testable`,
    ...(off ? [`${off} skipped: switch off`] : []),
    ...(budget ? [`${budget} skipped: budget of transfers accepted by mistake used up`] : []),
  ].join(', ');
  return `contract coverage: ${t.tested} of ${t.testable} testable element sides exercised (${t.percent}%; ${extra})`;
}

/** The cells skipped because the budget of transfers accepted by mistake was used up. */
export function budgetSkipped(r: ContractCoverageReport): CellResult[] {
  return r.operations.flatMap((o) => o.cells).filter((c) => c.status === 'skipped' && /budget/.test(c.reason ?? ''));
}

const cellText = (c: CellResult) => (c.value !== undefined ? `${c.side} \`${c.value}\`` : c.side);
const esc = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const countsRow = (name: string, c: CoverageCounts) =>
  `| ${name} | ${c.tested} | ${c.notTested} | ${c.skipped} | ` +
  `${c.notTestable} | ${c.testable ? `${c.percent}%` : '—'} |`;

/** reports/contract-coverage.md: the totals, per operation and per side, then every cell of every operation. */
export function contractCoverageMarkdown(r: ContractCoverageReport): string {
  const out: string[] = [
    '# Contract coverage',
    '',
    `${contractCoverageLine(r)[0]!.toUpperCase()}${contractCoverageLine(r).slice(1)}.`,
    '',
    `Measured on the ${r.source === 'active' ? 'exchanges of this run' : 'exchanges of the recorded traffic'}:`,
    'a cell (an element of an operation, from one side) is *tested* when an exchange judged by a check naming a',
    'requirement exercised it; *not testable* where the spec leaves it open or the interface cannot show it (the',
    "reason is given); *skipped* where the operation's safety switch was off. The model is derived from",
    'harness/operations-documented.ts, schemas/ and the catalog (README, "Contract coverage").',
    '',
    '| operation | tested | not tested | skipped | not testable | coverage |',
    '|---|---|---|---|---|---|',
    ...r.operations.map((o) => countsRow(`${o.method} ${o.path} (${o.operation})`, o.counts)),
    countsRow('**total**', r.total),
    '',
    '| side | tested | not tested | skipped | not testable | coverage |',
    '|---|---|---|---|---|---|',
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
    const order = { 'not-tested': 0, skipped: 1, tested: 2, 'not-testable': 3 } as const;
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
  opts: { source?: 'active' | 'traffic' } = {},
): string {
  const report = contractCoverage(cases, buildCoverageModel(), opts);
  writeFileSync(join(reportsDir, CONTRACT_COVERAGE_FILES.json), JSON.stringify(report, null, 2) + '\n');
  writeFileSync(join(reportsDir, CONTRACT_COVERAGE_FILES.md), contractCoverageMarkdown(report));
  return contractCoverageLine(report);
}
