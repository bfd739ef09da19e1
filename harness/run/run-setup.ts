import { createHash, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { configWarnings, secretValues } from '../config';
import { exploreBudget } from '../explore-settings';
import type { Area } from '../model';
import type { RunSettings } from '../run-settings';
import { SPEC_FILE } from '../spec-location';
import type { ActiveTarget } from './active-target';
import type { CliOptions } from './args';
import { suiteVersion, type Io } from './common';
import type { CaseFilter } from './filter';
import type { LocalInput } from './local-input';
import { clearResults, FEATURES_BY_AREA, Redactor, removePreviousOutputs, selects } from './run-parts';
import { keepEarlierLeftovers } from './earlier-leftovers';
import { specUrl, terminalLine } from './run-parts';

/** The target as the reports and the console show it: a secret in its name or URL paths is redacted there too. */
export interface ShownTarget {
  name: string;
  baseUrl: string;
  authBaseUrl: string;
  transfersBaseUrl: string;
}

/** An active run as it starts: what it sends to, with which settings, and where its reports go. */
export interface ActiveRun {
  opts: CliOptions;
  env: NodeJS.ProcessEnv;
  io: Io;
  local: LocalInput;
  target: ActiveTarget;
  redactor: Redactor;
  shown: ShownTarget;
  seed: number;
  settings: RunSettings;
  filter: CaseFilter;
  reportsDir: string;
  resultsDir: string;
  /** Settles when the previous run's Allure results are removed. */
  previousResultsRemoved: Promise<unknown>;
  startedAt: Date;
  environmentInfo: Record<string, string>;
  /** The selected areas with a selected test (each gets a worker: each worker loads the whole harness). */
  activeAreas: Area[];
}

/**
 * The run's settings, its reports folder emptied of an earlier run's outputs. Undefined when no test matches the
 * selection (said on stderr; the embedded target is stopped).
 */
export async function prepareRun(
  opts: CliOptions,
  env: NodeJS.ProcessEnv,
  io: Io,
  local: LocalInput,
  target: ActiveTarget,
): Promise<ActiveRun | undefined> {
  const { config, reference } = target;
  const redactor = new Redactor(secretValues(config));
  const shown: ShownTarget = {
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
  // What the previous run left on this target is kept first (earlier-leftovers.ts): its summary goes next.
  for (const line of keepEarlierLeftovers(reportsDir, shown.baseUrl, reference !== undefined)) io.out(line);
  // A reports folder never mixes runs: the summary, JUnit, HTML report and bundles of an earlier run go first.
  removePreviousOutputs(reportsDir);
  const startedAt = new Date();
  const specText = readFileSync(SPEC_FILE);
  const settings: RunSettings = { config, seed, strict: opts.strict, runId, specUrl: specUrl(env) };
  settings.explore = exploreBudget(opts, reference !== undefined);
  const filter = { grep: opts.grep, tags: opts.tags, excludeGrep: opts.excludeGrep, excludeTags: opts.excludeTags };
  const selected = (a: Area) => FEATURES_BY_AREA[a].some((f) => f.cases.some((c) => selects(filter, f, c)));
  if (!opts.areas.some(selected)) {
    await reference?.close();
    io.err(`dbsi-conformance: no test matches the selection (${selectionText(opts)}): nothing to run`);
    return undefined;
  }
  const environmentInfo = environmentInfoOf(opts, target, shown, seed, specText);
  const activeAreas = opts.areas.filter(selected);
  const run = { opts, env, io, local, target, redactor, shown, seed, settings, filter, reportsDir, resultsDir };
  return { ...run, previousResultsRemoved, startedAt, environmentInfo, activeAreas };
}

/** The selection a message names: the areas and every option that narrowed them. */
function selectionText(opts: CliOptions): string {
  return [
    `areas ${opts.areas.join(', ')}`,
    ...(opts.grep ? [`--grep ${opts.grep}`] : []),
    ...(opts.tags.length ? [`--tag ${opts.tags.join(' ')}`] : []),
    ...(opts.excludeGrep ? [`--exclude-grep ${opts.excludeGrep}`] : []),
    ...(opts.excludeTags.length ? [`--exclude-tag ${opts.excludeTags.join(' ')}`] : []),
  ].join(', ');
}

/** Allure's environment: the target as shown, the seed, the suite and spec versions. */
function environmentInfoOf(
  opts: CliOptions,
  target: ActiveTarget,
  shown: ShownTarget,
  seed: number,
  specText: Buffer,
): Record<string, string> {
  const environmentInfo: Record<string, string> = {
    target: target.reference ? 'embedded reference target' : shown.name,
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
  return environmentInfo;
}

/** The banner (not with --quiet) and the configuration's warnings (never silent, not even with --quiet: on stderr). */
export function announce(run: ActiveRun): void {
  const { opts, io, shown, seed } = run;
  if (!opts.quiet) {
    const target = run.target.reference ? 'embedded reference target' : terminalLine(shown.name);
    const faults = opts.faults.length ? ` with fault(s) ${opts.faults.join(', ')}` : '';
    io.out(`dbsi-conformance ${suiteVersion()}: ${target}${faults}`);
    io.out(`  base URLs: ${shown.baseUrl}  ${shown.authBaseUrl}  ${shown.transfersBaseUrl}`);
    io.out(`  areas: ${opts.areas.join(', ')}   seed: ${seed}   strict: ${opts.strict}`);
  }
  for (const w of configWarnings(run.target.config)) io.err(`dbsi-conformance: WARNING: ${w}`);
}
