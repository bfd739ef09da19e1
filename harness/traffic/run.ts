import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { ConfigError, loadConfigFile, resolveConfig, secretValues, type TargetConfig } from '../config';
import { userCwd } from '../local-files';
import type { RunSettings } from '../run-settings';
import { AREAS, type Area, type CaseReport } from '../model';
import { OPERATIONS, type OperationKey } from '../operations';
import { Redactor } from '../redact';
import { writeAllureResults } from '../evidence/allure-case-results';
import { clearResults } from '../evidence/allure-writer';
import type { CliOptions } from '../run/args';
import { terminalLine } from '../run/terminal-text';
import { CATEGORIES, suiteVersion, type Io } from '../run/common';
import { SPEC_FILE } from '../spec-location';
import { EXIT, type RequirementRow } from '../run/results';
import { finishRun } from '../run/finish';
import type { WaiverFile } from '../run/waivers';
import type { PreviousRun } from '../run/compare';
import { coverageOf, type Coverage } from '../run/coverage';
import { specUrl } from '../spec-location';
import { observeAll, type Observed } from './capture';
import { HarError, readHar, type HarLog } from './har';
import { judgeCapture, seenOf, type ExchangeLine } from './judge';
import { inferBaseUrls, mapEntry, type BaseUrls, type Ignored, type Mapped } from './operation-map';
import { captureSecrets, keepsAuthorization } from './secrets';
import { exchangeLineText, type TrafficSummary } from './summary-section';
import type { SigningKey } from '../evidence/attestation';

export interface HarJudgement {
  observed: Observed[];
  mapped: Array<{ x: Observed; m: Mapped }>;
  ignored: Record<string, number>;
  baseNotes: string[];
  /** The configured secrets and every credential found in the capture. */
  secrets: string[];
  redactor: Redactor;
  settings: RunSettings;
  areasWithAuth: Set<Area>;
  cases: CaseReport[];
  lines: ExchangeLine[];
}

/**
 * Judge a read capture: map its entries to operations (by the configuration's base URLs, else by
 * those inferred from the spec's distinctive paths), find its credentials, judge every exchange.
 * When no entry maps to an operation, `mapped` is empty and nothing was judged.
 */
export async function judgeHar(
  log: { log: HarLog; unreadable: number },
  config: TargetConfig | undefined,
  o: { file: string; strict: boolean; specUrl: string },
): Promise<HarJudgement> {
  const observed = observeAll(log.log.entries);
  let bases: BaseUrls;
  let baseNotes: string[];
  if (config) {
    bases = { baseUrl: config.baseUrl, authBaseUrl: config.authBaseUrl, transfersBaseUrl: config.transfersBaseUrl };
    const contact = config.contactInfoBaseUrl;
    if (contact && contact !== config.baseUrl) bases.contactInfoBaseUrl = contact;
    baseNotes = [`from the configuration: ${config.baseUrl}, ${config.authBaseUrl}, ${config.transfersBaseUrl}`];
  } else {
    const inferred = inferBaseUrls(observed);
    bases = inferred.bases;
    baseNotes = inferred.notes.map((n) => `inferred ${n}`);
  }
  const ignored: Record<string, number> = {
    'other host': 0,
    'not an API path': 0,
    'undocumented method': 0,
    'not a URL': 0,
    'not a HAR entry': log.unreadable,
  };
  const mapped: Array<{ x: Observed; m: Mapped }> = [];
  for (const x of observed) {
    const m = mapEntry(x, bases, config?.paths);
    if ('ignored' in m) ignored[m.ignored as Ignored]!++;
    else mapped.push({ x, m });
  }
  // Every credential of the capture is a secret from here on, with the configured ones.
  const secrets = [...(config ? secretValues(config) : []), ...captureSecrets(observed)];
  const redactor = new Redactor(secrets);
  const effective =
    config ??
    resolveConfig(
      {
        name: `recorded traffic ${basename(o.file)}`,
        baseUrl: bases.baseUrl ?? 'http://127.0.0.1/',
        authBaseUrl: bases.authBaseUrl ?? 'http://127.0.0.1/',
        transfersBaseUrl: bases.transfersBaseUrl ?? 'http://127.0.0.1/',
        http: { allowInsecureHttp: true },
      },
      {},
    );
  const settings: RunSettings = { config: effective, seed: 0, strict: o.strict, runId: 'traffic', specUrl: o.specUrl };
  const areasWithAuth = new Set<Area>(
    AREAS.filter((a) =>
      keepsAuthorization(mapped.filter(({ m }) => OPERATIONS[m.operation].area === a).map(({ x }) => x)),
    ),
  );
  let cases: CaseReport[] = [];
  let lines: ExchangeLine[] = [];
  if (mapped.length) {
    ({ cases, lines } = await judgeCapture(
      seenOf(mapped, redactor, (a) => areasWithAuth.has(a)),
      {
        settings,
        redactor,
      },
    ));
  }
  return { observed, mapped, ignored, baseNotes, secrets, redactor, settings, areasWithAuth, cases, lines };
}

/**
 * Which selected areas the traffic showed a rule of the target in (a check passed or failed; the
 * client's own request, CLIENT-REQUEST-AS-DOCUMENTED, is no evidence about the target).
 */
export function trafficCoverage(cases: CaseReport[], selected: Area[], exchanged: Set<Area>): Coverage {
  const aboutTarget = (k: CaseReport['checks'][number]) =>
    k.requirement !== 'CLIENT-REQUEST-AS-DOCUMENTED' && (k.outcome === 'passed' || k.outcome === 'failed');
  const evidence = cases.filter((c) => c.checks.some(aboutTarget));
  const cov = coverageOf(evidence, selected);
  const why = (a: Area) =>
    `not observed: ${exchanged.has(a) ? 'its exchanges show no rule of the target' : 'no exchange in the capture'}`;
  return { ...cov, notTested: cov.notTested.map((n) => ({ area: n.area, reason: why(n.area) })) };
}

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
  local: { waiverFile?: WaiverFile; previous?: PreviousRun; signing?: SigningKey } = {},
): Promise<number> {
  const startedAt = new Date();
  const file = opts.traffic!;
  let log;
  let config: TargetConfig | undefined;
  try {
    const configPath = opts.config ?? env.DBSI_CONFIG;
    if (configPath) config = loadConfigFile(configPath, env, opts.config ? '--config' : 'DBSI_CONFIG');
    // A relative path is the user's, from the folder npm was run from (INIT_CWD), not the package root.
    log = readHar(resolve(userCwd(env), file));
  } catch (e) {
    if (e instanceof HarError || e instanceof ConfigError) {
      io.err(`dbsi-conformance: ${e instanceof ConfigError ? 'configuration error: ' : ''}${e.message}`);
      return EXIT.USAGE;
    }
    throw e;
  }
  const j = await judgeHar(log, config, { file, strict: opts.strict, specUrl: specUrl(env) });
  const ignoredText = Object.entries(j.ignored)
    .filter(([, n]) => n > 0)
    .map(([w, n]) => `${n} ${w}`)
    .join(', ');
  if (j.mapped.length === 0) {
    io.err(
      `dbsi-conformance: nothing judgeable in ${file}: none of its ${j.observed.length} entries is an ` +
        `exchange of a documented operation${ignoredText ? ` (${ignoredText})` : ''}. Base URLs: ` +
        `${j.baseNotes.join('; ')}`,
    );
    return EXIT.COULD_NOT_TEST;
  }
  const { observed, mapped, ignored, baseNotes, secrets, redactor, settings, cases, lines, areasWithAuth } = j;
  const effective = settings.config;
  const specText = readFileSync(SPEC_FILE);

  if (!opts.quiet) {
    io.out(`dbsi-conformance ${suiteVersion()}: judging recorded traffic ${file} (nothing is sent)`);
    io.out(
      `  ${observed.length} entries: ${mapped.length} exchanges of documented ` +
        `operations${ignoredText ? `; ignored: ${ignoredText}` : ''}`,
    );
    for (const n of baseNotes) io.out(`  base URL ${redactor.text(n)}`);
    if (!areasWithAuth.size)
      io.out(
        '  the capture carries no Authorization header (a sanitized ' +
          'export?): requests without credentials are not judged',
      );
  }

  // One row per requirement: what no exchange exercised is "not observed", never passed.
  const declared = new Map<string, string[]>();
  for (const c of cases) for (const r of c.requirements) declared.set(r, [...(declared.get(r) ?? []), c.id]);
  const seenOps = new Set<number>(mapped.map(({ m }) => OPERATIONS[m.operation].number));
  const notObserved = (rows: RequirementRow[]) =>
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

  // One way to finish, as an active run (harness/run/finish.ts): conformant in what was observed, but a
  // selected area (every area, or those of --area) the traffic shows no rule of is exit 5, partly tested.
  const exchanged = new Set(mapped.map(({ m }) => OPERATIONS[m.operation].area));
  const traffic: TrafficSummary = {
    file: basename(file),
    entries: observed.length + log.unreadable,
    judged: mapped.length,
    ignored,
    baseUrls: baseNotes.map((n) => redactor.text(n)),
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
  const reportsDir = resolve(opts.reports);
  const resultsDir = join(reportsDir, 'allure-results');
  const environmentInfo: Record<string, string> = {
    source: `recorded traffic ${basename(file)}`,
    baseUrl: effective.baseUrl,
    authBaseUrl: effective.authBaseUrl,
    transfersBaseUrl: effective.transfersBaseUrl,
    strict: String(opts.strict),
    'suite version': suiteVersion(),
    'spec sha256': createHash('sha256').update(specText).digest('hex'),
    node: process.version,
  };
  const flagged = lines.filter((l) => l.broke.length || l.warned.length);
  return finishRun({
    cases,
    declared,
    coverageOf: (judged) => trafficCoverage(judged, opts.areas, exchanged),
    readRows: notObserved,
    facts: {
      target: {
        name: config?.name ?? `recorded traffic (${basename(file)})`,
        baseUrl: effective.baseUrl,
        authBaseUrl: effective.authBaseUrl,
        transfersBaseUrl: effective.transfersBaseUrl,
        embedded: false,
        faults: [],
      },
      suiteVersion: suiteVersion(),
      spec: {
        file: 'spec/digital-banking-service-interface.md',
        sha256: environmentInfo['spec sha256']!,
        url: settings.specUrl,
      },
      seed: 0,
      strict: opts.strict,
      areas: opts.areas,
      filter: {},
      startedAt: startedAt.toISOString(),
      node: process.version,
    },
    startedAt,
    problems: [],
    ...(local.waiverFile ? { waivers: { file: local.waiverFile, now: startedAt } } : {}),
    previous: local.previous,
    config,
    summaryExtra: { traffic },
    consoleExtra(rows) {
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
    },
    verdictScope(rows) {
      const observed = rows.filter((r) => r.verdict !== 'not-observed' && r.verdict !== 'not-testable').length;
      const testable = rows.filter((r) => r.verdict !== 'not-testable').length;
      return `in what the traffic shows (${observed} of ${testable} requirements observed)`;
    },
    verdictTail: (ms, judged) =>
      `${mapped.length} exchanges judged, ${judged.length} with a ` + `verdict, in ${(ms / 1000).toFixed(1)} s`,
    contractSource: 'traffic',
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
