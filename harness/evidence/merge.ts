import { existsSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { LocalFileError, prepareReportsDir, readRegularFile, userCwd } from '../local-files';
import { FLEET_FILES, writeMatrix, type FleetTarget } from './fleet-matrix';

export const MERGE_USAGE = `Usage: dbsi-conformance merge FOLDER... [--reports DIR]
       npm run merge -- FOLDER... [--reports DIR]

Makes a fleet's matrix (requirement × target) from report folders of runs made elsewhere, one folder per
target (e.g. the artifacts of a CI matrix's jobs): DIR/fleet-matrix.md and DIR/fleet-matrix.json (DIR:
reports, in the current folder). A target is named after its folder; a folder without a
conformance-summary.json is a target with no report (counted as could not test).

Exit codes: the worst of the targets' exit codes (130, 2, 4, 1, 3, 5, 0, in that order; no report counts
as 3), or 2 when the command line or a folder is unusable.`;

/** A summary is a few megabytes at most. */
const MAX_SUMMARY_BYTES = 64 * 1024 * 1024;

export function mergeCommand(
  argv: string[],
  env: NodeJS.ProcessEnv,
  io: { out(line: string): void; err(line: string): void },
): number {
  let v;
  try {
    v = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { reports: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
    });
  } catch (e) {
    io.err(`dbsi-conformance merge: ${(e as Error).message}\n\n${MERGE_USAGE}`);
    return 2;
  }
  if (v.values.help) {
    io.out(MERGE_USAGE);
    return 0;
  }
  const from = userCwd(env);
  if (!v.positionals.length) {
    io.err(`dbsi-conformance merge: give the report folders to merge\n\n${MERGE_USAGE}`);
    return 2;
  }
  let out: string;
  const targets: FleetTarget[] = [];
  const seen = new Map<string, number>();
  try {
    out = prepareReportsDir(v.values.reports ?? 'reports', '--reports', from);
    for (const folder of v.positionals) {
      const dir = resolve(from, folder);
      if (!existsSync(dir) || !statSync(dir).isDirectory())
        throw new LocalFileError(folder, 'is not a folder of reports');
      const base = basename(dir);
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      const file = join(dir, 'conformance-summary.json');
      const summary = existsSync(file)
        ? JSON.parse(readRegularFile(file, folder, MAX_SUMMARY_BYTES).toString('utf8'))
        : undefined;
      if (summary && (typeof summary.facts?.exitCode !== 'number' || !Array.isArray(summary.requirements)))
        throw new LocalFileError(file, 'is not a conformance-summary.json of this suite');
      targets.push({
        name: n === 1 ? base : `${base}-${n}`,
        dir: relative(out, dir).split('\\').join('/') || '.',
        exitCode: summary ? summary.facts.exitCode : null,
        ...(summary && { summary }),
        html: existsSync(join(dir, 'conformance-report.html')),
      });
    }
  } catch (e) {
    if (!(e instanceof LocalFileError || e instanceof SyntaxError)) throw e;
    io.err(`dbsi-conformance merge: ${e.message}`);
    return 2;
  }
  const m = writeMatrix(out, targets);
  io.out(`Matrix: ${join(out, FLEET_FILES.md)}, ${join(out, FLEET_FILES.json)}`);
  for (const t of m.targets) io.out(`  ${t.name}: ${t.headline ?? t.verdict} (exit ${t.exitCode ?? '—'})`);
  io.out(`Fleet verdict: exit ${m.exitCode} (the worst of the targets')`);
  return m.exitCode;
}
