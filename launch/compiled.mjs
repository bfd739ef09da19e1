/**
 * Run a program of launch/build.mjs's ENTRIES in this process: its compiled build when current, else
 * after building it again (a source changed since `npm ci`: about half a second, once), else, when it
 * cannot be built here (a read-only checkout), its TypeScript through tsx, as before the build existed.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, currentBuild, ENTRIES, ROOT } from './build.mjs';

/**
 * A package the suite depends on is missing (dependencies not installed): one line saying what to do, exit 2
 * (usage or configuration error), never a stack trace.
 * @param {unknown} e
 */
function missingDependency(e) {
  const err = /** @type {{ code?: string, message?: string }} */ (e);
  if (err?.code !== 'ERR_MODULE_NOT_FOUND') throw e;
  const pkg = /Cannot find (?:package|module) '([^']+)'/.exec(err.message ?? '')?.[1] ?? 'a dependency';
  process.stderr.write(
    `dbsi-conformance: the dependencies are not installed in ${ROOT.replace(/[\\/]+$/, '')} (no ${pkg}): ` +
      'run `npm ci` there first (README, "The two commands")\n',
  );
  process.exit(2);
}

/** @param {keyof typeof ENTRIES} entry */
export async function runCompiled(entry) {
  try {
    return await runEntry(entry);
  } catch (e) {
    missingDependency(e);
  }
}

/** @param {keyof typeof ENTRIES} entry */
async function runEntry(entry) {
  let dir = currentBuild();
  if (!dir) {
    try {
      dir = await build();
    } catch {
      // A syntax error is shown by tsx below, as it was before the build existed.
    }
  }
  if (dir) {
    // harness/run/runner-file.ts: a run's worker loads the build's vitest file too.
    globalThis[Symbol.for('dbsi-conformance.build')] = dir;
    return import(pathToFileURL(join(dir, `${entry}.js`)).href);
  }
  const { register } = await import('tsx/esm/api');
  register();
  return import(pathToFileURL(join(ROOT, ENTRIES[entry])).href);
}
