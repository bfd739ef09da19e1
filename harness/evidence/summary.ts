import type { CaseReport, Exploration, Leftover } from '../model';
import { leftoversBlock, openLeftovers, setToConfigured, type OpenLeftover } from '../run/leftovers';
import { sectionAnchor } from '../../requirements';
import { cutAtToken } from '../text';
import { notTestedText, type Coverage } from '../run/coverage';
import {
  countByArea,
  countVerdicts,
  type AreaCounts,
  type RequirementRow,
  type RequirementVerdict,
} from '../run/results';
import { trafficSection, type TrafficSummary } from '../traffic/summary-section';
import { explorationLine } from '../explore-settings';
import { diagnosisBlock, type SetupFinding } from '../setup/diagnosis';
import { unremovableBlock, type UnremovableRecord } from '../run/unremovable';
import type { WaiverReport } from '../run/waivers';
import type { DeclaredDeviation } from '../run/deviations';
import { comparisonLines, type Comparison } from '../run/compare';
import { contractFigureMarkdown, type ContractFigure } from './summary-coverage';
import { failureHeading } from './failure-heading';

export interface RunFacts {
  target: {
    name: string;
    baseUrl: string;
    authBaseUrl: string;
    transfersBaseUrl: string;
    embedded: boolean;
    faults: string[];
  };
  suiteVersion: string;
  /** SHA-256 of the configuration without its secrets (harness/run/compare.ts configFingerprint). */
  configSha256?: string;
  /** The spec the suite was built from: its file, SHA-256 (the spec version), and where its sections are linked. */
  spec: { file: string; sha256: string; url?: string };
  seed: number;
  strict: boolean;
  areas: string[];
  filter: { grep?: string; tags?: string[]; excludeGrep?: string; excludeTags?: string[] };
  startedAt: string;
  durationMs: number;
  node: string;
  exitCode: number;
  verdict:
    | 'conformant'
    | 'conformant with waived deviations'
    | 'conformant in the areas tested'
    | 'non-conformant'
    | 'could not test'
    | 'interrupted'
    | 'left changes on the target'
    | 'waiver no longer needed';
  /** The verdict and what it covers: "conformant in the areas tested (1 of 4); not tested: …". */
  headline?: string;
  /** What the verdict is about where it is not the run's own tests: "in what the traffic shows (40 of 70 …)". */
  scope?: string;
  /** Which selected areas verified something, and why the others did not (a CI reads coverage.notTested). */
  coverage?: Coverage;
  /** Problems outside any case (a suite file that failed to load, an interruption). */
  problems: string[];
  /** What the configuration declares the target does differently from the spec (paths). */
  deviations?: DeclaredDeviation[];
}

export interface ConformanceSummary {
  $schema: string;
  facts: RunFacts;
  /** --waivers: the deviations accepted by agreement (listed first: a waived deviation is never a pass). */
  waivers?: WaiverReport;
  /** --compare: what changed since an earlier run. */
  comparison?: Comparison;
  /** The contract-coverage figure of the selected areas, with the files of the coverage table. */
  contractCoverage?: ContractFigure;
  areas: Record<string, AreaCounts>;
  /** How many catalog requirements ended with each verdict. */
  requirementTotals: Record<RequirementVerdict, number>;
  requirements: RequirementRow[];
  /** What the run changed on the target and could not put back, with the values to restore by hand (empty when
   * everything is as found). */
  leftovers: OpenLeftover[];
  /** What the run set back to the values configured as on record (e-mail, postal address): the interface cannot
   * confirm what was there before. */
  setToConfigured?: OpenLeftover[];
  /** What the run created that the interface cannot remove (institution disclosures, transfers). */
  unremovable: UnremovableRecord[];
  /** What the operator's setup kept from a verdict, and which key or variable to check. */
  diagnosis: SetupFinding[];
  cases: Array<
    Pick<CaseReport, 'id' | 'area' | 'operation' | 'title' | 'requirements' | 'outcome' | 'reason' | 'durationMs'> & {
      exchanges: number;
      curl?: string;
      retries?: string[];
      leftovers?: Leftover[];
    }
  >;
  /** Judging recorded traffic (--traffic): the capture, coverage per operation, a line per exchange. */
  traffic?: TrafficSummary;
  /** The model-based explorer: what it reached (docs/explorer.md). */
  exploration?: Exploration;
}

const EMBEDDED = 'embedded reference target';

export function buildSummary(
  facts: RunFacts,
  cases: CaseReport[],
  rows: RequirementRow[],
  setup: {
    diagnosis?: SetupFinding[];
    unremovable?: UnremovableRecord[];
    waivers?: WaiverReport;
    comparison?: Comparison;
    contractCoverage?: ContractFigure;
  } = {},
): ConformanceSummary {
  return {
    $schema: 'https://dbsi-conformance.dev/schemas/conformance-summary.schema.json',
    facts,
    ...(setup.waivers ? { waivers: setup.waivers } : {}),
    ...(setup.comparison ? { comparison: setup.comparison } : {}),
    ...(setup.contractCoverage ? { contractCoverage: setup.contractCoverage } : {}),
    areas: countByArea(cases),
    requirementTotals: countVerdicts(rows),
    requirements: rows,
    leftovers: openLeftovers(cases),
    ...(setToConfigured(cases).length ? { setToConfigured: setToConfigured(cases) } : {}),
    unremovable: setup.unremovable ?? [],
    diagnosis: setup.diagnosis ?? [],
    cases: cases.map((c) => ({
      id: c.id,
      area: c.area,
      operation: c.operation,
      title: c.title,
      requirements: c.requirements,
      outcome: c.outcome,
      reason: c.reason,
      durationMs: c.durationMs,
      exchanges: c.exchanges.length,
      curl: c.checks.find((k) => k.outcome === 'failed')?.curl,
      ...retriesOf(c),
      ...(c.leftovers?.length ? { leftovers: c.leftovers } : {}),
    })),
  };
}

/** The safe retries that happened in a case (429, 503 on a read, connection refused), one line each. */
function retriesOf(c: CaseReport): { retries?: string[] } {
  const lines = c.exchanges.flatMap((e) => e.retries.map((r) => `${e.request.method} ${e.request.url}: ${r}`));
  return lines.length ? { retries: lines } : {};
}

const VERDICT_TEXT: Record<string, string> = {
  waived: '🟠 WAIVED (failed; accepted by a waiver, not a pass)',
  passed: '✅ passed',
  observed: '🔎 observed (INFO, not a failure)',
  failed: '❌ failed',
  warning: '⚠️ warning',
  'could-not-test': '❔ could not test',
  'not-applicable': '➖ not applicable',
  'skipped-not-allowed': '⏭️ skipped: not allowed on this target',
  'not-verified': '⏸️ not verified (an earlier check of its test failed)',
  'not-run': '— not run (filtered out)',
  'not-testable': '📄 not testable from the spec',
  'no-test': '❗ no test',
  'not-observed': '👁️ not observed (the traffic never exercised it)',
};

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function summaryMarkdown(s: ConformanceSummary): string {
  const f = s.facts;
  const out: string[] = [];
  out.push(`# DBSI conformance summary: ${f.verdict.toUpperCase()}${f.scope ? ` ${f.scope}` : ''}`, '');
  if (f.headline && f.headline !== f.verdict) out.push(`**${f.headline}**`, '');
  out.push(...contractFigureMarkdown(s.contractCoverage));
  out.push(...coversSection(s));
  out.push(...waiversSection(s));
  if (f.deviations?.length) {
    out.push('## Declared deviations (the configuration says the target differs from the spec)', '');
    for (const d of f.deviations) {
      out.push(`- ${cell(d.text)}; not verified at the spec's path: ${d.requirements.join(', ') || 'no requirement'}`);
    }
    out.push('');
  }
  // What changed since the earlier run (--compare): near the top, where a nightly job summary shows it.
  if (s.comparison) out.push('## Compared with an earlier run', '', '```', ...comparisonLines(s.comparison), '```', '');
  if (f.target.embedded)
    out.push(
      "> This run was against the suite's embedded reference target: a self-check " +
        'of the suite, not evidence about an implementation.',
      '',
    );
  out.push(`| fact | value |`, `|---|---|`);
  out.push(
    `| target | ${cell(f.target.name)}${f.target.embedded && f.target.name !== EMBEDDED ? ` (${EMBEDDED})` : ''} |`,
  );
  out.push(`| base URLs | ${f.target.baseUrl}, ${f.target.authBaseUrl}, ${f.target.transfersBaseUrl} |`);
  if (f.target.faults.length) out.push(`| reference faults switched on | ${f.target.faults.join(', ')} |`);
  out.push(
    `| suite version | ${f.suiteVersion} |`,
    `| spec | ${f.spec.file} (sha256 ` + `${f.spec.sha256.slice(0, 16)}…) |`,
  );
  if (!s.traffic) out.push(`| seed | ${f.seed} (reproduce with \`--seed ${f.seed}\`) |`);
  out.push(`| strict | ${f.strict} |`, `| areas | ${f.areas.join(', ')} |`);
  out.push(
    `| started | ${f.startedAt} |`,
    `| duration | ${(f.durationMs / 1000).toFixed(1)} s |`,
    `| Node | ${f.node} |`,
    `| exit code | ${f.exitCode} |`,
    '',
  );
  if (s.diagnosis.length)
    out.push('## Diagnosis: the setup, not the target', '', '```', ...diagnosisBlock(s.diagnosis), '```', '');
  if (s.leftovers.length || s.setToConfigured?.length)
    out.push(
      '## Left on the target: restore by hand',
      '',
      '```',
      ...leftoversBlock(s.leftovers, s.setToConfigured),
      '```',
      '',
    );
  if (s.unremovable.length)
    out.push(
      '## Created, cannot be removed through ' + 'the interface',
      '',
      '```',
      ...unremovableBlock(s.unremovable),
      '```',
      '',
    );
  if (f.problems.length) out.push('## Problems outside the tests', '', ...f.problems.map((p) => `- ${cell(p)}`), '');
  out.push(
    '## Tests per area',
    '',
    '| area | total | waived | passed | failed | warnings | not applicable | skipped | could not test |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  for (const [a, c] of Object.entries(s.areas)) {
    const counts = [c.total, c.waived ?? 0, c.passed, c.failed, c.warning, c.notApplicable, c.notAllowed];
    counts.push(c.couldNotTest + c.error);
    out.push(`| ${a} | ${counts.join(' | ')} |`);
  }
  out.push(
    '',
    '## Requirements',
    '',
    `${s.requirements.length} catalog requirements: ` +
      `${Object.entries(s.requirementTotals)
        .filter(([, n]) => n > 0)
        .map(([v, n]) => `${n} ${VERDICT_TEXT[v]}`)
        .join(', ')}.`,
  );
  out.push('', '| id | grade | section | verdict | notes |', '|---|---|---|---|---|');
  const section = (name: string) => (f.spec.url ? `[${cell(name)}](${f.spec.url}#${sectionAnchor(name)})` : cell(name));
  for (const r of s.requirements)
    out.push(
      `| ${r.id} | ${r.grade} | ${section(r.section)} | ${VERDICT_TEXT[r.verdict]} | ` +
        `${cell(cutAtToken(r.notes.slice(0, 3).join('; '), 300))} |`,
    );
  const failed = s.cases.filter(
    (c) => c.outcome === 'failed' || c.outcome === 'could-not-test' || c.outcome === 'error',
  );
  if (failed.length) {
    out.push('', '## Failures', '');
    for (const c of failed)
      out.push(`### ${cell(failureHeading(c))} (${c.area})`, '', '```', c.reason ?? '', '```', '');
  }
  out.push(...retriesSection(s));
  if (s.traffic) out.push(...trafficSection(s.traffic));
  if (s.exploration) {
    const e = s.exploration;
    out.push('', '## Explored', '', `${explorationLine(e)}.`, '');
    if (e.notReached.length) out.push(`Not reached: ${e.notReached.map(cell).join('; ')}.`, '');
  }
  return out.join('\n') + '\n';
}

/** First in the summary: the waived deviations (never a pass), expired waivers, those no longer needed. */
function waiversSection(s: ConformanceSummary): string[] {
  const w = s.waivers;
  if (!w) return [];
  const out = [`## Waived deviations: ${w.waived.length} (failed; accepted by agreement, NOT passes)`, ''];
  out.push(`Waivers file: \`${cell(w.file)}\` (sha256 ${w.sha256}), expiry dates compared with ${w.date} (UTC).`, '');
  out.push('| requirement | test | state | reference | expires | reason | tests waived |');
  out.push('|---|---|---|---|---|---|---|');
  const order = ['applied', 'expired', 'no-longer-needed', 'unused'];
  const STATE: Record<string, string> = {
    applied: '🟠 WAIVED',
    expired: '⌛ EXPIRED: ignored',
    'no-longer-needed': '⚠️ no longer needed (passed)',
    unused: 'not used (no failure to waive)',
  };
  for (const x of [...w.waivers].sort((a, b) => order.indexOf(a.state) - order.indexOf(b.state))) {
    const row = [x.requirement, x.test ?? 'any', STATE[x.state], x.reference, x.expires, x.reason];
    row.push(x.cases.join(', ') || '—');
    out.push(`| ${row.map((v) => cell(v ?? '')).join(' | ')} |`);
  }
  return [...out, ''];
}

/** The safe retries of the run (they do not change a verdict, but a person should know). */
function retriesSection(s: ConformanceSummary): string[] {
  const retried = s.cases.filter((c) => c.retries?.length);
  if (!retried.length) return [];
  const out = [
    '',
    '## Retries',
    '',
    'Requests repeated because it was safe (429 with Retry-After, 503 on a read, ' +
      'no connection): the verdicts rest on the last answer.',
    '',
  ];
  for (const c of retried) for (const r of c.retries!) out.push(`- ${cell(c.title)}: ${cell(r)}`);
  return out;
}

/**
 * What an acceptance reviewer must weigh beside the verdict, in one place at the top: waived and declared
 * deviations, areas not tested and why, tests without a verdict and the setup keys behind them, leftovers and
 * records the interface cannot remove, INFO observations. Each is detailed in its own section below.
 */
function coversSection(s: ConformanceSummary): string[] {
  const f = s.facts;
  const total = (k: keyof AreaCounts) => Object.values(s.areas).reduce((n, a) => n + (a[k] ?? 0), 0);
  const items: string[] = [];
  const waived = total('waived');
  if (waived) items.push(`${waived} test${waived === 1 ? '' : 's'} failed and waived by agreement (not passes)`);
  if (f.deviations?.length)
    items.push(`${f.deviations.length} declared ` + `deviation${f.deviations.length === 1 ? '' : 's'} (paths)`);
  const missing = f.coverage ? notTestedText(f.coverage) : '';
  if (missing) items.push(missing);
  const cnt = total('couldNotTest') + total('error');
  if (cnt) {
    const keys = s.diagnosis.map((d) => d.key);
    items.push(
      `${cnt} test${cnt === 1 ? '' : 's'} could not ` +
        `test${keys.length ? `; setup keys to check: ${keys.join(', ')}` : ''}`,
    );
  }
  if (s.leftovers.length)
    items.push(
      `${s.leftovers.length} ` +
        `change${s.leftovers.length === 1 ? '' : 's'} left on the target ` +
        `(restore by hand)`,
    );
  const set = s.setToConfigured?.length ?? 0;
  if (set)
    items.push(
      `${set} value${set === 1 ? '' : 's'} set to the configured values; ` +
        'the interface cannot confirm what was there before',
    );
  if (s.unremovable.length)
    items.push(
      `${s.unremovable.length} ` +
        `record${s.unremovable.length === 1 ? '' : 's'} created that the ` +
        `interface cannot remove`,
    );
  const observed = s.requirements.filter((r) => r.verdict === 'observed').length;
  if (observed) items.push(`${observed} requirement${observed === 1 ? '' : 's'} observed (INFO, not failures)`);
  if (!items.length) return [];
  return ['## What this evidence covers', '', ...items.map((i) => `- ${cell(i)}`), ''];
}
