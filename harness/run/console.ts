import type { CaseReport } from '../model';
import { cutAtToken } from '../text';
import { countByArea } from './results';

const firstLine = (s?: string) => (s ?? '').split('\n')[0]!;

/** "1 test", "2 tests". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Where a test sits, as the reports show it: area › operation › title. */
export function casePath(c: Pick<CaseReport, 'area' | 'operation' | 'title'>): string {
  return `${c.area} › ${c.operation} › ${c.title}`;
}

/**
 * One line for a failed test: the requirement and grade of its most severe failed check, the test (with its
 * operation), the spec section, what the check states and what was received (cut at a token boundary).
 */
export function failureLine(c: CaseReport): string {
  // The most severe failed check: a MUST, then a SHOULD, then an INFO one (each graded only when the test failed).
  const failed = c.checks.filter((x) => x.outcome === 'failed' && (x.grade === 'MUST' || c.outcome === 'failed'));
  const k =
    (['MUST', 'SHOULD', 'INFO'] as const).map((g) => failed.find((x) => x.grade === g)).find((x) => x !== undefined) ??
    failed[0];
  if (!k) return `✗ ${c.requirements.join(',')} ${casePath(c)}: ${cutAtToken(firstLine(c.reason), 300)}`;
  return (
    `✗ ${k.requirement} [${k.grade}] ${casePath(c)} (spec section "${k.section}"): ` +
    `${k.description}; received ${cutAtToken(k.received ?? '', 240)}`
  );
}

/** The short summary a CI log shows: per area the counts, then each failure in one line with its requirement. */
export function consoleSummary(cases: CaseReport[], extraErrors: string[] = []): string {
  const lines: string[] = [];
  const counts = countByArea(cases);
  const w = Math.max(14, ...Object.keys(counts).map((a) => a.length));
  // Waived tests (--waivers) get a column of their own, first: they are neither passed nor failed.
  const waived = cases.some((c) => c.outcome === 'waived');
  const header = '  passed  failed  warnings  not-applicable  skipped  could-not-test';
  lines.push(`${'area'.padEnd(w)}${waived ? '  waived' : ''}${header}`);
  for (const [area, c] of Object.entries(counts)) {
    const first = waived ? `  ${String(c.waived).padStart(6)}` : '';
    lines.push(
      `${area.padEnd(w)}${first}  ${String(c.passed).padStart(6)}  ${String(c.failed).padStart(6)}  ` +
        `${String(c.warning).padStart(8)}  ${String(c.notApplicable).padStart(14)}  ` +
        `${String(c.notAllowed).padStart(7)}  ${String(c.couldNotTest + c.error).padStart(14)}`,
    );
  }
  const failing = cases.filter((c) => c.outcome === 'failed');
  if (failing.length) {
    lines.push('', 'Failures:');
    for (const c of failing) lines.push(`  ${failureLine(c)}`);
  }
  const warnings = cases.filter((c) => c.outcome === 'warning');
  if (warnings.length) {
    lines.push('', 'Warnings (SHOULD; failures under --strict):');
    for (const c of warnings) lines.push(`  ! ${casePath(c)}: ${cutAtToken(firstLine(c.reason), 300)}`);
  }
  lines.push(...observationLines(cases));
  const broken = cases.filter((c) => c.outcome === 'could-not-test' || c.outcome === 'error');
  if (broken.length || extraErrors.length) {
    lines.push('', 'Could not test:');
    for (const c of broken.slice(0, 10)) lines.push(`  ? ${casePath(c)}: ${cutAtToken(firstLine(c.reason), 300)}`);
    if (broken.length > 10) lines.push(`  … and ${broken.length - 10} more`);
    for (const e of extraErrors) lines.push(`  ? ${e.split('\n')[0]}`);
  }
  return lines.join('\n');
}

/**
 * INFO observations (values the spec does not list) that did not fail the run: never silent, one line per
 * kind (requirement and what was received), with the number of tests that saw it.
 */
export function observationLines(cases: readonly CaseReport[]): string[] {
  const kinds = new Map<string, { line: string; tests: Set<string> }>();
  for (const c of cases) {
    if (c.outcome === 'failed') continue; // under --strict an observation fails its test, and is listed there
    for (const k of c.checks.filter((x) => x.grade === 'INFO' && x.outcome === 'failed')) {
      const line = `${k.requirement}: ${k.description}; received ${cutAtToken(k.received ?? '', 160)}`;
      const kind = kinds.get(line) ?? kinds.set(line, { line, tests: new Set() }).get(line)!;
      kind.tests.add(c.id);
    }
  }
  if (kinds.size === 0) return [];
  const n = kinds.size;
  const out = [
    '',
    `Observations (INFO: ${n} kind${n === 1 ? '' : 's'} of what the spec does ` +
      `not list; not failures, failures under --strict):`,
  ];
  for (const k of kinds.values()) out.push(`  ◦ ${k.line} (${plural(k.tests.size, 'test')})`);
  return out;
}
