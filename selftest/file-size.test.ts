import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

/**
 * No source file over 400 lines (issue 32, CONTRIBUTING "Size"): a file that grows past it is split by what it
 * holds (a file named after each part), never continued in `part2.ts`. The other half of the limit, no function
 * over 60 lines, is biome's `complexity/noExcessiveLinesPerFunction` (`biome.jsonc`, run by `npm test`).
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAX_LINES = 400;
const SOURCE = /\.(ts|mjs|cjs)$/;
/** Generated or installed, never edited by hand. */
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'dist-package', 'reports']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return e.name.startsWith('.') || SKIPPED_FOLDERS.has(e.name) ? [] : sources(join(dir, e.name));
    return SOURCE.test(e.name) ? [join(dir, e.name)] : [];
  });
}

/** Lines as an editor numbers them: a final newline does not start a line of its own. */
function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

function sizes(): Map<string, number> {
  const all = sources(ROOT).map((f) => [relative(ROOT, f).split('\\').join('/'), lineCount(readFileSync(f, 'utf8'))]);
  return new Map(all as [string, number][]);
}

/** The `overrides` of biome.jsonc, read from the file's own text (its comment lines left out). */
function biomeOverrides(): { text: string; includes: string[][] } {
  const text = readFileSync(join(ROOT, 'biome.jsonc'), 'utf8');
  const json = text
    .split('\n')
    .filter((l) => !l.trim().startsWith('//'))
    .join('\n');
  const overrides = (JSON.parse(json) as { overrides: { includes: string[] }[] }).overrides;
  return { text, includes: overrides.map((o) => [...o.includes].sort()) };
}

describe('source file size', () => {
  test('lines are counted as an editor numbers them', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a')).toBe(1);
    expect(lineCount('a\n')).toBe(1);
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\n\n')).toBe(2);
  });

  test(`no .ts, .mjs or .cjs file is longer than ${MAX_LINES} lines`, () => {
    const found = sizes();
    expect(found.size).toBeGreaterThan(100);
    const long = [...found].filter(([, n]) => n > MAX_LINES).map(([file, n]) => `${file} (${n} lines)`);
    expect(long, `files longer than ${MAX_LINES} lines: split each by what it holds\n  ${long.join('\n  ')}`).toEqual(
      [],
    );
  });

  test("biome exempts from the function limit only the self-tests' describe and test callbacks", () => {
    // No file is left to split (issue 32): the allow-list is gone with its last entry.
    expect(biomeOverrides().includes).toEqual([['selftest/**/*.test.ts']]);
  });
});
