import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from './_cli';

/** `npm ci` installs without an allowScripts warning: every locked package with an install script is reviewed in
 * package.json. */
test('every package with an install script in package-lock.json is listed in package.json allowScripts', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    allowScripts?: Record<string, boolean>;
  };
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; hasInstallScript?: boolean }>;
  };
  const withScripts = Object.entries(lock.packages)
    .filter(([path, p]) => path && p.hasInstallScript)
    .map(([path, p]) => ({
      name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length),
      version: p.version,
    }));
  expect(withScripts.length).toBeGreaterThan(0);
  const allowed = Object.keys(pkg.allowScripts ?? {});
  for (const { name, version } of withScripts)
    expect(
      allowed.some((k) => k === name || k === `${name}@${version}`),
      name,
    ).toBe(true);
});
