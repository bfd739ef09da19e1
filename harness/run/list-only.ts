import type { TargetConfig } from '../config';
import type { CliOptions } from './args';
import type { Io } from './common';
import { EXIT } from './exit-codes';

/** --list: the selected tests with their requirement ids; the configuration is checked when one is given. */
export async function listOnly(
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
