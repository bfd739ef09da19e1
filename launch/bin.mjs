#!/usr/bin/env node
/**
 * The installed command (`npx dbsi-conformance`, `npm install -g`): package.json's `bin`. In a clone (the sources
 * beside it) it runs as `npm run conformance` does (launch/compiled.mjs: rebuilt when a source changed); in an
 * installed package, which ships the compiled build and not the sources (package.json `files`), it runs that build
 * as packed (dist-package/, launch/pack.mjs): nothing is compiled and no TypeScript tool runs.
 * `dbsi-conformance verify ...` checks a signed bundle.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './build.mjs';

const packed = join(ROOT, 'dist-package');
if (existsSync(join(ROOT, 'bin', 'conformance.ts'))) {
  const { runCompiled } = await import('./compiled.mjs');
  await runCompiled('conformance');
} else {
  let build;
  try {
    build = join(packed, JSON.parse(readFileSync(join(packed, 'current.json'), 'utf8')).build);
  } catch {
    process.stderr.write(
      `dbsi-conformance: the package in ${ROOT} holds no compiled build (dist-package/current.json)\n`,
    );
    process.exit(2);
  }
  // harness/run/runner-file.ts: a run's worker loads the build's vitest file too.
  globalThis[Symbol.for('dbsi-conformance.build')] = build;
  await import(pathToFileURL(join(build, 'conformance.js')).href);
}
