import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACT_COVERAGE_FILES } from '../contract-coverage/files';
import type { CellResult, ContractCoverageReport, CoverageCounts } from '../contract-coverage/measure';
import { contractCoverageLine } from '../contract-coverage/write';
import { stateCoverageLine } from '../contract-coverage/states';

/**
 * Contract coverage on the HTML report's front page (issue 23): under the verdict, one line with the
 * figure; opened, the table per operation and per side, and every cell not exercised (not tested,
 * not applicable on this target, skipped) with its reason. The whole table is reports/contract-coverage.md,
 * which the bundle holds.
 */

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const TABLE = 'border-collapse:collapse;margin:6px 0 10px;font:400 13px/1.4 system-ui,sans-serif';
const CELL = 'border:1px solid #ccc;padding:2px 8px;text-align:left';

function table(head: string[], rows: string[][]): string {
  const tr = (cells: string[], tag: string) =>
    `<tr>${cells.map((c) => `<${tag} style="${CELL}">${c}</${tag}>`).join('')}</tr>`;
  return `<table style="${TABLE}">${tr(head, 'th')}${rows.map((r) => tr(r, 'td')).join('')}</table>`;
}

const counts = (c: CoverageCounts) =>
  [c.tested, c.notTested, c.notApplicable ?? 0, c.skipped, c.notTestable]
    .map(String)
    .concat(c.testable ? `${c.percent}%` : '—');
const COUNT_HEAD = ['tested', 'not tested', 'not applicable', 'skipped', 'not testable', 'coverage'];
const OPEN: readonly CellResult['status'][] = ['not-tested', 'not-applicable', 'skipped'];

function openCell(o: { operation: string }, c: CellResult): string[] {
  const what = c.value !== undefined ? `${c.side} ${c.value}` : c.side;
  return [o.operation, esc(c.element), c.kind, esc(what), c.status, esc(c.reason ?? '')];
}

/** The section, as HTML. */
export function contractCoverageSection(r: ContractCoverageReport): string {
  const line = contractCoverageLine(r);
  const ops = table(
    ['operation', ...COUNT_HEAD],
    [
      ...r.operations.map((o) => [esc(`${o.method} ${o.path} (${o.operation})`), ...counts(o.counts)]),
      ['<b>total</b>', ...counts(r.total)],
    ],
  );
  const sides = table(
    ['side', ...COUNT_HEAD],
    Object.entries(r.bySide).map(([side, c]) => [side, ...counts(c)]),
  );
  const open = r.operations.flatMap((o) => o.cells.filter((c) => OPEN.includes(c.status)).map((c) => openCell(o, c)));
  const cells = open.length
    ? `<div>Not exercised (${open.length}):</div>` +
      table(['operation', 'element', 'kind', 'side', 'status', 'reason'], open)
    : '<div>Every testable element side was exercised.</div>';
  const link = `<a href="${CONTRACT_COVERAGE_FILES.md}">${CONTRACT_COVERAGE_FILES.md}</a>`;
  return (
    `<details id="dbsi-contract-coverage" style="font:400 14px/1.4 system-ui,sans-serif;padding:8px 24px;` +
    `border-bottom:1px solid #ccc;background:#f8f9fa"><summary style="cursor:pointer;font-weight:600">` +
    `${esc(line.charAt(0).toUpperCase() + line.slice(1))}${statesLine(r)}</summary>` +
    `<div style="margin-top:6px">Every element the spec documents for each operation, from each side ` +
    `(docs/reports.md, ` +
    `"Contract coverage"); every cell with its evidence or reason: ${link} (in the evidence bundle).</div>` +
    `${ops}${sides}${cells}${stateSection(r)}</details>`
  );
}

/** The state coverage's line, under the contract's in the section's summary (shown while it is closed). */
function statesLine(r: ContractCoverageReport): string {
  const line = r.states && stateCoverageLine(r.states);
  return line ? `<br><span style="font-weight:400">${esc(line.charAt(0).toUpperCase() + line.slice(1))}</span>` : '';
}

/** The state coverage under the contract's: its line, and every transition not read back. */
function stateSection(r: ContractCoverageReport): string {
  const line = r.states && stateCoverageLine(r.states);
  if (!r.states || !line) return '';
  const open = r.states.families.flatMap((f) =>
    f.transitions
      .filter((t) => t.status !== 'read back')
      .map((t) => [esc(f.family), esc(t.transition), t.status, t.write === undefined ? '' : String(t.write)]),
  );
  const rows = open.length
    ? table(['family', 'transition', 'status', 'write'], open)
    : '<div>Every transition was taken and read back.</div>';
  return (
    `<div style="margin-top:10px;font-weight:600">${esc(line.charAt(0).toUpperCase() + line.slice(1))}</div>` +
    '<div>The state a record was in before a write, the write and its value; covered only where a later read ' +
    'showed its effect (docs/reports.md, "State coverage").</div>' +
    rows
  );
}

/** Put the section right under the verdict banner (report.ts, verdictBanner), else first in the body. */
export function withContractCoverage(html: string, r: ContractCoverageReport): string {
  const section = contractCoverageSection(r);
  const start = html.indexOf('<div id="dbsi-verdict"');
  if (start < 0) return html.replace(/<body([^>]*)>/, (m) => `${m}\n${section}`);
  // The end of the banner: where its nested <div>s close.
  const tag = /<\/?div\b/g;
  tag.lastIndex = start;
  let depth = 0;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    depth += m[0] === '<div' ? 1 : -1;
    if (depth === 0) {
      const end = html.indexOf('>', m.index) + 1;
      return `${html.slice(0, end)}\n${section}${html.slice(end)}`;
    }
  }
  return html;
}

/** Add the section to the report file, from the run's contract-coverage.json; false when there is none. */
export function addContractCoverage(htmlFile: string, reportsDir: string): boolean {
  const json = join(reportsDir, CONTRACT_COVERAGE_FILES.json);
  if (!existsSync(json) || !existsSync(htmlFile)) return false;
  const report = JSON.parse(readFileSync(json, 'utf8')) as ContractCoverageReport;
  writeFileSync(htmlFile, withContractCoverage(readFileSync(htmlFile, 'utf8'), report));
  return true;
}
