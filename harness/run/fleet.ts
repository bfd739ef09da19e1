import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { writeMatrix, FLEET_FILES, type FleetTarget } from '../evidence/fleet-matrix';
import { LocalFileError, prepareReportsDir, userCwd } from '../local-files';
import { DEFAULT_REPORTS, UsageError } from './args';
import { ROOT, type Io } from './common';
import { EXIT } from './exit-codes';
import { terminalLine } from './terminal-text';

/**
 * A fleet (issue 35): several target configurations (--config repeated, or a folder of them), each run in a
 * process of its own (the main command, launch/bin.mjs) with at most --parallel at once, its reports in a folder
 * of its own under --reports; then one matrix of requirement × target (harness/evidence/fleet-matrix.ts). The
 * exit code is the worst of the targets'.
 */

/** At most this many configurations in one fleet (a folder is read no further). */
const MAX_TARGETS = 200;
export const DEFAULT_PARALLEL = 2;

/** The configurations --config names: files as given, a folder's *.json files in name order. */
export function fleetConfigs(configs: string[], from: string): string[] {
  const files: string[] = [];
  for (const c of configs) {
    const path = resolve(from, c);
    let dir = false;
    try {
      dir = statSync(path).isDirectory();
    } catch {
      // a missing file: its own run says so (exit 2)
    }
    if (!dir) files.push(path);
    else {
      const found = readdirSync(path)
        .filter((f) => f.endsWith('.json'))
        .sort();
      if (!found.length) throw new UsageError(`--config ${c}: the folder holds no .json configuration`);
      files.push(...found.map((f) => join(path, f)));
    }
    if (files.length > MAX_TARGETS) throw new UsageError(`a fleet runs at most ${MAX_TARGETS} configurations`);
  }
  return files;
}

/** Whether the command line asks for a fleet: --config given more than once, or a folder. */
export function isFleet(configs: string[], from: string): boolean {
  if (configs.length > 1) return true;
  try {
    return configs.length === 1 && statSync(resolve(from, configs[0]!)).isDirectory();
  } catch {
    return false;
  }
}

/** A folder name per target: the configuration's file name, made unique. */
export function targetNames(files: string[]): string[] {
  const seen = new Map<string, number>();
  return files.map((f) => {
    const base =
      basename(f)
        .replace(/\.json$/i, '')
        .replace(/[^A-Za-z0-9._-]+/g, '-') || 'target';
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}-${n}`;
  });
}

/** A target's variable prefix: DBSI_<NAME>__ (its name upper-cased, anything but letters and digits as _). */
export const envPrefix = (name: string) => `DBSI_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}__`;

/**
 * A target's environment: its own credentials from DBSI_<NAME>__<VARIABLE> as DBSI_<VARIABLE> (over the shared
 * one), and no other target's prefixed variable, so that a target never receives another's secrets.
 */
export function targetEnv(name: string, names: string[], env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const prefixes = names.map(envPrefix);
  const own = envPrefix(name);
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!prefixes.some((p) => k.startsWith(p))) out[k] = v;
  for (const [k, v] of Object.entries(env))
    if (k.startsWith(own) && k.length > own.length) out[`DBSI_${k.slice(own.length)}`] = v;
  return out;
}

/** The options every target's run gets: the command line without --config, --reports, --parallel, --compare. */
export function sharedArgs(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const m = /^--(config|reports|parallel|compare)(=.*)?$/.exec(a);
    if (!m) out.push(a);
    else if (m[2] === undefined) i++;
  }
  return out;
}

function runTarget(args: string[], env: NodeJS.ProcessEnv, cwd: string, log: string) {
  return new Promise<number | null>((done) => {
    const child = spawn(process.execPath, [join(ROOT, 'launch', 'bin.mjs'), ...args], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.stderr.on('data', (d) => (text += d));
    child.on('error', (e) => {
      text += `dbsi-conformance: the run could not start: ${e.message}\n`;
    });
    child.on('close', (code) => {
      writeFileSync(log, text);
      done(code);
    });
  });
}

/** The target's closing line, as its own run printed it. */
function closingLine(log: string): string | undefined {
  const text = readFileSync(log, 'utf8');
  const lines = text.split('\n');
  return lines.find((l) => l.startsWith('Verdict: ')) ?? lines.find((l) => l.startsWith('dbsi-conformance: '));
}

export interface FleetOptions {
  configs: string[];
  reports: string;
  reportsGiven: boolean;
  parallel?: number;
  compare?: string;
}

export async function runFleet(argv: string[], o: FleetOptions, env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const from = userCwd(env);
  let files: string[];
  let dir: string;
  try {
    files = fleetConfigs(o.configs, from);
    const subject = o.reportsGiven ? '--reports' : `the default reports folder (${DEFAULT_REPORTS}/)`;
    dir = prepareReportsDir(o.reports, subject, from);
  } catch (e) {
    if (!(e instanceof UsageError || e instanceof LocalFileError)) throw e;
    io.err(`dbsi-conformance: ${e.message}`);
    return EXIT.USAGE;
  }
  const names = targetNames(files);
  const parallel = Math.min(o.parallel ?? DEFAULT_PARALLEL, files.length);
  io.out(`dbsi-conformance: a fleet of ${files.length} targets, ${parallel} at a time; reports in ${o.reports}/`);
  const shared = sharedArgs(argv);
  const childEnv = { ...env, INIT_CWD: from, DBSI_CONFIG: '' };
  const codes: Array<number | null> = new Array(files.length).fill(null);
  const started = Date.now();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < files.length; i = next++) {
      const out = join(dir, names[i]!);
      mkdirSync(out, { recursive: true });
      const previous = o.compare && join(resolve(from, o.compare), names[i]!);
      const compare = previous && existsSync(join(previous, 'conformance-summary.json')) ? ['--compare', previous] : [];
      const args = [...shared, '--config', files[i]!, '--reports', out, ...compare];
      const log = join(out, 'console.txt');
      codes[i] = await runTarget(args, targetEnv(names[i]!, names, childEnv), from, log);
      const line = closingLine(log) ?? `ended with exit ${codes[i]}`;
      io.out(terminalLine(`[${names[i]}] ${line}`));
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  const targets: FleetTarget[] = names.map((name, i) => {
    const summaryFile = join(dir, name, 'conformance-summary.json');
    return {
      name,
      dir: name,
      exitCode: codes[i]!,
      // Only a summary this run wrote: a run stopped by a usage error leaves an earlier one where it was.
      ...(existsSync(summaryFile) &&
        statSync(summaryFile).mtimeMs >= started - 1_000 && { summary: JSON.parse(readFileSync(summaryFile, 'utf8')) }),
      html: existsSync(join(dir, name, 'conformance-report.html')),
    };
  });
  const matrix = writeMatrix(dir, targets);
  io.out(`Matrix: ${join(o.reports, FLEET_FILES.md)}, ${join(o.reports, FLEET_FILES.json)}`);
  const summary = matrix.targets.map((t) => `${t.name} ${t.verdict} (exit ${t.exitCode ?? '—'})`).join('; ');
  io.out(terminalLine(`Fleet verdict: exit ${matrix.exitCode}, the worst of ${summary}`));
  return matrix.exitCode;
}
