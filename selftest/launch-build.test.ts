import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { build, currentBuild, DIST, ROOT } from '../launch/build.mjs';
import { BUILD_DIR, runnerFile } from '../harness/run/runner-file';
import { editedExampleFile } from './_example';

const run = promisify(execFile);

/**
 * `npm run conformance` runs the main job compiled once (launch/build.mjs, built by `npm ci`'s prepare
 * step) instead of through tsx's loader. The build must behave as the TypeScript does, find the package's
 * files from the sources' places, and stop being used as soon as a file it was built from changes.
 */
describe('the compiled main job', () => {
  let dist: string;
  let dir: string;
  beforeAll(async () => {
    // Inside the package, so that the build finds node_modules as dist/ does.
    mkdirSync(DIST, { recursive: true });
    dist = mkdtempSync(join(DIST, '.selftest-'));
    dir = await build(dist);
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  test('is current right after the build, and names every file it was built from', () => {
    expect(currentBuild(dist)).toBe(dir);
    const { inputs } = JSON.parse(readFileSync(join(dist, 'current.json'), 'utf8')) as { inputs: object };
    const expected = ['bin/conformance.ts', 'harness/run/main.ts', 'suites/conformance.test.ts', 'tsconfig.json'];
    expect(Object.keys(inputs)).toEqual(expect.arrayContaining(expected));
    expect(Object.keys(inputs).some((f) => f.includes('node_modules'))).toBe(false);
  });

  test('is no longer current once a file it was built from differs from what it recorded', () => {
    const file = join(dist, 'current.json');
    const current = JSON.parse(readFileSync(file, 'utf8')) as { inputs: Record<string, [number, number]> };
    const before = structuredClone(current);
    current.inputs['harness/run/main.ts']![0] += 1;
    writeFileSync(file, JSON.stringify(current));
    expect(currentBuild(dist)).toBeUndefined();
    writeFileSync(file, JSON.stringify(before));
    expect(currentBuild(dist)).toBe(dir);
  });

  test("finds the package from the sources' places (version, schemas), lists what the TypeScript does", async () => {
    const args = ['--list', '--config', editedExampleFile()];
    const compiled = await run(process.execPath, [join(dir, 'conformance.js'), ...args], { cwd: ROOT });
    const source = await run(process.execPath, ['--import', 'tsx', 'bin/conformance.ts', ...args], { cwd: ROOT });
    expect(compiled.stdout).toMatch(/^disclosures › 1\. List institution disclosures/);
    expect([compiled.stdout, compiled.stderr]).toEqual([source.stdout, source.stderr]);
    const version = await run(process.execPath, [join(dir, 'conformance.js'), '--version'], { cwd: ROOT });
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(version.stdout).toBe(`dbsi-conformance ${pkg.version}\n`);
  });

  test("refuses what the schema refuses in the TypeScript's words (its validator is precompiled)", async () => {
    const bad = join(mkdtempSync(join(tmpdir(), 'dbsi-build-')), 'target.json');
    // An unknown key near a known one, a wrong type, a value out of range, a required key missing.
    const urls = { baseUrl: 'http://127.0.0.1:1', authBaseUrl: 'http://127.0.0.1:1' };
    const wrong = { htpp: {}, allow: { moneyMovement: 'yes' }, http: { concurrency: 0 } };
    writeFileSync(bad, JSON.stringify({ ...urls, ...wrong }));
    const args = ['--config', bad, '--reports', join(dirname(bad), 'reports')];
    const refused = (argv: string[]) =>
      run(process.execPath, [...argv, ...args], { cwd: ROOT }).catch((e: unknown) => e);
    const [compiled, source] = (await Promise.all([
      refused([join(dir, 'conformance.js')]),
      refused(['--import', 'tsx', 'bin/conformance.ts']),
    ])) as Array<{ code: number; stderr: string }>;
    expect(compiled.code).toBe(2);
    expect(compiled.stderr).toMatch(/unknown key "htpp" \(did you mean "http"\?\)/);
    expect(compiled.stderr).toMatch(/transfersBaseUrl/);
    expect([compiled.code, compiled.stderr]).toEqual([source.code, source.stderr]);
  });

  test("a run of the build gives its worker the build's vitest file, loaded by Node; the TypeScript its own", () => {
    expect(runnerFile(ROOT)).toEqual({ file: 'suites/conformance.test.ts', external: [] });
    const g = globalThis as Record<symbol, unknown>;
    g[BUILD_DIR] = dir;
    try {
      const { file, external } = runnerFile(ROOT);
      expect(existsSync(join(ROOT, file))).toBe(true);
      expect(file).toMatch(/^dist\/\.selftest-[^/]+\/[^/]+\/conformance\.test\.js$/);
      expect(external.some((r) => r.test(join(dir, 'chunk-X.js')))).toBe(true);
      expect(external.some((r) => r.test(join(ROOT, 'harness/case.ts')) || r.test(`${dir}-other/x.js`))).toBe(false);
    } finally {
      delete g[BUILD_DIR];
    }
  });
});

describe('the launcher where the dependencies are not installed', () => {
  test('says to run npm ci, in one line, and exits 2 (no stack trace)', async () => {
    // The launcher alone, in a folder with no node_modules above it: neither esbuild nor tsx can be found.
    const root = mkdtempSync(join(tmpdir(), 'dbsi-no-deps-'));
    try {
      for (const f of ['conformance.mjs', 'compiled.mjs', 'build.mjs'])
        writeFileSync(join(root, f), readFileSync(join(ROOT, 'launch', f)));
      const r = await run(process.execPath, [join(root, 'conformance.mjs')], { cwd: root }).then(
        () => ({ code: 0, stderr: '' }),
        (e: { code: number; stderr: string }) => e,
      );
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/the dependencies are not installed in .* run `npm ci` there first/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
