import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { OPTIONS_TEXT } from '../harness/run/args';

/**
 * Issue 34, "a first run in a minute of reading": the README opens with the two commands and a first-run
 * checklist and stays short; the reference material lives in docs/, every option of --help is documented
 * there, and no link of the README or of docs/ points at a file that is not there.
 */

const ROOT = join(dirname(new URL(import.meta.url).pathname), '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The relative link targets of a Markdown text (no URLs, no in-page anchors), without their #fragment. */
export function relativeLinks(markdown: string): string[] {
  const targets = [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  return targets.filter((t) => !/^[a-z]+:/i.test(t) && !t.startsWith('#')).map((t) => t.replace(/#.*$/, ''));
}

const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));

describe('README', () => {
  test('stays under 300 lines and opens with the two commands', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThan(300);
    const commands = readme.indexOf('npm ci && npm run conformance');
    expect(commands).toBeGreaterThan(0);
    expect(readme.indexOf('npm ci && npm test')).toBeGreaterThan(commands);
    expect(commands).toBeLessThan(readme.indexOf('## A first run against your sandbox'));
  });

  test('the first-run checklist of values to collect has at most ten rows, each saying where to find it', () => {
    const readme = read('README.md');
    const section = readme.slice(readme.indexOf('**1. Collect these values**'), readme.indexOf('**2. Copy'));
    const rows = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| value '));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(10);
    for (const row of rows) expect(row.split('|').filter((c) => c.trim()).length, row).toBe(3);
  });

  test('links every file of docs/ that a reader needs, and every link resolves', () => {
    const readme = read('README.md');
    const linked = new Set(relativeLinks(readme).map((t) => resolve(ROOT, t)));
    for (const t of linked) expect(existsSync(t), `README links ${t}`).toBe(true);
    for (const doc of docs.filter((d) => d !== 'benchmarks.md'))
      expect(linked.has(join(ROOT, 'docs', doc)), `README links docs/${doc}`).toBe(true);
  });

  test('no relative link in docs/ points at a missing file', () => {
    for (const doc of docs) {
      for (const t of relativeLinks(read(join('docs', doc))))
        expect(existsSync(resolve(ROOT, 'docs', t)), `docs/${doc} links ${t}`).toBe(true);
    }
  });

  test('every option --help prints is documented in docs/options.md', () => {
    const options = read('docs/options.md');
    const names = [...OPTIONS_TEXT.matchAll(/^\s+(-[-\w]+(?:, --[\w-]+)?)/gm)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) expect(options, name).toContain(name);
  });

  test('the link check can fail: a missing target is reported', () => {
    expect(relativeLinks('see [x](docs/nowhere.md#a) and [y](https://example.org) and [z](#here)')).toEqual([
      'docs/nowhere.md',
    ]);
  });
});
