// --version, --help, --list and a refused configuration pay only for what they use: the configuration's Ajv, the
// suites, the reference target, Allure and the runner are imported where they are needed (dynamic imports here and in
// list-only.ts, local-input.ts and active-target.ts; the run's own files once the target is accepted).
import { userCwd } from '../local-files';
import { SPEC_FILE } from '../spec-location';
import { parseCli, USAGE, type CliOptions } from './args';
import { EXIT } from './exit-codes';
import { colourWanted } from './colour';
import { terminalSafe } from './terminal-text';
import { CATEGORIES, ROOT, suiteVersion, type Io } from './common';
import { listOnly } from './list-only';
import { loadLocalInput, withReportsDir } from './local-input';
import { guardSignals, SAME_CTRL_C_MS } from './signal-guard';

export { CATEGORIES, ROOT, suiteVersion, type Io };
export { guardSignals, SAME_CTRL_C_MS };

export { SPEC_FILE };

const stdio: Io = {
  out: (l) => process.stdout.write(l + '\n'),
  err: (l) => process.stderr.write(l + '\n'),
  write: (t) => process.stdout.write(t),
  tty: !!process.stdout.isTTY,
};

/**
 * The command (bin/conformance.ts): its options, --help and --version, a fleet, --list, the local input, then the
 * source: recorded traffic (harness/traffic/run.ts) or an active run (harness/run/active-target.ts). Returns the
 * exit code.
 */
export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  terminal: Io = stdio,
): Promise<number> {
  // Every line printed passes the terminal filter: text from the configuration or the target cannot fake the suite's
  // output.
  const io = terminalSafe({ ...terminal, colour: terminal.colour ?? colourWanted(terminal.tty, env) });
  let opts: CliOptions | undefined;
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

  const configPath = opts.config ?? env.DBSI_CONFIG;
  // --list sends nothing: no reference target is started (a configured target's switches are shown).
  if (opts.list) return listOnly(opts, configPath, env, io);
  opts = withReportsDir(opts, env, io);
  if (!opts) return EXIT.USAGE;
  const local = await loadLocalInput(opts, env, io);
  if (!local) return EXIT.USAGE;
  if (opts.traffic !== undefined) return (await import('../traffic/run')).judgeTraffic(opts, env, io, local);
  return (await import('./active-target')).runActive(opts, configPath, env, io, local);
}
