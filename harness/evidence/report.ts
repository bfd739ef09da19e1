import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CaseReport } from '../model';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** File names inside the reports directory. */
export const REPORT_FILES = {
  html: 'conformance-report.html',
  /** Allure 3 history (one JSON line per run). Kept between runs; restore it in CI to get trends. */
  history: 'allure-history.jsonl',
  /** The runKey of the run last appended to the history. */
  historyMarker: 'allure-history.last',
} as const;

/**
 * Allure 3 categories (allurerc `categories`). allure-vitest writes status "failed" for a
 * non-conformance (our registration throws an AssertionError) and "broken" for anything else thrown
 * (could not test, suite errors). Warnings are passed tests carrying the tag "warning"; under
 * --strict, SHOULD/INFO failures are "failed" with a message starting with the grade.
 */
export const ALLURE_CATEGORIES = [
  // First: a failure accepted by a waiver (--waivers) stays failed in Allure, its message starting WAIVED.
  {
    id: 'waived',
    name: 'Waived deviations (failed; accepted by a waiver, not passes)',
    matchers: [{ statuses: ['failed'], message: '^WAIVED ' }],
    groupBy: [{ label: 'story' }],
    groupByMessage: false,
    expand: true,
  },
  {
    id: 'non-conformance',
    name: 'Non-conformance (a MUST check failed)',
    matchers: [{ statuses: ['failed'], message: '^MUST ' }],
    groupBy: [{ label: 'story' }],
    groupByMessage: false,
    expand: true,
  },
  {
    id: 'could-not-test',
    name: 'Could not test (connection refused, ' + 'timeouts, garbage answers)',
    matchers: [{ statuses: ['broken'], message: '^could not test' }],
    groupBy: [{ label: 'feature' }],
    groupByMessage: false,
    expand: true,
  },
  {
    id: 'warnings',
    name: 'Warnings (SHOULD / INFO; failures ' + 'under --strict)',
    matchers: [
      { statuses: ['passed'], labels: { tag: '^warning$' } },
      { statuses: ['failed'], message: '^(SHOULD|INFO) ' },
    ],
    groupBy: [{ label: 'story' }],
    groupByMessage: false,
  },
  {
    id: 'observations',
    name: 'Observations (INFO: values the spec ' + 'does not list)',
    matchers: [{ statuses: ['passed'], labels: { tag: '^observation$' } }],
    groupBy: [{ label: 'story' }],
    groupByMessage: false,
  },
  {
    id: 'suite-errors',
    name: 'Suite errors (a bug in dbsi-conformance)',
    matchers: [{ statuses: ['broken', 'failed'] }],
    groupByMessage: true,
  },
];

/**
 * The error a case that did not pass throws to vitest. allure-vitest writes status "failed" for an
 * AssertionError (a non-conformance: a verdict on the target) and "broken" for any other error
 * (could not test, suite error); ALLURE_CATEGORIES rely on this. The message is the case's reason,
 * already redacted; no stack (it would show the suite's internals, not the target's behaviour).
 */
export function caseError(report: Pick<CaseReport, 'outcome' | 'reason'>): Error {
  const err = new Error(report.reason);
  if (report.outcome === 'failed') err.name = 'AssertionError';
  err.stack = report.reason;
  return err;
}

export interface HtmlReportOptions {
  /** The reports directory: the HTML and the history file are written there. */
  reportsDir: string;
  resultsDir: string;
  /** Report title, e.g. "DBSI conformance: <target>". */
  name: string;
  /** Run facts shown on the report's front page (target, versions, seed). */
  variables: Record<string, string>;
  /** Identifies the run (its start time): a run is appended to the history once, however often its report is rebuilt.
   * */
  runKey?: string;
  /** Defaults to 5 minutes. */
  timeoutMs?: number;
  /** The run's verdict, shown first on the front page, above the pass-rate dial (which counts tests, not conformance).
   * */
  verdict?: { headline: string; exitCode: number; diagnosis?: string[]; waived?: string[]; leftovers?: string[] };
}

export class ReportError extends Error {
  override name = 'ReportError';
}

/**
 * Where the allure CLI lives (the `allure` package, Allure 3): in the clone's node_modules, or, for an installed
 * package, in the node_modules it was installed into (npm hoists it beside the package), found as Node finds one.
 */
export function allureCli(): string {
  const first = join(ROOT, 'node_modules', 'allure', 'cli.js');
  let dir = ROOT;
  for (let depth = 0; depth < 64; depth++) {
    const cli = join(dir, 'node_modules', 'allure', 'cli.js');
    if (existsSync(cli)) return cli;
    if (dirname(dir) === dir) break;
    dir = dirname(dir);
  }
  throw new ReportError(`the allure CLI is not installed (${first}); run npm ci`);
}

/**
 * The awesome plugin's single-file page loads Google Analytics (gtag) from the Internet. An
 * evidence file that is e-mailed to a financial institution must not call out when opened: the tag
 * and its configuration script are removed.
 */
const escHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The verdict as the first thing on the report's front page: a banner above the Allure app, coloured
 * by the exit code (green 0, red 1, amber otherwise). Allure's own dial shows the share of passed
 * tests, which says nothing about conformance (one failed MUST check is non-conformance).
 */
export function verdictBanner(
  html: string,
  v: {
    headline: string;
    exitCode: number;
    diagnosis?: string[];
    waived?: string[];
    observations?: string;
    tests?: string;
    leftovers?: string[];
  },
): string {
  // A run that is conformant only with waived deviations is not shown in the green of a clean pass.
  const amberOnGreen = v.exitCode === 0 && !!v.waived?.length;
  const [bg, fg] = amberOnGreen
    ? ['#fff4e5', '#9a4d00']
    : v.exitCode === 0
      ? ['#e6f4ea', '#137333']
      : v.exitCode === 1
        ? ['#fce8e6', '#a50e0e']
        : ['#fef7e0', '#8a5a00'];
  // What the setup kept from a verdict, and which key to check, right under the verdict.
  const diagnosis = v.diagnosis?.length
    ? `<pre id="dbsi-diagnosis" style="font:400 13px/1.4 ` +
      `ui-monospace,monospace;text-align:left;white-space:pre-wrap;margin:10px auto ` +
      `0;max-width:1100px">${escHtml(v.diagnosis.join('\n'))}</pre>`
    : '';
  // The waived deviations first under the verdict: accepted by agreement, never passes.
  const waived = v.waived?.length
    ? `<pre id="dbsi-waived" style="font:400 13px/1.4 ui-monospace,monospace;text-align:left;white-space:pre-wrap;` +
      `margin:10px auto 0;max-width:1100px">${escHtml(v.waived.join('\n'))}</pre>`
    : '';
  const leftovers = v.leftovers?.length
    ? `<pre id="dbsi-leftovers" style="font:400 13px/1.4 ui-monospace,monospace;text-align:left;` +
      `white-space:pre-wrap;margin:10px auto 0;max-width:1100px">${escHtml(v.leftovers.join('\n'))}</pre>`
    : '';
  // INFO observations have their own mark: never read as passes (Categories › Observations lists them).
  const tests = v.tests
    ? `<div id="dbsi-tests" style="font:400 15px/1.4 ` +
      `system-ui,sans-serif;margin-top:4px">${escHtml(v.tests)}</div>`
    : '';
  const observations = v.observations
    ? `<div id="dbsi-observations" style="font:400 15px/1.4 ` +
      `system-ui,sans-serif;margin-top:6px">Observations: ${escHtml(v.observations)}</div>`
    : '';
  const banner =
    `<div id="dbsi-verdict" role="status" style="font:600 22px/1.35 ` +
    `system-ui,sans-serif;background:${bg};color:${fg};border-bottom:3px solid ${fg};padding:14px ` +
    `24px;text-align:center">Verdict: ${escHtml(v.headline)} <span ` +
    `style="font-weight:400;font-size:15px">(exit ` +
    `${v.exitCode})</span>${tests}${observations}${waived}${leftovers}${diagnosis}</div>`;
  return html.replace(/<body([^>]*)>/, (m) => `${m}\n${banner}`);
}

export function stripAnalytics(html: string): string {
  return html
    .replace(/<script async src="https:\/\/www\.googletagmanager\.com\/[^"]*"><\/script>\s*/g, '')
    .replace(/<script>\s*window\.dataLayer = window\.dataLayer[\s\S]*?<\/script>\s*/g, '');
}

/**
 * Build the single self-contained HTML report from allure-results with the Allure 3 CLI
 * (`allure generate` with the awesome plugin, `singleFile: true`). History is read from and
 * appended to `<reportsDir>/allure-history.jsonl` when it is present (keep that file between nightly
 * runs). Returns the path of the HTML file.
 */
export async function buildHtmlReport(o: HtmlReportOptions): Promise<string> {
  const reportsDir = resolve(o.reportsDir);
  const work = mkdtempSync(join(tmpdir(), 'dbsi-allure-'));
  try {
    const output = join(work, 'out');
    const rc = join(work, 'allurerc.json');
    const marker = join(reportsDir, REPORT_FILES.historyMarker);
    const appended = o.runKey !== undefined && existsSync(marker) && readFileSync(marker, 'utf8').trim() === o.runKey;
    writeFileSync(
      rc,
      JSON.stringify(
        {
          name: o.name,
          output,
          historyPath: join(reportsDir, REPORT_FILES.history),
          appendHistory: !appended,
          // Runner noise a reader of the evidence does not need; epic/feature/story/severity/tag stay.
          hideLabels: ['framework', 'language', 'host', 'thread', 'package', 'parentSuite', '_fallbackTestCaseId'],
          historyLimit: 60,
          variables: o.variables,
          categories: { rules: ALLURE_CATEGORIES },
          plugins: {
            awesome: {
              options: {
                singleFile: true,
                reportName: o.name,
                reportLanguage: 'en',
                groupBy: ['epic', 'feature', 'story'],
                stepTreeExpansion: 'expanded',
                defaultSortBy: 'status,asc',
              },
            },
          },
        },
        null,
        2,
      ),
    );
    // The results, minus environment.properties: its facts are the report's variables already
    // (with the verdict), and shown twice they push the test tree below the fold.
    const results = join(work, 'allure-results');
    mkdirSync(results);
    for (const f of readdirSync(o.resultsDir)) {
      if (f === 'environment.properties') continue;
      try {
        linkSync(resolve(o.resultsDir, f), join(results, f)); // the reader does not follow symlinks
      } catch {
        copyFileSync(resolve(o.resultsDir, f), join(results, f));
      }
    }
    const { code, output: log } = await run(
      process.execPath,
      [allureCli(), 'generate', results, '--config', rc, '--cwd', work],
      o.timeoutMs ?? 300_000,
    );
    const index = join(output, 'index.html');
    if (code !== 0 || !existsSync(index))
      throw new ReportError(
        `allure generate failed (exit ${code}): ` + `${log.trim().split('\n').slice(-5).join(' / ')}`,
      );
    mkdirSync(reportsDir, { recursive: true });
    const file = join(reportsDir, REPORT_FILES.html);
    const page = stripAnalytics(readFileSync(index, 'utf8'));
    writeFileSync(file, o.verdict ? verdictBanner(page, o.verdict) : page);
    if (o.runKey !== undefined) writeFileSync(marker, o.runKey + '\n');
    return file;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function run(cmd: string, args: string[], timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolvePromise) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, output });
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      resolvePromise({ code: -1, output: e.message });
    });
  });
}
