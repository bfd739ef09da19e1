import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { ConfigError, loadConfigFile, type TargetConfig } from '../config';
import { userCwd } from '../local-files';
import type { CaseReport } from '../model';
import { writeAllureResults } from '../evidence/allure-case-results';
import { clearResults } from '../evidence/allure-writer';
import type { RunFacts } from '../evidence/summary';
import type { CliOptions } from '../run/args';
import { CATEGORIES, suiteVersion, type Io } from '../run/common';
import { OPERATIONS } from '../operations';
import { SPEC_FILE } from '../spec-location';
import { EXIT } from '../run/results';
import { finishRun } from '../run/finish';
import type { WaiverFile } from '../run/waivers';
import type { PreviousRun } from '../run/compare';
import { specUrl } from '../spec-location';
import { HarError, readHar, type HarLog } from './har';
import { judgeHar, trafficCoverage, type HarJudgement } from './judge-har';
import { ignoredText, notObservedRows, trafficConsoleLines, trafficScope, trafficSection } from './traffic-report';
import type { SigningKey } from '../evidence/attestation';

export { judgeHar, trafficCoverage, type HarJudgement };

/** What the user's files give the recorded source besides the capture and its configuration. */
type LocalInput = { waiverFile?: WaiverFile; previous?: PreviousRun; signing?: SigningKey };

/**
 * npm run conformance -- --traffic FILE.har [--config FILE]: judge recorded traffic with the
 * catalog, the checks and the grading of an active run, and write the same reports. Nothing is
 * sent to the target.
 * Exit codes as for an active run: 0 conformant in what the traffic shows, 1 a MUST broken, 2 an
 * unreadable file or configuration, 3 nothing judgeable, 5 conformant in what it shows but a
 * selected area not observed.
 */
export async function judgeTraffic(
  opts: CliOptions,
  env: NodeJS.ProcessEnv,
  io: Io,
  local: LocalInput = {},
): Promise<number> {
  const startedAt = new Date();
  const file = opts.traffic!;
  const input = readInput(opts, env, io, file);
  if (!input) return EXIT.USAGE;
  const { log, config } = input;
  const j = await judgeHar(log, config, { file, strict: opts.strict, specUrl: specUrl(env) });
  const ignored = ignoredText(j.ignored);
  if (j.mapped.length === 0) {
    io.err(
      `dbsi-conformance: nothing judgeable in ${file}: none of its ${j.observed.length} entries is an ` +
        `exchange of a documented operation${ignored ? ` (${ignored})` : ''}. Base URLs: ` +
        `${j.baseNotes.join('; ')}`,
    );
    return EXIT.COULD_NOT_TEST;
  }
  if (!opts.quiet) announce(io, file, j, ignored);
  return finishTraffic({ opts, io, local, file, unreadable: log.unreadable, config, j, startedAt });
}

/** The configuration (when one is given) and the capture; undefined when either is refused (said on stderr). */
function readInput(
  opts: CliOptions,
  env: NodeJS.ProcessEnv,
  io: Io,
  file: string,
): { log: { log: HarLog; unreadable: number }; config?: TargetConfig } | undefined {
  let config: TargetConfig | undefined;
  try {
    const configPath = opts.config ?? env.DBSI_CONFIG;
    if (configPath) config = loadConfigFile(configPath, env, opts.config ? '--config' : 'DBSI_CONFIG');
    // A relative path is the user's, from the folder npm was run from (INIT_CWD), not the package root.
    return { log: readHar(resolve(userCwd(env), file)), config };
  } catch (e) {
    if (e instanceof HarError || e instanceof ConfigError) {
      io.err(`dbsi-conformance: ${e instanceof ConfigError ? 'configuration error: ' : ''}${e.message}`);
      return undefined;
    }
    throw e;
  }
}

/** The banner: the capture, what of it was judged, how the base URLs were found. */
function announce(io: Io, file: string, j: HarJudgement, ignored: string): void {
  io.out(`dbsi-conformance ${suiteVersion()}: judging recorded traffic ${file} (nothing is sent)`);
  io.out(
    `  ${j.observed.length} entries: ${j.mapped.length} exchanges of documented ` +
      `operations${ignored ? `; ignored: ${ignored}` : ''}`,
  );
  for (const n of j.baseNotes) io.out(`  base URL ${j.redactor.text(n)}`);
  if (!j.areasWithAuth.size)
    io.out(
      '  the capture carries no Authorization header (a sanitized ' +
        'export?): requests without credentials are not judged',
    );
}

/** A judged capture, ready for the one finish. */
interface JudgedCapture {
  opts: CliOptions;
  io: Io;
  local: LocalInput;
  file: string;
  /** Entries of the file that are no HAR entry. */
  unreadable: number;
  config?: TargetConfig;
  j: HarJudgement;
  startedAt: Date;
}

/**
 * One way to finish, as an active run (harness/run/finish.ts): conformant in what was observed, but a
 * selected area (every area, or those of --area) the traffic shows no rule of is exit 5, partly tested.
 */
function finishTraffic(c: JudgedCapture): Promise<number> {
  const { opts, io, local, file, config, j, startedAt } = c;
  const { mapped, secrets, redactor, settings, cases, lines } = j;
  const exchanged = new Set(mapped.map(({ m }) => OPERATIONS[m.operation].area));
  const reportsDir = resolve(opts.reports);
  const resultsDir = join(reportsDir, 'allure-results');
  const environmentInfo = environmentOf(c);
  return finishRun({
    cases,
    declared: declaredOf(cases),
    coverageOf: (judged) => trafficCoverage(judged, opts.areas, exchanged),
    readRows: notObservedRows(mapped),
    facts: trafficFacts(c, environmentInfo['spec sha256']!),
    startedAt,
    problems: [],
    ...(local.waiverFile ? { waivers: { file: local.waiverFile, now: startedAt } } : {}),
    previous: local.previous,
    config,
    summaryExtra: { traffic: trafficSection(file, c.unreadable, j) },
    consoleExtra: (rows) => trafficConsoleLines(lines, redactor, rows),
    verdictScope: trafficScope,
    verdictTail: (ms, judged) =>
      `${mapped.length} exchanges judged, ${judged.length} with a ` + `verdict, in ${(ms / 1000).toFixed(1)} s`,
    contractSource: 'traffic',
    ...(j.states ? { stateCoverage: j.states } : {}),
    writeAllure: (judged) =>
      writeAllureResults(resultsDir, judged, { settings, environmentInfo, categories: CATEGORIES }),
    previousResultsRemoved: clearResults(resultsDir),
    out: {
      dir: reportsDir,
      shownDir: opts.reports,
      junitName: `dbsi-conformance recorded traffic ` + `${basename(file)}`,
      html: opts.html,
      bundle: opts.bundle,
      secrets,
      sign: local.signing,
    },
    strict: opts.strict,
    io,
    redactor,
  });
}

/** Per requirement, the tests that declare it. */
function declaredOf(cases: CaseReport[]): Map<string, string[]> {
  const declared = new Map<string, string[]>();
  for (const c of cases) for (const r of c.requirements) declared.set(r, [...(declared.get(r) ?? []), c.id]);
  return declared;
}

/** Allure's environment: the capture, the base URLs, the suite and spec versions. */
function environmentOf(c: JudgedCapture): Record<string, string> {
  const effective = c.j.settings.config;
  return {
    source: `recorded traffic ${basename(c.file)}`,
    baseUrl: effective.baseUrl,
    authBaseUrl: effective.authBaseUrl,
    transfersBaseUrl: effective.transfersBaseUrl,
    strict: String(c.opts.strict),
    'suite version': suiteVersion(),
    'spec sha256': createHash('sha256').update(readFileSync(SPEC_FILE)).digest('hex'),
    node: process.version,
  };
}

/** What the summary says of the capture's judgement: the target, the suite, the spec and the selection. */
function trafficFacts(
  c: JudgedCapture,
  specSha256: string,
): Omit<RunFacts, 'exitCode' | 'verdict' | 'durationMs' | 'problems'> {
  const effective = c.j.settings.config;
  return {
    target: {
      name: c.config?.name ?? `recorded traffic (${basename(c.file)})`,
      baseUrl: effective.baseUrl,
      authBaseUrl: effective.authBaseUrl,
      transfersBaseUrl: effective.transfersBaseUrl,
      embedded: false,
      faults: [],
    },
    suiteVersion: suiteVersion(),
    spec: { file: 'spec/digital-banking-service-interface.md', sha256: specSha256, url: c.j.settings.specUrl },
    seed: 0,
    strict: c.opts.strict,
    areas: c.opts.areas,
    filter: {},
    startedAt: c.startedAt.toISOString(),
    node: process.version,
  };
}
