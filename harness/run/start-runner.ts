import type { startVitest } from 'vitest/node';
import { ROOT } from './common';
import type { ActiveRun } from './run-setup';
import { runnerFile } from './runner-file';

/** vitest's maxConcurrency above concurrency 1: more than a run has tests, so none waits to start. */
const MAX_TESTS_AT_ONCE = 10_000;

/**
 * Runs the selected tests in vitest (`start`: vitest/node's, loaded when the run starts, about a second) with the
 * given reporters; settles when the runner is closed. The runner's own file is the compiled build's when this
 * process runs the build (loaded by Node, not transformed).
 */
export function startRunner(
  start: typeof startVitest,
  run: ActiveRun,
  runKey: string,
  reporters: unknown[],
): Promise<void> {
  const { config } = run.target;
  const { settings, filter, activeAreas } = run;
  // One worker runs every selected area (suites/conformance.test.ts): independent cases of all areas
  // run concurrently under one connection limit, and the harness is loaded once.
  const parallelAreas = 1;
  const testTimeout = config.http.timeoutMs * (config.http.retries + 1) * 12 + 10_000;
  const runner = runnerFile(ROOT);
  return start(
    'test',
    [runner.file],
    {
      root: ROOT,
      config: false,
      watch: false,
      run: true,
      include: [runner.file],
      server: { deps: { external: runner.external } },
      reporters,
      provide: { dbsi: { settings, filter, parallelAreas, areas: activeAreas, runKey } },
      pool: 'threads',
      maxWorkers: parallelAreas,
      fileParallelism: true,
      // Every test at once: a test waiting for a lock (a record, a customer) or for a connection slot
      // holds nothing, and a test that starts late may head the longest chain of the run (the
      // contact-info cases are registered last). The client bounds the requests in flight to
      // http.concurrency, the lock holders' requests first. At concurrency 1, one test at a time.
      maxConcurrency: config.http.concurrency === 1 ? 1 : MAX_TESTS_AT_ONCE,
      testTimeout,
      hookTimeout: testTimeout,
      passWithNoTests: true,
      silent: true,
      // Transforms are cached on disk (node_modules/.experimental-vitest-cache): a second run starts faster.
      experimental: { fsModuleCache: true },
    } as never,
    { logLevel: 'silent' },
  ).then((v) => v.close());
}
