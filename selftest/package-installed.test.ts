import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ROOT } from './_cli';
import { installTarball, pack, userEnv, type Packed } from './_installed';

/**
 * `npx dbsi-conformance` from a packed tarball (issue 35): no clone, no TypeScript toolchain at run time, the
 * spec, schemas and reference target inside the package, reports under the folder it runs in.
 */
describe('the package, packed and installed into an empty folder', () => {
  let packed: Packed;
  let dir: string;
  beforeAll(() => {
    packed = pack();
    dir = installTarball(packed.tarball);
    // Nothing TypeScript runs: the installed command needs no tsx (nor typescript, which is not installed at all).
    rmSync(join(dir, 'node_modules', 'tsx'), { recursive: true, force: true });
  }, 600_000);

  test('holds the compiled job, the spec, the schemas and the launcher; no source, no report, no key', () => {
    const tops = new Set(packed.files.map((f) => f.split('/')[0]));
    expect([...tops].sort()).toEqual(
      ['README.md', 'config', 'dist-package', 'docs', 'launch', 'package.json', 'schemas', 'spec'].sort(),
    );
    expect(packed.files).toContain('spec/digital-banking-service-interface.md');
    expect(packed.files).toContain('schemas/config.schema.json');
    expect(packed.files).toContain('launch/bin.mjs');
    expect(packed.files.filter((f) => /\.ts$|\.pem$|(^|\/)\.env|^reports\//.test(f))).toEqual([]);
    // One build only: the one launch/pack.mjs made, which the launcher finds through current.json.
    const builds = new Set(packed.files.filter((f) => /^dist-package\/[^/]+\//.test(f)).map((f) => f.split('/')[1]));
    expect(builds.size).toBe(1);
    expect(existsSync(join(dir, 'node_modules', 'typescript'))).toBe(false);
    expect(existsSync(join(dir, 'node_modules', '.bin', 'dbsi-conformance'))).toBe(true);
  });

  test('npx dbsi-conformance runs against the embedded target: exit 0, reports in the folder it runs in', () => {
    const r = spawnSync('npx', ['--offline', 'dbsi-conformance', '--area', 'disclosures', '--quiet'], {
      cwd: dir,
      env: userEnv(),
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Verdict: conformant \(exit 0\)/);
    const summary = JSON.parse(readFileSync(join(dir, 'reports', 'conformance-summary.json'), 'utf8'));
    expect(summary.facts.verdict).toBe('conformant');
    expect(summary.facts.target.embedded).toBe(true);
    expect(existsSync(join(dir, 'reports', 'junit.xml'))).toBe(true);
    expect(existsSync(join(dir, 'node_modules', 'dbsi-conformance', 'reports'))).toBe(false);
  });

  test('--version and verify --help answer from the installed package', () => {
    const bin = join(dir, 'node_modules', '.bin', 'dbsi-conformance');
    const version = spawnSync(bin, ['--version'], { cwd: dir, env: userEnv(), encoding: 'utf8', timeout: 120_000 });
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(version.stdout.trim()).toBe(`dbsi-conformance ${pkg.version}`);
    const help = spawnSync(bin, ['verify', '--help'], { cwd: dir, env: userEnv(), encoding: 'utf8', timeout: 120_000 });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('dbsi-conformance verify BUNDLE.tar.gz --key PUBLIC.pem');
  });
});
