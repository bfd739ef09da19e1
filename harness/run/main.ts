import { createHash, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TestModule } from 'vitest/node';
// Loaded when the run starts (about a second): bad input is answered before that.
import type { startVitest } from 'vitest/node';
// --version, --help, --list and a refused configuration pay only for what they use: the configuration's
// Ajv, the suites, the reference target, Allure and the runner are imported where they are needed.
import type { TargetConfig } from '../config';
import { LocalFileError, prepareReportsDir, userCwd } from '../local-files';
import type { RunSettings } from '../case';
import { exploreBudget } from '../explore-settings';
import type { CaseReport } from '../model';
import { SPEC_FILE } from '../spec-location';
import type { ReferenceTarget } from '../../reference-target/server';
import { DEFAULT_REPORTS, parseCli, USAGE, UsageError, type CliOptions } from './args';
import type { Progress } from './progress';
import { EXIT } from './exit-codes';
import { colourWanted } from './colour';
import { terminalSafe } from './terminal-text';
import type { WaiverFile } from './waivers';
import type { PreviousRun } from './compare';
import type { SigningKey } from '../evidence/attestation';
import { CATEGORIES, ROOT, suiteVersion, type Io } from './common';
import { runnerFile } from './runner-file';
import { addRunLogTests } from './run-log-tests';

export { CATEGORIES, ROOT, suiteVersion, type Io };

export { SPEC_FILE };
/** Signals this close to the first are the same Ctrl-C, delivered more than once. */
export const SAME_CTRL_C_MS = 1_000;

/** vitest's maxConcurrency above concurrency 1: more than a run has tests, so none waits to start. */
const MAX_TESTS_AT_ONCE = 10_000;

const stdio: Io = {
  out: (l) => process.stdout.write(l + '\n'),
  err: (l) => process.stderr.write(l + '\n'),
  write: (t) => process.stdout.write(t),
  tty: !!process.stdout.isTTY,
};

class Collector {
  cases: CaseReport[] = [];
  fromRunLog: CaseReport[] = [];
  problems: string[] = [];
  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<{ message?: string }>) {
    for (const m of modules) {
      this.fromRunLog.push(...(m.meta().dbsiRunLog ?? []));
      for (const t of m.children.allTests()) {
        const report = t.meta().dbsi;
        if (report) this.cases.push(report);
        else if (t.result().state === 'failed')
          this.problems.push(`suite error in "${t.fullName}": ` + `${t.result().errors?.[0]?.message ?? 'unknown'}`);
      }
      for (const e of m.errors()) this.problems.push(`suite error in ${m.moduleId.replace(ROOT, '')}: ${e.message}`);
    }
    for (const e of errors) this.problems.push(`suite error: ${e.message ?? String(e)}`);
  }
}

export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  terminal: Io = stdio,
): Promise<number> {
  // Every line printed passes the terminal filter: text from the configuration or the target cannot fake the suite's
  // output.
  const io = terminalSafe({ ...terminal, colour: terminal.colour ?? colourWanted(terminal.tty, env) });
  let opts: CliOptions;
  try {
    opts = parseCli(argv);
  } catch (e) {
    io.err(`dbsi-conformance: ${(e as Error).message}\n\n${USAGE}`);
    return EXIT.USAGE;
  }
  if (opts.help) {
    io.out(USAGE);
    return EXIT.CONFORMANT;
  }
  if (opts.version) {
    io.out(`dbsi-conformance ${suiteVersion()}`);
    return EXIT.CONFORMANT;
  }

  // Several configurations (--config repeated, or a folder): a fleet, each target in a process of its own.
  const fleet = await import('./fleet');
  if (fleet.isFleet(opts.configs, userCwd(env))) return fleet.runFleet(argv, opts, env, io);

  let config: TargetConfig;
  let reference: ReferenceTarget | undefined;
  let credentialsMissing: string[] = [];
  let waiverFile: WaiverFile | undefined;
  let previous: PreviousRun | undefined;
  let signing: SigningKey | undefined;
  const configPath = opts.config ?? env.DBSI_CONFIG;
  // --list sends nothing: no reference target is started (a configured target's switches are shown).
  if (opts.list) return listOnly(opts, configPath, env, io);

  // Local input first, before anything starts or is sent: the reports folder must be usable (--list writes none).
  // A relative path is the user's, from the folder npm was run from (INIT_CWD), not the package root npm runs in.
  // Without --reports, a message names the default folder, not an option the user never gave.
  const reportsSubject = opts.reportsGiven ? '--reports' : `the default reports folder (${DEFAULT_REPORTS}/)`;
  try {
    opts = { ...opts, reports: prepareReportsDir(opts.reports, reportsSubject, userCwd(env)) };
  } catch (e) {
    if (!(e instanceof LocalFileError)) throw e;
    io.err(`dbsi-conformance: ${e.message}${opts.reportsGiven ? '' : '; choose another with --reports DIR'}`);
    return EXIT.USAGE;
  }
  const { checkAreaNeeds, ConfigError, configWarnings, loadConfigFile } = await import('../config');
  const { namedSecrets, scannedSecrets, secretValues } = await import('../config');
  try {
    // Waivers and the earlier run are local input too, for either source: checked before anything starts.
    const waiversPath = opts.waivers ?? (env.DBSI_WAIVERS || undefined);
    if (waiversPath)
      waiverFile = (await import('./waivers')).loadWaivers(waiversPath, opts.waivers ? '--waivers' : 'DBSI_WAIVERS');
    if (opts.compare) previous = (await import('./compare')).loadPrevious(opts.compare);
    if (opts.sign) signing = (await import('../evidence/signing-key')).loadSigningKey(opts.sign, env, userCwd(env));
  } catch (e) {
    io.err(`dbsi-conformance: ${e instanceof ConfigError ? 'configuration error: ' : ''}${(e as Error).message}`);
    return EXIT.USAGE;
  }
  if (opts.traffic !== undefined)
    return (await import('../traffic/run')).judgeTraffic(opts, env, io, { waiverFile, previous, signing });

  try {
    if (configPath) {
      if (opts.faults.length || opts.latencyMs !== undefined || opts.throttlePerSecond !== undefined) {
        const only = '--fault, --latency and --throttle apply to the embedded reference target only';
        throw new UsageError(`${only}, not to a configured target`);
      }
      config = loadConfigFile(configPath, env, opts.config ? '--config' : 'DBSI_CONFIG');
      const { secretInSuiteText, suiteText } = await import('./run-parts');
      const clash = secretInSuiteText(namedSecrets(config, env), suiteText(SPEC_FILE));
      if (clash)
        throw new ConfigError(
          `${clash.name} is a word the reports hold anyway (it occurs in the spec, the requirement catalog or ` +
            `a test title), so they could never be proven free of it; use the real credential`,
        );
    } else {
      const { referenceConfig, startReferenceTarget } = await import('./run-parts');
      const { faults, latencyMs, throttlePerSecond } = opts;
      reference = await startReferenceTarget({ faults, latencyMs, throttlePerSecond });
      config = referenceConfig(reference);
    }
    if (opts.concurrency !== undefined) config = { ...config, http: { ...config.http, concurrency: opts.concurrency } };
    // --dry-run sends nothing to the target: it plans without the credentials a run would need.
    credentialsMissing = checkAreaNeeds(config, opts.areas, { credentials: !opts.dryRun });
  } catch (e) {
    await reference?.close();
    const msg = (e as Error).message;
    io.err(`dbsi-conformance: ${e instanceof ConfigError ? 'configuration error: ' : ''}${msg}`);
    return EXIT.USAGE;
  }
  // --dry-run sends nothing to the target: the plan is made against a reference target of its own.
  if (opts.dryRun) {
    await reference?.close();
    for (const m of credentialsMissing) io.err(`dbsi-conformance: --dry-run: planned without ${m}; a run needs it`);
    return (await import('./dry-run')).dryRun(
      {
        areas: opts.areas,
        filter: { grep: opts.grep, tags: opts.tags, excludeGrep: opts.excludeGrep, excludeTags: opts.excludeTags },
        seed: opts.seed,
        reports: opts.reports,
        explore: exploreBudget(opts, reference !== undefined),
      },
      reference ? undefined : config,
      io,
    );
  }

  const parts = await import('./run-parts');
  const { AllureReporter, caseId, reportWithoutRun, cleanupDeadlineMs, clearResults, FEATURES_BY_AREA } = parts;
  const { Redactor, specUrl, plural, coverageOf, Progress, selects, finishRun } = parts;
  const { terminalLine, openCancelChannel, newRunKey, SetupProof, regradeCase, setupFindings } = parts;
  const { preflight, reviseResult, removePreviousOutputs, writeAllureResults, waiveCase } = parts;
  const redactor = new Redactor(secretValues(config));
  // The target as the reports and the console show it: a secret in its name or URL paths is redacted there too.
  const shown = {
    name: redactor.text(config.name),
    baseUrl: redactor.text(config.baseUrl),
    authBaseUrl: redactor.text(config.authBaseUrl),
    transfersBaseUrl: redactor.text(config.transfersBaseUrl),
  };
  const seed = opts.seed ?? randomInt(0, 2 ** 31);
  const runId = `r${seed.toString(36).slice(-4)}`;
  const reportsDir = resolve(opts.reports);
  const resultsDir = join(reportsDir, 'allure-results');
  const previousResultsRemoved = clearResults(resultsDir);
  // A reports folder never mixes runs: the summary, JUnit, HTML report and bundles of an earlier run go first.
  removePreviousOutputs(reportsDir);
  const startedAt = new Date();
  const specText = readFileSync(SPEC_FILE);
  const settings: RunSettings = { config, seed, strict: opts.strict, runId, specUrl: specUrl(env) };
  settings.explore = exploreBudget(opts, reference !== undefined);
  const filter = { grep: opts.grep, tags: opts.tags, excludeGrep: opts.excludeGrep, excludeTags: opts.excludeTags };
  if (!opts.areas.some((a) => FEATURES_BY_AREA[a].some((f) => f.cases.some((c) => selects(filter, f, c))))) {
    await reference?.close();
    const selection = [
      `areas ${opts.areas.join(', ')}`,
      ...(opts.grep ? [`--grep ${opts.grep}`] : []),
      ...(opts.tags.length ? [`--tag ${opts.tags.join(' ')}`] : []),
      ...(opts.excludeGrep ? [`--exclude-grep ${opts.excludeGrep}`] : []),
      ...(opts.excludeTags.length ? [`--exclude-tag ${opts.excludeTags.join(' ')}`] : []),
    ];
    io.err(`dbsi-conformance: no test matches the selection (${selection.join(', ')}): nothing to run`);
    return EXIT.USAGE;
  }

  if (!opts.quiet) {
    const target = reference ? 'embedded reference target' : terminalLine(shown.name);
    const faults = opts.faults.length ? ` with fault(s) ${opts.faults.join(', ')}` : '';
    io.out(`dbsi-conformance ${suiteVersion()}: ${target}${faults}`);
    io.out(`  base URLs: ${shown.baseUrl}  ${shown.authBaseUrl}  ${shown.transfersBaseUrl}`);
    io.out(`  areas: ${opts.areas.join(', ')}   seed: ${seed}   strict: ${opts.strict}`);
  }
  // Never silent, not even with --quiet: on stderr.
  for (const w of configWarnings(config)) io.err(`dbsi-conformance: WARNING: ${w}`);
  // How the cases hear of a Ctrl-C (harness/run/cancel-channel.ts).
  const runKey = newRunKey();
  const cancelChannel = openCancelChannel(runKey);

  const collector = new Collector();
  let interrupted = false;
  let vitest: Awaited<ReturnType<typeof startVitest>> | undefined;
  // A first SIGINT/SIGTERM cancels the run: running cases abort their requests (test context
  // signal), run their clean-ups, and the reports are written with every selected test given a
  // verdict. One Ctrl-C can arrive several times within milliseconds (the terminal signals the
  // whole process group, npm forwards it, and tsx sends it again when the child does not
  // acknowledge it within 30 ms): signals within SAME_CTRL_C_MS of the first are that one Ctrl-C.
  // A second, deliberate one later leaves at once.
  const onSignal = (sig: string) => {
    if (interrupted) {
      if (Date.now() - interruptedAt < SAME_CTRL_C_MS) return;
      io.err(`dbsi-conformance: second ${sig}: leaving now, without clean-ups or reports`);
      process.exit(EXIT.INTERRUPTED);
    }
    interrupted = true;
    interruptedAt = Date.now();
    io.err(`dbsi-conformance: ${sig} received: stopping, cleaning up and writing what ran`);
    void vitest?.cancelCurrentRun('keyboard-input');
    cancelChannel.cancel();
    if (!testsStarted) return stopWaiting(); // the runner is still starting: nothing ran, nothing to wait for
    // Running cases abort their requests and run their clean-ups (each case's within the clean-up
    // deadline, harness/http/cleanup-retry.ts); the reports do not wait longer than that.
    setTimeout(stopWaiting, cleanupDeadlineMs(config.http.timeoutMs) + 2_000).unref();
  };
  let interruptedAt = 0;
  let testsStarted = false;
  let stopWaiting!: () => void;
  const interruptGate = new Promise<void>((resolve) => (stopWaiting = resolve));
  // startVitest only returns when the run is over: the runner is taken as soon as it exists.
  // Vitest's logger also listens for SIGINT/SIGTERM and exits at once (no reports): only ours stay,
  // until the reports are written. Its registrations are dropped (made while the runner is created,
  // which goes on after an early interruption, while the reports are written), and any made before
  // are removed (ownSignals): a Ctrl-C the launcher sends twice must not end the run before its reports.
  const ownSignals = () => {
    for (const [sig, mine] of [
      ['SIGINT', sigint],
      ['SIGTERM', sigterm],
    ] as const) {
      for (const l of process.listeners(sig)) if (l !== mine) process.off(sig, l as never);
    }
  };
  const runnerHandle = {
    onInit(v: NonNullable<typeof vitest>) {
      vitest = v;
      ownSignals();
      if (interrupted) void v.cancelCurrentRun('keyboard-input');
    },
    onTestRunStart() {
      ownSignals();
      testsStarted = true;
      if (interrupted) void vitest?.cancelCurrentRun('keyboard-input');
    },
  };
  const sigint = () => onSignal('SIGINT');
  const sigterm = () => onSignal('SIGTERM');
  process.on('SIGINT', sigint);
  process.on('SIGTERM', sigterm);

  const environmentInfo: Record<string, string> = {
    target: reference ? 'embedded reference target' : shown.name,
    baseUrl: shown.baseUrl,
    authBaseUrl: shown.authBaseUrl,
    transfersBaseUrl: shown.transfersBaseUrl,
    seed: String(seed),
    strict: String(opts.strict),
    'suite version': suiteVersion(),
    'spec sha256': createHash('sha256').update(specText).digest('hex'),
    node: process.version,
  };
  if (opts.faults.length) environmentInfo['reference faults'] = opts.faults.join(', ');
  // Areas run side by side, sharing http.concurrency; with fewer slots than areas, fewer at once.
  // Only areas with a selected test get a worker (each worker loads the whole harness).
  const activeAreas = opts.areas.filter((a) =>
    FEATURES_BY_AREA[a].some((f) => f.cases.some((c) => selects(filter, f, c))),
  );
  // One worker runs every selected area (suites/conformance.test.ts): independent cases of all areas
  // run concurrently under one connection limit, and the harness is loaded once.
  const parallelAreas = 1;
  const testTimeout = config.http.timeoutMs * (config.http.retries + 1) * 12 + 10_000;
  // --bail N: after N failed tests the run is cancelled like an interruption (running tests abort
  // their requests and run their clean-ups); the tests that did not finish are reported as not run.
  let bailed = false;
  const onFailure = (failures: number) => {
    if (opts.bail === undefined || failures < opts.bail || bailed) return;
    bailed = true;
    io.err(
      `dbsi-conformance: --bail ${opts.bail}: ${plural(failures, 'test')} ` +
        `failed; stopping the run (clean-ups still run)`,
    );
    // Vitest's cancel reaches only the tests it believes are running (cancel-channel.ts): every case hears this
    // one, sent first so that a case stopped by either knows why.
    cancelChannel.cancel(`not run to the end, --bail ${opts.bail} stopped the run`);
    void vitest?.cancelCurrentRun('test-failure');
  };
  const selectedCount = activeAreas.reduce(
    (n, a) => n + FEATURES_BY_AREA[a].reduce((m, f) => m + f.cases.filter((c) => selects(filter, f, c)).length, 0),
    0,
  );
  // The setup proofs so far: a failure they may explain is shown as could not test, and --bail does not
  // count it (proofs only grow: a failure shown is final; the summary re-judges every test at the end).
  const proofSoFar = new SetupProof([], { embedded: !!reference });
  // A pass is shown as it came: its control may still be served later in the run.
  // …and with the waivers: a waived failure is shown as waived, and --bail does not count it.
  const waiving = { strict: opts.strict, now: startedAt };
  const waiveSoFar = (c: CaseReport) => (waiverFile ? waiveCase(c, waiverFile, waiving) : c);
  const judgeSoFar = (c: CaseReport) => (
    proofSoFar.observe(c), c.outcome === 'passed' ? c : waiveSoFar(regradeCase(c, proofSoFar))
  );
  const progress = new Progress({
    total: selectedCount,
    tty: !!io.tty,
    write: (t) => (io.write ? io.write(t) : io.out(t.replace(/\n$/, ''))),
    columns: process.stdout.columns,
    onFailure,
    judge: judgeSoFar,
  });
  // With --quiet there is no progress display, but --bail still counts the failures.
  let quietFailures = 0;
  const failureCounter = {
    onTestCaseResult: (t: Parameters<Progress['onTestCaseResult']>[0]) => {
      const c = t.meta().dbsi;
      if (c && judgeSoFar(c).outcome === 'failed') onFailure(++quietFailures);
    },
  };
  // Every origin the selected areas use refuses connections: nothing can be sent, the runner is not started.
  const unreachable = reference ? undefined : await preflight(config, activeAreas, filter, redactor);
  if (unreachable) collector.cases.push(...unreachable.cases);
  if (unreachable) io.err(`dbsi-conformance: ${unreachable.line}`);
  if (!opts.quiet) progress.start();
  const allureReporter = new AllureReporter({ resultsDir, environmentInfo, categories: CATEGORIES as never });
  const signalGuard = guardSignals(() => [sigint, sigterm]);
  try {
    try {
      // No selected test at all: the runner is not started (an empty file list would mean "every file").
      const noRunner = activeAreas.length === 0 || unreachable !== undefined;
      // The compiled build's vitest file when this process runs the build (loaded by Node, not transformed).
      const runner = runnerFile(ROOT);
      const running = noRunner
        ? Promise.resolve()
        : (await import('vitest/node'))
            .startVitest(
              'test',
              [runner.file],
              {
                root: ROOT,
                config: false,
                watch: false,
                run: true,
                include: [runner.file],
                server: { deps: { external: runner.external } },
                reporters: [
                  runnerHandle as never,
                  collector as never,
                  allureReporter,
                  (opts.quiet ? failureCounter : progress) as never,
                ],
                provide: { dbsi: { settings, filter, parallelAreas, areas: activeAreas, runKey } },
                pool: 'threads',
                maxWorkers: parallelAreas,
                fileParallelism: true,
                // Every test at once: a test waiting for a lock (a record, a customer) or for a connection slot
                // holds nothing, and a test that starts late may head the longest chain of the run (the
                // contact-info cases are registered last). The client bounds the requests in flight to
                // http.concurrency, the lock holders' requests first. At concurrency 1, one test at a time.
                maxConcurrency: config.http.concurrency === 1 ? 1 : MAX_TESTS_AT_ONCE,
                testTimeout,
                hookTimeout: testTimeout,
                passWithNoTests: true,
                silent: true,
                // Transforms are cached on disk (node_modules/.experimental-vitest-cache): a second run starts faster.
                experimental: { fsModuleCache: true },
              } as never,
              { logLevel: 'silent' },
            )
            .then((v) => v.close());
      running.catch(() => undefined);
      // An interruption stops the wait (at once if the runner had not started, else after a grace
      // period for clean-ups); the reports are then written from what has reported.
      await Promise.race([running, interruptGate]);
    } catch (e) {
      collector.problems.push(`suite error: the test runner failed: ${(e as Error).message}`);
    } finally {
      progress.stop();
      ownSignals();
      cancelChannel.close();
      await reference?.close();
    }
    return await finishActiveRun();
  } finally {
    // The reports are written: a signal may end the process as usual again.
    signalGuard.release();
    process.off('SIGINT', sigint);
    process.off('SIGTERM', sigterm);
  }

  async function finishActiveRun(): Promise<number> {
    // Cases in selected areas that never reported (a cancelled run, a file that did not load).
    const reported = new Set(collector.cases.map((c) => c.id));
    // Tests the runner never reported (stopped by the preflight, an interruption, --bail): Allure gets them too.
    const notFromRunner = new Set(unreachable?.cases.map((c) => c.id) ?? []);
    const declared = new Map<string, string[]>();
    for (const [area, features] of Object.entries(FEATURES_BY_AREA)) {
      for (const f of features) {
        for (const c of f.cases) {
          for (const r of c.requirements) declared.set(r, [...(declared.get(r) ?? []), caseId(f, c)]);
          if (!opts.areas.includes(area as never) || !selects(filter, f, c) || reported.has(caseId(f, c))) continue;
          // Every selected test gets a verdict, also one that never reported.
          const reason = interrupted
            ? 'could not test: the run was interrupted ' + 'before this test finished'
            : bailed
              ? `could not test: not run, --bail ` + `${opts.bail} stopped the run`
              : 'suite error: this test did not report (see the ' + 'problems outside the tests)';
          collector.cases.push(reportWithoutRun(f, c, interrupted || bailed ? 'could-not-test' : 'error', reason));
          notFromRunner.add(caseId(f, c));
        }
      }
    }

    addRunLogTests(collector.fromRunLog, { cases: collector.cases, declared, notFromRunner });
    // A verdict that the operator's setup may explain (a credential never served, a base URL that
    // served nothing, a refusal without its control) is no verdict on the target: could not test.
    const proof = new SetupProof(collector.cases, { embedded: !!reference });
    const judged = collector.cases.map((c) => regradeCase(c, proof)).sort((a, b) => a.id.localeCompare(b.id));
    return finishRun({
      cases: judged,
      declared,
      coverageOf: (cases) => coverageOf(cases, activeAreas),
      diagnose: (cases) => setupFindings(cases, proof),
      facts: {
        target: {
          name: reference ? 'embedded reference target' : shown.name,
          baseUrl: shown.baseUrl,
          authBaseUrl: shown.authBaseUrl,
          transfersBaseUrl: shown.transfersBaseUrl,
          embedded: !!reference,
          faults: opts.faults,
        },
        suiteVersion: suiteVersion(),
        spec: {
          file: 'spec/digital-banking-service-interface.md',
          sha256: environmentInfo['spec sha256']!,
          url: settings.specUrl,
        },
        seed,
        strict: opts.strict,
        areas: opts.areas,
        filter,
        startedAt: startedAt.toISOString(),
        node: process.version,
      },
      startedAt,
      problems: collector.problems,
      interrupted,
      ...(waiverFile ? { waivers: { file: waiverFile, now: startedAt } } : {}),
      previous,
      config,
      verdictTail: (ms, cases) => `${plural(cases.length, 'test')} in ${(ms / 1000).toFixed(1)} s, seed ${seed}`,
      async writeAllure(cases) {
        const byId = new Map(cases.map((c) => [c.id, c]));
        await allureReporter.flush((r) => reviseResult(r, byId));
        const unreported = cases.filter((c) => notFromRunner.has(c.id));
        if (unreported.length)
          await writeAllureResults(resultsDir, unreported, { settings, environmentInfo, categories: CATEGORIES });
      },
      previousResultsRemoved,
      out: {
        dir: reportsDir,
        shownDir: opts.reports,
        junitName: `dbsi-conformance ${reference ? 'embedded reference target' : shown.name}`,
        html: opts.html,
        bundle: opts.bundle,
        secrets: scannedSecrets(config, env),
        sign: signing,
      },
      strict: opts.strict,
      io,
      redactor,
    });
  }
}

/** --list: the selected tests with their requirement ids; the configuration is checked when one is given. */
async function listOnly(
  opts: CliOptions,
  configPath: string | undefined,
  env: NodeJS.ProcessEnv,
  io: Io,
): Promise<number> {
  const { ConfigError, loadConfigFile } = await import('../config');
  const { listTests } = await import('./list');
  let config: TargetConfig | undefined;
  try {
    if (configPath) config = loadConfigFile(configPath, env, opts.config ? '--config' : 'DBSI_CONFIG');
  } catch (e) {
    io.err(`dbsi-conformance: ${e instanceof ConfigError ? 'configuration error: ' : ''}${(e as Error).message}`);
    return EXIT.USAGE;
  }
  const listing = listTests(
    opts.areas,
    { grep: opts.grep, tags: opts.tags, excludeGrep: opts.excludeGrep, excludeTags: opts.excludeTags },
    config,
  );
  if (!listing.count) {
    io.err('dbsi-conformance: no test matches the selection: nothing to list');
    return EXIT.USAGE;
  }
  io.out(listing.text);
  return EXIT.CONFORMANT;
}

/**
 * While a run may still write its reports, only its own SIGINT/SIGTERM handlers (`mine()`) are registered:
 * any other registration (vitest's logger exits the process at once) is dropped. `release` restores the
 * process's methods.
 */
export function guardSignals(mine: () => Array<(...a: any[]) => void>): { release(): void } {
  const methods = ['on', 'once', 'addListener', 'prependListener', 'prependOnceListener'] as const;
  const original = Object.fromEntries(methods.map((m) => [m, process[m]])) as Pick<
    NodeJS.Process,
    (typeof methods)[number]
  >;
  for (const m of methods) {
    process[m] = function (this: NodeJS.Process, ev: string | symbol, l: (...a: any[]) => void) {
      if ((ev === 'SIGINT' || ev === 'SIGTERM') && !mine().includes(l)) return this;
      return (original[m] as (...a: unknown[]) => NodeJS.Process).call(this, ev, l);
    } as never;
  }
  return { release: () => Object.assign(process, original) };
}
