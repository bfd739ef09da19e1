import { sectionAnchor } from '../../requirements';
import { cutAtToken } from '../text';
import { notTestedText } from '../run/coverage';
import type { AreaCounts } from '../run/results';
import { leftoversBlock } from '../run/leftovers';
import { explorationLine } from '../explore-settings';
import { diagnosisBlock } from '../setup/diagnosis';
import { unremovableBlock } from '../run/unremovable';
import { comparisonLines } from '../run/compare';
import type { Exploration } from '../model';
import type { ConformanceSummary, RunFacts } from './summary';
import { failureHeading } from './failure-heading';

/**
 * The sections of the Markdown summary (`summaryMarkdown` of summary.ts puts them in order), each a list of lines.
 * A section that has nothing to say is no lines at all.
 */

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

const EMBEDDED = 'embedded reference target';

/** The verdict as the title, and the headline under it where it says more than the verdict. */
export function titleLines(f: RunFacts): string[] {
  const out = [`# DBSI conformance summary: ${f.verdict.toUpperCase()}${f.scope ? ` ${f.scope}` : ''}`, ''];
  if (f.headline && f.headline !== f.verdict) out.push(`**${f.headline}**`, '');
  return out;
}

/** The deviations the configuration declares (paths), each with the requirements not verified at the spec's path. */
export function deviationsSection(f: RunFacts): string[] {
  if (!f.deviations?.length) return [];
  const out = ['## Declared deviations (the configuration says the target differs from the spec)', ''];
  for (const d of f.deviations) {
    out.push(`- ${cell(d.text)}; not verified at the spec's path: ${d.requirements.join(', ') || 'no requirement'}`);
  }
  out.push('');
  return out;
}

/** What changed since the earlier run (--compare): near the top, where a nightly job summary shows it. */
export function comparisonSection(s: ConformanceSummary): string[] {
  if (!s.comparison) return [];
  return ['## Compared with an earlier run', '', '```', ...comparisonLines(s.comparison), '```', ''];
}

/** The facts of the run (target, versions, seed, selection, timing, exit code), after the embedded target's note. */
export function factsTable(s: ConformanceSummary): string[] {
  const f = s.facts;
  const out: string[] = [];
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
  return out;
}

/** What the setup kept from a verdict, what was left on the target or cannot be removed, problems outside tests. */
export function setupSections(s: ConformanceSummary): string[] {
  const out: string[] = [];
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
  const f = s.facts;
  if (f.problems.length) out.push('## Problems outside the tests', '', ...f.problems.map((p) => `- ${cell(p)}`), '');
  return out;
}

/** The tests of each area by outcome (an error counts as could not test). */
export function areasTable(s: ConformanceSummary): string[] {
  const out = [
    '## Tests per area',
    '',
    '| area | total | waived | passed | failed | warnings | not applicable | skipped | could not test |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const [a, c] of Object.entries(s.areas)) {
    const counts = [c.total, c.waived ?? 0, c.passed, c.failed, c.warning, c.notApplicable, c.notAllowed];
    counts.push(c.couldNotTest + c.error);
    out.push(`| ${a} | ${counts.join(' | ')} |`);
  }
  return out;
}

/** The totals per verdict, then one row per catalog requirement (its section linked where the spec has a URL). */
export function requirementsSection(s: ConformanceSummary): string[] {
  const f = s.facts;
  const out = [
    '',
    '## Requirements',
    '',
    `${s.requirements.length} catalog requirements: ` +
      `${Object.entries(s.requirementTotals)
        .filter(([, n]) => n > 0)
        .map(([v, n]) => `${n} ${VERDICT_TEXT[v]}`)
        .join(', ')}.`,
  ];
  out.push('', '| id | grade | section | verdict | notes |', '|---|---|---|---|---|');
  const section = (name: string) => (f.spec.url ? `[${cell(name)}](${f.spec.url}#${sectionAnchor(name)})` : cell(name));
  for (const r of s.requirements)
    out.push(
      `| ${r.id} | ${r.grade} | ${section(r.section)} | ${VERDICT_TEXT[r.verdict]} | ` +
        `${cell(cutAtToken(r.notes.slice(0, 3).join('; '), 300))} |`,
    );
  return out;
}

/** Each test that failed, could not test or ended in an error, with its reason. */
export function failuresSection(s: ConformanceSummary): string[] {
  const failed = s.cases.filter(
    (c) => c.outcome === 'failed' || c.outcome === 'could-not-test' || c.outcome === 'error',
  );
  if (!failed.length) return [];
  const out = ['', '## Failures', ''];
  for (const c of failed) out.push(`### ${cell(failureHeading(c))} (${c.area})`, '', '```', c.reason ?? '', '```', '');
  return out;
}

/** What the model-based explorer reached, and what it did not. */
export function exploredSection(e: Exploration | undefined): string[] {
  if (!e) return [];
  const out = ['', '## Explored', '', `${explorationLine(e)}.`, ''];
  if (e.notReached.length) out.push(`Not reached: ${e.notReached.map(cell).join('; ')}.`, '');
  return out;
}

/** First in the summary: the waived deviations (never a pass), expired waivers, those no longer needed. */
export function waiversSection(s: ConformanceSummary): string[] {
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
export function retriesSection(s: ConformanceSummary): string[] {
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
export function coversSection(s: ConformanceSummary): string[] {
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
