import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from './_cli';
// @ts-expect-error: a plain ES module (npm runs it before anything is compiled)
import { bannerLine, USUAL } from './banner.mjs';

/**
 * `npm test` says at once that it runs and how long it usually takes (issue 34): its `pretest` script prints
 * one line before the type check starts, and the README's test command says the same figure.
 */
describe('the first line of npm test', () => {
  test('pretest prints what runs and how long it usually takes', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.scripts.pretest).toBe('node selftest/banner.mjs');
    const out = execFileSync(process.execPath, [join(ROOT, 'selftest/banner.mjs')], { encoding: 'utf8' });
    expect(out).toBe(`${bannerLine()}\n`);
    expect(out).toMatch(/^npm test: type check, format check, then the self-tests .*; usually about \d+ min/);
  });

  test("the README's test command stays `npm ci && npm test` and gives the same figure", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const line = readme.split('\n').find((l) => l.startsWith('npm ci && npm test '));
    expect(line).toBeDefined();
    const usual = /^about (\d+ min)/.exec(USUAL as string)![1]!;
    expect(line).toContain(`about ${usual}`);
  });
});
