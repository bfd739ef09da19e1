import { basename } from 'node:path';
import { OPERATIONS, type OperationKey } from '../operations';
import type { Redactor } from '../redact';
import type { RequirementRow } from '../run/results';
import { terminalLine } from '../run/terminal-text';
import type { HarJudgement } from './judge-har';
import type { ExchangeLine } from './judge';
import { exchangeLineText, type TrafficSummary } from './summary-section';

/** The entries not judged, by reason: "3 other host, 1 not a URL" (empty when every entry was judged). */
export function ignoredText(ignored: Record<string, number>): string {
  return Object.entries(ignored)
    .filter(([, n]) => n > 0)
    .map(([w, n]) => `${n} ${w}`)
    .join(', ');
}

/** One row per requirement: what no exchange exercised is "not observed", never passed. */
export function notObservedRows(mapped: HarJudgement['mapped']): (rows: RequirementRow[]) => RequirementRow[] {
  const seenOps = new Set<number>(mapped.map(({ m }) => OPERATIONS[m.operation].number));
  return (rows) =>
    rows.map((r) => {
      if (r.verdict !== 'no-test' && r.verdict !== 'not-run') return r;
      const ops = r.operations.filter((n) => seenOps.has(n));
      const why =
        r.operations.length === 0
          ? 'it concerns no operation in particular'
          : ops.length
            ? `the capture has exchanges of operation ` + `${ops.join(', ')}, none of which shows this rule`
            : `the capture has no exchange of operation ` + `${r.operations.join(', ')}`;
      return { ...r, verdict: 'not-observed' as const, notes: [`not observed: ${why}`] };
    });
}

/** The summary's section on the capture (conformance-summary.json "traffic"): its entries, per operation. */
export function trafficSection(file: string, unreadable: number, j: HarJudgement): TrafficSummary {
  const { lines } = j;
  return {
    file: basename(file),
    entries: j.observed.length + unreadable,
    judged: j.mapped.length,
    ignored: j.ignored,
    baseUrls: j.baseNotes.map((n) => j.redactor.text(n)),
    coverage: (Object.keys(OPERATIONS) as OperationKey[]).map((key) => {
      const mine = lines.filter((l) => l.operation === key);
      const union = (pick: (l: (typeof mine)[number]) => string[]) => [...new Set(mine.flatMap(pick))].sort();
      return {
        operation: `${OPERATIONS[key].section}${key.endsWith('ById') ? ' (/{id} form)' : ''}`,
        exchanges: mine.length,
        judged: mine.filter((l) => l.caseId).length,
        proved: union((l) => l.proved),
        broken: union((l) => l.broke),
        warned: union((l) => l.warned),
      };
    }),
    exchanges: lines,
  };
}

/** The console's lines above the verdict: the exchanges that broke a rule (50 at most), then the coverage. */
export function trafficConsoleLines(lines: ExchangeLine[], redactor: Redactor, rows: RequirementRow[]): string[] {
  const flagged = lines.filter((l) => l.broke.length || l.warned.length);
  const out: string[] = [];
  if (flagged.length) {
    out.push('Exchanges that broke a rule:');
    for (const l of flagged.slice(0, 50)) out.push(`  ${redactor.text(terminalLine(exchangeLineText(l)))}`);
    if (flagged.length > 50) out.push(`  … and ${flagged.length - 50} more (see the summary)`);
    out.push('');
  }
  const observedCount = rows.filter((r) => r.verdict !== 'not-observed' && r.verdict !== 'not-testable').length;
  const testable = rows.filter((r) => r.verdict !== 'not-testable').length;
  const unseen = rows.filter((r) => r.verdict === 'not-observed').length;
  out.push(
    `Coverage: ${observedCount} of ${testable} testable requirements observed; ` +
      `${unseen} not observed (not evidence either way).`,
  );
  return out;
}

/** What the verdict is about: "in what the traffic shows (40 of 70 requirements observed)". */
export function trafficScope(rows: RequirementRow[]): string {
  const observed = rows.filter((r) => r.verdict !== 'not-observed' && r.verdict !== 'not-testable').length;
  const testable = rows.filter((r) => r.verdict !== 'not-testable').length;
  return `in what the traffic shows (${observed} of ${testable} requirements observed)`;
}
