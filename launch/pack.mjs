/**
 * The compiled build an installed package runs (issue 35): `npm pack` (its `prepack` script) builds the main job
 * once more into dist-package/, cleared first, so that the package holds exactly one build and none of the
 * builds dist/ keeps for runs still reading them. launch/bin.mjs runs it where the sources are not shipped.
 */
import { rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, ROOT } from './build.mjs';

export const PACKAGE_DIST = join(ROOT, 'dist-package');

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  rmSync(PACKAGE_DIST, { recursive: true, force: true });
  const dir = await build(PACKAGE_DIST);
  console.log(`dbsi-conformance: compiled the package's build into ${relative(ROOT, dir).split('\\').join('/')}/`);
}
