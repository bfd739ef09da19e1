import type { SigningKey } from '../evidence/attestation';
import { LocalFileError, prepareReportsDir, userCwd } from '../local-files';
import { DEFAULT_REPORTS, type CliOptions } from './args';
import type { Io } from './common';
import type { PreviousRun } from './compare';
import type { WaiverFile } from './waivers';

/** What a run reads from the user's files besides the target's configuration, for either source. */
export interface LocalInput {
  waiverFile?: WaiverFile;
  previous?: PreviousRun;
  signing?: SigningKey;
}

/**
 * Local input first, before anything starts or is sent: the reports folder must be usable (--list writes none).
 * A relative path is the user's, from the folder npm was run from (INIT_CWD), not the package root npm runs in.
 * Without --reports, a message names the default folder, not an option the user never gave.
 * Returns the options with the folder prepared, or undefined when it is refused (said on stderr).
 */
export function withReportsDir(opts: CliOptions, env: NodeJS.ProcessEnv, io: Io): CliOptions | undefined {
  const reportsSubject = opts.reportsGiven ? '--reports' : `the default reports folder (${DEFAULT_REPORTS}/)`;
  try {
    return { ...opts, reports: prepareReportsDir(opts.reports, reportsSubject, userCwd(env)) };
  } catch (e) {
    if (!(e instanceof LocalFileError)) throw e;
    io.err(`dbsi-conformance: ${e.message}${opts.reportsGiven ? '' : '; choose another with --reports DIR'}`);
    return undefined;
  }
}

/**
 * Waivers and the earlier run are local input too, for either source: checked before anything starts.
 * Returns undefined when one is refused (said on stderr).
 */
export async function loadLocalInput(
  opts: CliOptions,
  env: NodeJS.ProcessEnv,
  io: Io,
): Promise<LocalInput | undefined> {
  const { ConfigError } = await import('../config');
  let waiverFile: WaiverFile | undefined;
  let previous: PreviousRun | undefined;
  let signing: SigningKey | undefined;
  try {
    const waiversPath = opts.waivers ?? (env.DBSI_WAIVERS || undefined);
    if (waiversPath)
      waiverFile = (await import('./waivers')).loadWaivers(waiversPath, opts.waivers ? '--waivers' : 'DBSI_WAIVERS');
    if (opts.compare) previous = (await import('./compare')).loadPrevious(opts.compare);
    if (opts.sign) signing = (await import('../evidence/signing-key')).loadSigningKey(opts.sign, env, userCwd(env));
  } catch (e) {
    io.err(`dbsi-conformance: ${e instanceof ConfigError ? 'configuration error: ' : ''}${(e as Error).message}`);
    return undefined;
  }
  return { waiverFile, previous, signing };
}
