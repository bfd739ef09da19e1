import type { CaseReport } from '../model';
import { countByArea } from './results';

/** The short summary a CI log shows: per area the counts, then each failure in one line with its requirement. */
export function consoleSummary(cases: CaseReport[], extraErrors: string[] = []): string {
  const lines: string[] = [];
  const counts = countByArea(cases);
  const w = Math.max(14, ...Object.keys(counts).map((a) => a.length));
  lines.push(`${'area'.padEnd(w)}  passed  failed  warnings  not-applicable  skipped  could-not-test`);
  for (const [area, c] of Object.entries(counts)) {
    lines.push(`${area.padEnd(w)}  ${String(c.passed).padStart(6)}  ${String(c.failed).padStart(6)}  ${String(c.warning).padStart(8)}  ${String(c.notApplicable).padStart(14)}  ${String(c.notAllowed).padStart(7)}  ${String(c.couldNotTest + c.error).padStart(14)}`);
  }
  const firstLine = (s?: string) => (s ?? '').split('\n')[0];
  const failing = cases.filter((c) => c.outcome === 'failed');
  if (failing.length) {
    lines.push('', 'Failures:');
    for (const c of failing) {
      const k = c.checks.find((x) => x.outcome === 'failed' && (x.grade === 'MUST' || c.outcome === 'failed'));
      lines.push(`  ✗ ${k ? `${k.requirement} [${k.grade}]` : c.requirements.join(',')} ${c.area} › ${c.title}: ${k ? `${k.description}; received ${k.received}` : firstLine(c.reason)}`.slice(0, 400));
    }
  }
  const warnings = cases.filter((c) => c.outcome === 'warning');
  if (warnings.length) {
    lines.push('', 'Warnings (SHOULD; failures under --strict):');
    for (const c of warnings) lines.push(`  ! ${c.area} › ${c.title}: ${firstLine(c.reason)}`.slice(0, 400));
  }
  const broken = cases.filter((c) => c.outcome === 'could-not-test' || c.outcome === 'error');
  if (broken.length || extraErrors.length) {
    lines.push('', 'Could not test:');
    for (const c of broken.slice(0, 10)) lines.push(`  ? ${c.area} › ${c.title}: ${firstLine(c.reason)}`.slice(0, 400));
    if (broken.length > 10) lines.push(`  … and ${broken.length - 10} more`);
    for (const e of extraErrors) lines.push(`  ? ${e.split('\n')[0]}`);
  }
  return lines.join('\n');
}
