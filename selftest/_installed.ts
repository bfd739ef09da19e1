import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './_cli';

/**
 * The package as a user gets it (issue 35): packed by `npm pack` from this worktree and installed from the
 * tarball into an empty folder. The registry is reachable but slow, so the install is `npm ci --offline` from npm's
 * cache with a lock made of this repository's own (the same versions `npm ci` installed here): every step bounded.
 */

/** The environment of a command a user runs: none of the variables `npm test` passes to its scripts. */
export function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(npm_|INIT_CWD$|DBSI_)/i.test(k)),
  ) as NodeJS.ProcessEnv;
  return { ...env, ...extra };
}

function run(cmd: string, args: string[], cwd: string, timeout: number): SpawnSyncReturns<string> {
  const r = spawnSync(cmd, args, { cwd, env: userEnv(), encoding: 'utf8', timeout });
  if (r.status !== 0)
    throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal}): ${r.stderr.slice(-2000)}`);
  return r;
}

export interface Packed {
  /** The tarball. */
  tarball: string;
  /** The files it holds, as npm pack lists them. */
  files: string[];
}

/** `npm pack` as its prepack script builds it (launch/pack.mjs), into a fresh folder. */
export function pack(): Packed {
  run(process.execPath, [join(ROOT, 'launch/pack.mjs')], ROOT, 180_000);
  const out = mkdtempSync(join(tmpdir(), 'dbsi-pack-'));
  const r = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', out], ROOT, 120_000);
  const [info] = JSON.parse(r.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return { tarball: join(out, info!.filename), files: info!.files.map((f) => f.path) };
}

/** Install the tarball into an empty folder (no network), as its only dependency; returns the folder. */
export function installTarball(tarball: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'dbsi-installed-'));
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, Record<string, unknown>>;
  };
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  const spec = `file:${tarball}`;
  const packages: Record<string, unknown> = { '': { name: 'scratch', dependencies: { 'dbsi-conformance': spec } } };
  // The package's own dependencies, at the places npm ci put them here; not the development tools.
  for (const [path, p] of Object.entries(lock.packages)) {
    if (!path || p.dev) continue;
    const { devOptional: _, ...kept } = p;
    packages[path] = kept;
  }
  packages['node_modules/dbsi-conformance'] = {
    version: pkg.version,
    resolved: spec,
    integrity: `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`,
    dependencies: pkg.dependencies,
    bin: pkg.bin,
    engines: pkg.engines,
  };
  const manifest = { name: 'scratch', private: true, dependencies: { 'dbsi-conformance': spec } };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(
    join(dir, 'package-lock.json'),
    JSON.stringify({ name: 'scratch', lockfileVersion: 3, requires: true, packages }, null, 2),
  );
  run('npm', ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], dir, 240_000);
  return dir;
}
