/**
 * Run a program of launch/build.mjs's ENTRIES in this process: its compiled build when current, else
 * after building it again (a source changed since `npm ci`: about half a second, once), else, when it
 * cannot be built here (a read-only checkout), its TypeScript through tsx, as before the build existed.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, currentBuild, ENTRIES, ROOT } from './build.mjs';

/** @param {keyof typeof ENTRIES} entry */
export async function runCompiled(entry) {
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
