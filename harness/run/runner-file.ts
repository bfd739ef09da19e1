import { join, relative, sep } from 'node:path';

/**
 * Where the compiled build that runs this process lies: launch/compiled.mjs sets it before it imports
 * the build (launch/build.mjs). Unset when the TypeScript runs (tsx, the in-process self-tests).
 */
export const BUILD_DIR = Symbol.for('dbsi-conformance.build');

/**
 * The one vitest file of a run, and what vitest loads with Node's own loader rather than transforming
 * it: the compiled build's (bundled with the harness and the suites it imports: loaded at once) when
 * this process runs the build, else suites/conformance.test.ts (vite transforms it and what it imports).
 */
export function runnerFile(root: string): { file: string; external: RegExp[] } {
  const build = (globalThis as Record<symbol, unknown>)[BUILD_DIR];
  if (typeof build !== 'string') return { file: 'suites/conformance.test.ts', external: [] };
  const folder = build
    .split(sep)
    .join('/')
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const file = relative(root, join(build, 'conformance.test.js')).split(sep).join('/');
  return { file, external: [new RegExp(`^${folder}/`)] };
}
