import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

/**
 * Lines of at most 120 characters in every source file (issue 22), the catalog's quoted statements included:
 * the formatter (biome, `npm run format`) lays code out within that width but leaves a long string or comment
 * as it is, so those are split by hand (a statement is quoted as 'part ' + 'part').
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAX = 120;
const FOLDERS = [
  'bin',
  'bench',
  'launch',
  'config',
  'data-builders',
  'docs',
  'harness',
  'reference-target',
  'requirements',
  'selftest',
  'suites',
];
const SOURCE = /\.(ts|mjs|cjs|js)$/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : SOURCE.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe('source lines', () => {
  test(`no line of a source file is longer than ${MAX} characters`, () => {
    const long = FOLDERS.flatMap((f) => sources(join(ROOT, f))).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => [line, i + 1] as const)
        .filter(([line]) => line.length > MAX)
        .map(([line, n]) => `${relative(ROOT, file)}:${n} (${line.length} characters)`),
    );
    expect(long, `lines longer than ${MAX} characters:\n  ${long.join('\n  ')}`).toEqual([]);
  });
});
