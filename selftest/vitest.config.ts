import { defineConfig } from 'vitest/config';

/**
 * The self-tests that start a process of their own: where the launcher (npm, tsx, node), a signal
 * (Ctrl-C, SIGTERM) or a FIFO is the subject, or a separate command (bin/reference.ts, bin/record.ts,
 * bin/openapi.ts) is run as a user runs it. Every other self-test calls the code in-process (the main
 * command through main(), selftest/_main.ts) and belongs to the "fast" project.
 */
export const PROCESS_TESTS = [
  'selftest/dead-target.test.ts',
  'selftest/fleet.test.ts',
  'selftest/github-action.test.ts',
  'selftest/interrupt.test.ts',
  'selftest/interrupt-busy-job.test.ts',
  'selftest/interrupt-second-ctrl-c.test.ts',
  'selftest/launch-build.test.ts',
  'selftest/local-input-fifo.test.ts',
  'selftest/openapi-command.test.ts',
  'selftest/package-installed.test.ts',
  'selftest/reference-cli.test.ts',
  'selftest/stress-mode.test.ts',
  'selftest/traffic-recorder.test.ts',
];

/**
 * The self-tests: unit tests of the harness, and the suites run in-process against the reference target.
 * Two projects: "fast" (in-process; `--project fast` gives feedback first) and "process"; `npm test` runs both.
 */
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    pool: 'threads',
    // vitest's default on 2 cores is one worker; most self-tests wait on a local target, a process or a
    // timer, so four at a time keep both cores busy (measured: 3 workers 142 s, 4 workers 122 s, 6 workers 146 s).
    maxWorkers: 4,
    // Time-outs stop a hang, never judge speed: the slowest self-test takes about 30 s on a quiet machine, and a
    // machine ten times slower must stay green (issue 34). A test that sets its own keeps to the same rule.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    projects: [
      { extends: true, test: { name: 'fast', include: ['selftest/**/*.test.ts'], exclude: PROCESS_TESTS } },
      { extends: true, test: { name: 'process', include: PROCESS_TESTS } },
    ],
  },
});
