/**
 * The compiled main job: the TypeScript of bin/conformance.ts (with the bench's measured run and the
 * vitest file a run's worker loads), and everything they import from this repository, bundled by
 * esbuild into dist/<build>/ once, so that a run starts on plain node instead of type-stripping every
 * module through tsx's loader (which also slows down every import of node_modules: docs/benchmarks.md,
 * issue 21). Packages stay external.
 *
 * `npm ci` builds it (the `prepare` script: `node launch/build.mjs`, which first clears dist/);
 * launch/compiled.mjs builds it again when a source changed since. Each build goes to a folder of its
 * own, named in dist/current.json with the size and modification time of every file it was built
 * from, so that runs started side by side never read a half-written build.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST = join(ROOT, 'dist');
const CURRENT = 'current.json';

/** The programs built, by output name. */
export const ENTRIES = {
  conformance: 'bin/conformance.ts',
  'measured-run': 'bench/measured-run.ts',
  // The run's vitest file, for the build's runs (harness/run/runner-file.ts).
  'conformance.test': 'suites/conformance.test.ts',
};

/** Besides the sources the bundle holds, what changes the build's output. */
const BUILD_INPUTS = ['launch/build.mjs', 'tsconfig.json'];

/** Builds not current and older than this are removed by the next build. */
const KEEP_OLD_BUILDS_MS = 24 * 3600_000;

const posix = (p) => p.split(sep).join('/');

/**
 * A source's `import.meta.url` means that source's place, not the bundle's: the sources find the spec,
 * the schemas and the package root from it (`new URL('../schemas/', import.meta.url)`). Every output
 * lies directly in its build folder, so the source's URL is written relative to that folder (the one
 * the build is renamed to: at the same depth as the one esbuild writes).
 */
function sourceUrlPlugin(outdir) {
  return {
    name: 'source-import-meta-url',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        const fromOutput = JSON.stringify(posix(relative(outdir, args.path)));
        const contents = source.replace(/\bimport\.meta\.url\b/g, `new URL(${fromOutput}, import.meta.url).href`);
        return { contents, loader: 'ts' };
      });
    },
  };
}

/** The inputs of a build with their size and modification time: the build is current while they stay so. */
function stamp(files) {
  return Object.fromEntries(
    files.map((f) => {
      const st = statSync(join(ROOT, f));
      return [f, [st.size, st.mtimeMs]];
    }),
  );
}

/** The current build's folder, or undefined when there is none or one of its inputs changed since. */
export function currentBuild(dist = DIST) {
  let current;
  try {
    current = JSON.parse(readFileSync(join(dist, CURRENT), 'utf8'));
    for (const [f, [size, mtimeMs]] of Object.entries(current.inputs)) {
      const st = statSync(join(ROOT, f));
      if (st.size !== size || st.mtimeMs !== mtimeMs) return undefined;
    }
  } catch {
    return undefined;
  }
  return join(dist, current.build);
}

/** Build into a folder of its own, then name it current (a rename: readers see the old or the new). */
export async function build(dist = DIST) {
  const { build: esbuild } = await import('esbuild');
  const id = `b${Date.now().toString(36)}-${process.pid}`;
  const tmp = join(dist, `.tmp-${id}`);
  const current = join(dist, CURRENT);
  mkdirSync(dist, { recursive: true });
  try {
    const result = await esbuild({
      absWorkingDir: ROOT,
      entryPoints: ENTRIES,
      outdir: tmp,
      entryNames: '[name]',
      chunkNames: '[name]-[hash]',
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20.19',
      packages: 'external',
      keepNames: true,
      sourcemap: true,
      metafile: true,
      logLevel: 'silent',
      plugins: [sourceUrlPlugin(join(dist, id))],
    });
    const sources = Object.keys(result.metafile.inputs).map((f) => posix(f));
    renameSync(tmp, join(dist, id));
    const inputs = stamp([...new Set([...sources, ...BUILD_INPUTS])]);
    writeFileSync(`${current}.${id}`, JSON.stringify({ build: id, inputs }, null, 1));
    renameSync(`${current}.${id}`, current);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  removeOldBuilds(dist, id);
  return join(dist, id);
}

/** Builds a run may still be reading (started before a rebuild) are kept for a day. */
function removeOldBuilds(dist, keep) {
  const now = Date.now();
  for (const name of readdirSync(dist)) {
    if (name === keep || name === CURRENT) continue;
    const path = join(dist, name);
    try {
      if (now - statSync(path).mtimeMs > KEEP_OLD_BUILDS_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // removed by another build meanwhile
    }
  }
}

// `node launch/build.mjs` (npm's prepare): a clean build.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  rmSync(DIST, { recursive: true, force: true });
  const dir = await build();
  console.log(`dbsi-conformance: compiled ${Object.values(ENTRIES).join(', ')} into ${posix(relative(ROOT, dir))}/`);
}
