import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TargetConfig } from '../config';
import type { CaseReport } from '../model';
import type { Redactor } from '../redact';
import type { SetupFinding } from '../setup/diagnosis';
import { diagnosisBlock } from '../setup/diagnosis';
import { writeContractCoverage } from '../contract-coverage/write';
import { stateCoverageLine, type StateCoverage } from '../contract-coverage/states';
import { contractFigure } from '../evidence/summary-coverage';
import { explorationLine } from '../explore-settings';
import { writeEvidence, type EvidenceOptions } from '../evidence/evidence';
import type { SigningKey } from '../evidence/attestation';
import { junitXml } from '../evidence/junit';
import { buildSummary, summaryMarkdown, type ConformanceSummary, type RunFacts } from '../evidence/summary';
import type { Io } from './common';
import { compareRuns, comparisonLines, configFingerprint, type Comparison, type PreviousRun } from './compare';
import { paintVerdict } from './colour';
import { consoleSummary } from './console';
import { fullyCovered, headline, type Coverage } from './coverage';
import { declaredDeviations, deviationHeadline, markDeviations } from './deviations';
import { EXIT } from './exit-codes';
import { leftoversBlock, openLeftovers, setToConfigured } from './leftovers';
import { exitCodeFor, nothingVerified, nothingVerifiedWhy, requirementRows, type RequirementRow } from './results';
import { casesForTerminal, terminalLine, terminalText } from './terminal-text';
import { unremovableBlock, unremovableRecords, type UnremovableRecord } from './unremovable';
import {
  applyWaivers,
  waivedHeadline,
  waiverBlock,
  waiverExitCode,
  type WaiverFile,
  type WaiverReport,
} from './waivers';

/**
 * One way to finish a run, whichever source judged it (issue 22): an active run (active-run.ts) and recorded
 * traffic (harness/traffic/run.ts) hand over their graded tests; this step applies the waivers, gives
 * each requirement its verdict, chooses the exit code (5 when a selected area has no verdict), and
 * writes every report and the console's closing lines the same way for both.
 */
export interface RunToFinish {
  /** The tests with their final verdicts (an active run's re-graded by the setup proofs). */
  cases: CaseReport[];
  /** Per requirement, the tests that declare it. */
  declared: Map<string, string[]>;
  /** Which selected areas have a verdict, from the tests left after the waivers. */
  coverageOf(cases: CaseReport[]): Coverage;
  /** A source's reading of the rows: a capture says "not observed" where a run says "no test". */
  readRows?(rows: RequirementRow[]): RequirementRow[];
  /** What the setup kept from a verdict (active runs: harness/setup/diagnosis.ts). */
  diagnose?(cases: CaseReport[]): SetupFinding[];
  facts: Omit<RunFacts, 'exitCode' | 'verdict' | 'durationMs' | 'problems'>;
  startedAt: Date;
  problems: string[];
  interrupted?: boolean;
  waivers?: { file: WaiverFile; now: Date };
  previous?: PreviousRun;
  /** The target's configuration: its declared deviations, and (an active run) the testData the suite sent. */
  config?: Pick<TargetConfig, 'paths'> & Partial<TargetConfig>;
  /** A source's own section of the summary (a capture's exchanges). */
  summaryExtra?: Record<string, unknown>;
  /** A source's own lines above the verdict line. */
  consoleExtra?(rows: RequirementRow[]): string[];
  /**
   * What the verdict is about, after its word in the headline, the verdict line, the Markdown title and the HTML
   * banner (a capture: "in what the traffic shows (40 of 70 requirements observed)"), from the final rows.
   */
  verdictScope?(rows: RequirementRow[]): string;
  /** The verdict line after "Verdict: <headline> (exit N) — ". */
  verdictTail(durationMs: number, cases: CaseReport[]): string;
  /** The contract-coverage measurement's source. */
  contractSource?: 'traffic';
  /** Which transitions of the state the log took and read back (harness/state/coverage/). */
  stateCoverage?: StateCoverage;
  /** Writes the Allure results of the final verdicts. */
  writeAllure(cases: CaseReport[]): Promise<void>;
  /** Settles when the previous run's Allure results are removed. */
  previousResultsRemoved?: Promise<unknown>;
  out: {
    dir: string;
    shownDir: string;
    junitName: string;
    html: boolean;
    bundle: boolean;
    secrets: EvidenceOptions['secrets'];
    /** --sign: the key that signs the bundle's attestation. */
    sign?: SigningKey;
  };
  strict: boolean;
  io: Io;
  redactor: Redactor;
}

/** The verdict word of an exit code (the summary's and the headline's). */
function verdictOf(
  exitCode: number,
  r: RunToFinish,
  cases: CaseReport[],
  waivers: WaiverReport | undefined,
): RunFacts['verdict'] {
  if (r.interrupted) return 'interrupted';
  if (exitCode === EXIT.CONFORMANT) return 'conformant';
  if (exitCode === EXIT.PARTLY_TESTED) return 'conformant in the areas tested';
  // Under --strict a waiver no longer needed fails the run (exit 1): where no test failed, that is the finding.
  const unneeded = waivers?.waivers.some((w) => w.state === 'no-longer-needed');
  if (exitCode === 1 && unneeded && !cases.some((c) => c.outcome === 'failed')) return 'waiver no longer needed';
  if (exitCode === 1) return 'non-conformant';
  const noVerdict = cases.some((c) => c.outcome === 'could-not-test' || c.outcome === 'error');
  if (r.problems.length === 0 && openLeftovers(cases).length > 0 && !noVerdict) return 'left changes on the target';
  return 'could not test';
}

/** A run's tests judged: the verdicts after the waivers, the exit code and what the summary says of them. */
interface Judged {
  cases: CaseReport[];
  rows: RequirementRow[];
  facts: RunFacts;
  exitCode: number;
  durationMs: number;
  coverage: Coverage;
  waivers?: WaiverReport;
  diagnosis: SetupFinding[];
  unremovable: UnremovableRecord[];
  comparison?: Comparison;
}

/** What the summaries hold that the console's closing lines show too. */
interface Written {
  summary: ConformanceSummary & Record<string, unknown>;
  contractLine: string;
  explored?: CaseReport['explored'];
}

/** Finish a run: the verdicts, the exit code, the reports and the console's closing lines. Returns the exit code. */
export async function finishRun(r: RunToFinish): Promise<number> {
  const j = judgeRun(r);
  const written = writeSummaries(r, j);
  printClosing(r, j, written);
  return (await writeAllureAndEvidence(r, j.cases, written.summary)) ?? j.exitCode;
}

/** The waivers applied, the exit code chosen (5 when a selected area has no verdict), the facts and the rows. */
function judgeRun(r: RunToFinish): Judged {
  const { redactor, strict } = r;
  // Waivers apply after the re-grading: a could-not-test is never waived (harness/run/waivers.ts).
  const rows0 = requirementRows(r.cases, r.declared, strict);
  const waived = r.waivers && applyWaivers(r.cases, rows0, r.waivers.file, { strict, now: r.waivers.now });
  const cases = waived?.cases ?? r.cases;
  const diagnosis = r.interrupted ? [] : (r.diagnose?.(cases) ?? []);
  const unremovable = unremovableRecords(cases);
  const coverage = r.coverageOf(cases);
  let exitCode: number = r.interrupted
    ? EXIT.INTERRUPTED
    : cases.length === 0
      ? EXIT.COULD_NOT_TEST
      : exitCodeFor(cases, r.problems.length);
  if (exitCode === EXIT.CONFORMANT && !fullyCovered(coverage)) exitCode = EXIT.PARTLY_TESTED;
  exitCode = waiverExitCode(exitCode, waived?.report, strict);
  const durationMs = Date.now() - r.startedAt.getTime();
  const problems = r.problems.map((p) => redactor.text(p));
  const facts: RunFacts = {
    ...r.facts,
    durationMs,
    exitCode,
    verdict: verdictOf(exitCode, r, cases, waived?.report),
    problems,
    coverage,
  };
  facts.headline = headline(facts.verdict, coverage);
  Object.assign(facts, waivedHeadline(facts, waived?.report));
  const rows = describeVerdict(r, facts, waived?.rows ?? rows0);
  if (r.config?.testData && r.config.allow) facts.configSha256 = configFingerprint(r.config as TargetConfig);
  const comparison = r.previous && compareRuns(r.previous, rows, waived?.report, r.startedAt, facts);
  const judged = { cases, rows, facts, exitCode, durationMs, coverage, diagnosis, unremovable, comparison };
  return { ...judged, waivers: waived?.report };
}

/**
 * The declared deviations (paths in the configuration) in the headline, the facts and the rows they concern; the
 * source's reading of the rows and its scope in the headline. Returns the final rows.
 */
function describeVerdict(r: RunToFinish, facts: RunFacts, waivedRows: RequirementRow[]): RequirementRow[] {
  const deviations = r.config ? declaredDeviations(r.config, (s) => r.redactor.text(s)) : [];
  if (deviations.length) Object.assign(facts, { deviations, headline: deviationHeadline(facts.headline!, deviations) });
  const rows = markDeviations(r.readRows ? r.readRows(waivedRows) : waivedRows, deviations);
  const scope = r.verdictScope?.(rows);
  if (scope) {
    const h = facts.headline!;
    // After the verdict and its own parenthesis ("conformant in the areas tested (2 of 4)"), before "; …".
    const at = h.includes('; ') ? h.indexOf('; ') : h.length;
    Object.assign(facts, { scope, headline: `${h.slice(0, at)} ${scope}${h.slice(at)}` });
  }
  return rows;
}

/** The summaries (JSON, Markdown), JUnit and the contract coverage, written to the reports folder. */
function writeSummaries(r: RunToFinish, j: Judged): Written {
  const { cases, rows, facts } = j;
  // Contract coverage (issue 23) of the selected areas: reports/contract-coverage.md and .json; its figure goes into
  // the summary (with a link to the table), its line above the verdict.
  const contract = writeContractCoverage(r.out.dir, cases, {
    ...(r.contractSource ? { source: r.contractSource } : { testData: r.config?.testData }),
    areas: r.facts.areas,
    ...(r.stateCoverage ? { states: r.stateCoverage } : {}),
  });
  const contractCoverage = contractFigure(contract.report, contract.line);
  const explored = cases.find((c) => c.explored)?.explored;
  const summary = {
    ...buildSummary(facts, cases, rows, {
      diagnosis: j.diagnosis,
      unremovable: j.unremovable,
      waivers: j.waivers,
      comparison: j.comparison,
      contractCoverage,
    }),
    ...(explored ? { exploration: explored } : {}),
    ...r.summaryExtra,
  };
  writeFileSync(join(r.out.dir, 'conformance-summary.json'), JSON.stringify(summary, null, 2) + '\n');
  writeFileSync(join(r.out.dir, 'conformance-summary.md'), summaryMarkdown(summary));
  writeFileSync(join(r.out.dir, 'junit.xml'), junitXml(cases, r.out.junitName, j.unremovable, j.coverage.notTested));
  return { summary, contractLine: contract.line, explored };
}

/** The console's closing lines, the verdict line last but the reports' names. */
function printClosing(r: RunToFinish, j: Judged, w: Written): void {
  const { io, redactor, strict } = r;
  const { cases, exitCode } = j;
  const block = (lines: string[]) => lines.length && io.out(redactor.text([...lines, ''].join('\n')));
  io.out('');
  // The waived deviations first: accepted by agreement, never passes.
  block(waiverBlock(j.waivers, strict).map(terminalLine));
  io.out(redactor.text(consoleSummary(casesForTerminal(cases), j.facts.problems.map(terminalLine))));
  io.out('');
  if (!r.interrupted && nothingVerified(cases))
    io.out(`Nothing was verified ` + `(${nothingVerifiedWhy(cases)}), so there is no verdict.`);
  // Never silent: what the run could not put back, with the values to restore by hand.
  block(leftoversBlock(openLeftovers(cases), setToConfigured(cases)));
  block(unremovableBlock(j.unremovable));
  for (const l of r.consoleExtra?.(j.rows) ?? []) io.out(l);
  // What the setup kept from a verdict, and which key or variable to check: closes the output, above the verdict.
  const diagnosed = diagnosisBlock(j.diagnosis);
  if (diagnosed.length) io.out(terminalText(redactor.text([...diagnosed, ''].join('\n'))));
  if (j.comparison) io.out(terminalText(redactor.text([...comparisonLines(j.comparison), ''].join('\n'))));
  if (w.explored) io.out(explorationLine(w.explored));
  const states = r.stateCoverage && stateCoverageLine(r.stateCoverage);
  if (states) io.out(states);
  io.out(w.contractLine);
  const verdictLine = terminalText(
    `Verdict: ${j.facts.headline} (exit ${exitCode}) — ${r.verdictTail(j.durationMs, cases)}`,
  );
  // Coloured on a terminal only (harness/run/colour.ts); the raw write keeps the colour's escape codes.
  if (io.colour && io.write) io.write(paintVerdict(verdictLine, exitCode, true) + '\n');
  else io.out(verdictLine);
  const shown = r.out.shownDir;
  io.out(
    `Reports: ${join(shown, 'conformance-summary.md')}, ${join(shown, 'conformance-summary.json')}, ` +
      `${join(shown, 'junit.xml')}, ${join(shown, 'allure-results')}/`,
  );
}

/** The Allure results, then --html, --bundle and --sign; an exit code of their own when one of them failed. */
async function writeAllureAndEvidence(
  r: RunToFinish,
  cases: CaseReport[],
  summary: Written['summary'],
): Promise<number | undefined> {
  const { io } = r;
  try {
    await r.writeAllure(cases);
  } catch (e) {
    io.err(`dbsi-conformance: ${(e as Error).message}`);
  }
  await r.previousResultsRemoved;
  const resultsDir = join(r.out.dir, 'allure-results');
  return writeEvidence({
    html: r.out.html,
    bundle: r.out.bundle,
    reportsDir: r.out.dir,
    resultsDir,
    summary,
    secrets: r.out.secrets,
    io,
    waivers: r.waivers?.file.data,
    sign: r.out.sign,
  });
}
