import { defineConfig } from 'vitest/config';

/** The self-tests: unit tests of the harness, and the suites run in-process against the reference target. */
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['selftest/**/*.test.ts'],
    pool: 'threads',
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
