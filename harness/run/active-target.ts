import type { TargetConfig } from '../config';
import { exploreBudget } from '../explore-settings';
import { SPEC_FILE } from '../spec-location';
import type { ReferenceTarget } from '../../reference-target/server';
import { UsageError, type CliOptions } from './args';
import type { Io } from './common';
import { EXIT } from './exit-codes';
import type { LocalInput } from './local-input';

/** The target an active run sends to: a configured one, or the embedded reference target it started. */
export interface ActiveTarget {
  config: TargetConfig;
  reference?: ReferenceTarget;
  /** The credentials the selected areas need that the configuration lacks (--dry-run plans without them). */
  credentialsMissing: string[];
}

/**
 * The active source: its target (a configuration, or the embedded reference target), then --dry-run's plan
 * or the run (harness/run/active-run.ts). A refused configuration is said on stderr, exit 2.
 */
export async function runActive(
  opts: CliOptions,
  configPath: string | undefined,
  env: NodeJS.ProcessEnv,
  io: Io,
  local: LocalInput,
): Promise<number> {
  const target = await chooseTarget(opts, configPath, env, io);
  if (!target) return EXIT.USAGE;
  if (opts.dryRun) return planOnly(opts, target, io);
  return (await import('./active-run')).runTests(opts, env, io, local, target);
}

/** The configured target, checked, or the embedded one started; undefined when refused (said on stderr). */
async function chooseTarget(
  opts: CliOptions,
  configPath: string | undefined,
  env: NodeJS.ProcessEnv,
  io: Io,
): Promise<ActiveTarget | undefined> {
  const { checkAreaNeeds, ConfigError, loadConfigFile, namedSecrets } = await import('../config');
  let config: TargetConfig;
  let reference: ReferenceTarget | undefined;
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
    return { config, reference, credentialsMissing: checkAreaNeeds(config, opts.areas, { credentials: !opts.dryRun }) };
  } catch (e) {
    await reference?.close();
    const msg = (e as Error).message;
    io.err(`dbsi-conformance: ${e instanceof ConfigError ? 'configuration error: ' : ''}${msg}`);
    return undefined;
  }
}

/** --dry-run sends nothing to the target: the plan is made against a reference target of its own. */
async function planOnly(opts: CliOptions, target: ActiveTarget, io: Io): Promise<number> {
  const { reference, config } = target;
  await reference?.close();
  for (const m of target.credentialsMissing)
    io.err(`dbsi-conformance: --dry-run: planned without ${m}; a run needs it`);
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
