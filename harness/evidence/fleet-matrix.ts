import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceSummary } from './summary';

/**
 * A fleet's matrix (issue 35): one row per requirement, one column per target with that target's verdict, the
 * per-target verdicts and exit codes, and links to each target's own reports. Written by a fleet run (several
 * --config) and by the merge command over report folders made elsewhere (a CI matrix's jobs).
 */
export const FLEET_FILES = { md: 'fleet-matrix.md', json: 'fleet-matrix.json' } as const;

/** One target of the fleet, as its run left it. */
export interface FleetTarget {
  name: string;
  /** Its reports folder, relative to the matrix's folder (links). */
  dir: string;
  /** The run's exit code (null: it did not end by itself). */
  exitCode: number | null;
  /** Its conformance-summary.json, when it wrote one. */
  summary?: Pick<ConformanceSummary, 'facts' | 'requirements' | 'comparison'>;
  /** Whether its folder holds the HTML report. */
  html?: boolean;
}

export interface FleetMatrix {
  exitCode: number;
  targets: Array<{
    name: string;
    exitCode: number | null;
    verdict: string;
    headline?: string;
    configured?: string;
    /** With --compare: the requirements that newly failed on this target since its previous run. */
    newlyFailed?: string[];
    reports: { summary?: string; html?: string; folder: string };
  }>;
  requirements: Array<{ id: string; grade: string; section: string; verdicts: Record<string, string> }>;
}

/**
 * The fleet's exit code: the worst of its targets'. Worst first: interrupted (130), usage or configuration error
 * (2), evidence refused (4), non-conformant (1), could not test (3), conformant in the areas tested (5),
 * conformant (0). A target that did not end by itself counts as could not test.
 */
const SEVERITY = [130, 2, 4, 1, 3, 5, 0];
export function worstExit(codes: Array<number | null>): number {
  const known = codes.map((c) => (c === null || !SEVERITY.includes(c) ? 3 : c));
  return SEVERITY.find((s) => known.includes(s)) ?? 3;
}

const NO_SUMMARY: Record<number, string> = {
  2: 'usage or configuration error',
  130: 'interrupted',
};

export function fleetMatrix(targets: FleetTarget[]): FleetMatrix {
  const rows = new Map<string, FleetMatrix['requirements'][number]>();
  for (const t of targets)
    for (const r of t.summary?.requirements ?? []) {
      const row = rows.get(r.id) ?? { id: r.id, grade: r.grade, section: r.section, verdicts: {} };
      row.verdicts[t.name] = r.verdict;
      rows.set(r.id, row);
    }
  return {
    exitCode: worstExit(targets.map((t) => t.exitCode)),
    targets: targets.map((t) => ({
      name: t.name,
      exitCode: t.exitCode,
      verdict: t.summary?.facts.verdict ?? NO_SUMMARY[t.exitCode ?? -1] ?? 'no report',
      ...(t.summary?.facts.headline ? { headline: t.summary.facts.headline } : {}),
      ...(t.summary ? { configured: t.summary.facts.target.name } : {}),
      ...(t.summary?.comparison ? { newlyFailed: t.summary.comparison.newlyFailed } : {}),
      reports: {
        folder: `${t.dir}/`,
        ...(t.summary ? { summary: `${t.dir}/conformance-summary.md` } : {}),
        ...(t.html ? { html: `${t.dir}/conformance-report.html` } : {}),
      },
    })),
    requirements: [...rows.values()],
  };
}

const CELL: Record<string, string> = {
  passed: '✅ passed',
  failed: '❌ failed',
  warning: '⚠️ warning',
  waived: '🟠 waived',
  observed: '🔎 observed',
  'could-not-test': '❔ could not test',
  'not-applicable': '➖ n/a',
  'skipped-not-allowed': '⏭️ not allowed',
  'not-verified': '⏸️ not verified',
  'not-run': '—',
  'not-testable': '📄 not testable',
  'no-test': '❗ no test',
  'not-observed': '👁️ not observed',
};

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
const link = (text: string, href: string) => `[${cell(text)}](${encodeURI(href)})`;

export function matrixMarkdown(m: FleetMatrix): string {
  const out = ['# DBSI conformance: fleet matrix', ''];
  out.push(`**Fleet exit code: ${m.exitCode}** (the worst of the targets')`, '');
  out.push('| target | verdict | exit | reports |', '|---|---|---|---|');
  for (const t of m.targets) {
    const reports = [
      t.reports.summary && link('summary', t.reports.summary),
      t.reports.html && link('HTML report', t.reports.html),
      link('folder', t.reports.folder),
    ].filter(Boolean);
    const name = t.configured && t.configured !== t.name ? `${t.name} (${t.configured})` : t.name;
    out.push(`| ${cell(name)} | ${cell(t.headline ?? t.verdict)} | ${t.exitCode ?? '—'} | ${reports.join(', ')} |`);
  }
  const compared = m.targets.filter((t) => t.newlyFailed);
  if (compared.length) {
    out.push('', '## Newly failed since the previous run', '');
    for (const t of compared)
      out.push(`- ${cell(t.name)}: ${t.newlyFailed!.length ? t.newlyFailed!.map(cell).join(', ') : 'none'}`);
  }
  out.push('', '## Requirements × targets', '');
  out.push(`| requirement | grade | ${m.targets.map((t) => cell(t.name)).join(' | ')} |`);
  out.push(`|---|---|${m.targets.map(() => '---|').join('')}`);
  for (const r of m.requirements) {
    const cells = m.targets.map((t) => {
      const v = r.verdicts[t.name];
      return v === undefined ? 'no report' : (CELL[v] ?? cell(v));
    });
    out.push(`| ${cell(r.id)} | ${r.grade} | ${cells.join(' | ')} |`);
  }
  return out.join('\n') + '\n';
}

/** Write fleet-matrix.md and .json into `dir`; returns the matrix. */
export function writeMatrix(dir: string, targets: FleetTarget[]): FleetMatrix {
  const m = fleetMatrix(targets);
  writeFileSync(join(dir, FLEET_FILES.json), JSON.stringify(m, null, 2) + '\n');
  writeFileSync(join(dir, FLEET_FILES.md), matrixMarkdown(m));
  return m;
}
