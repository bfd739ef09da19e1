import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { reportVariables, reportVerdict, SUMMARY_FILES } from '../harness/evidence/evidence';
import { buildHtmlReport } from '../harness/evidence/report';
import { userCwd } from '../harness/local-files';
import type { ConformanceSummary } from '../harness/evidence/summary';

/**
 * npm run report [-- --reports DIR]: build the single-file HTML report from DIR/allure-results of
 * the last run (the main command does the same with --html). Exit 0, or 2 when there is nothing to
 * build from, or 3 when the allure CLI fails.
 */
const USAGE = `Usage: npm run report -- [--reports DIR]

Builds DIR/conformance-report.html (one self-contained file) from DIR/allure-results, with the
history of earlier runs when DIR/allure-history.jsonl is present. Default DIR: reports.`;

async function main(): Promise<number> {
  let v;
  try {
    v = parseArgs({
      args: process.argv.slice(2),
      options: {
        reports: { type: 'string', default: 'reports' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (e) {
    process.stderr.write(`dbsi-conformance report: ${(e as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (v.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  // A relative path is the user's, from the folder npm was run from (INIT_CWD), not the package root.
  const dir = resolve(userCwd(), v.reports!);
  const resultsDir = join(dir, 'allure-results');
  if (!existsSync(resultsDir)) {
    process.stderr.write(
      `dbsi-conformance report: no ${resultsDir}: run the suite first (npm ` +
        `run conformance -- --reports ${v.reports})\n`,
    );
    return 2;
  }
  const summaryFile = join(dir, SUMMARY_FILES.json);
  const summary = existsSync(summaryFile)
    ? (JSON.parse(readFileSync(summaryFile, 'utf8')) as ConformanceSummary)
    : undefined;
  try {
    const file = await buildHtmlReport({
      reportsDir: dir,
      resultsDir,
      name: `DBSI conformance: ${summary?.facts.target.name ?? 'target'}`,
      variables: summary ? reportVariables(summary) : {},
      runKey: summary?.facts.startedAt,
      verdict: summary && reportVerdict(summary),
    });
    process.stdout.write(`HTML report: ${file}\n`);
    return 0;
  } catch (e) {
    process.stderr.write(`dbsi-conformance report: ${(e as Error).message}\n`);
    return 3;
  }
}

main().then((code) => process.exit(code));
