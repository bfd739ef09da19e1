import type { Timings } from '../harness/http/timings';

/**
 * Clean-up floors, retry back-offs and the dead-target window for a self-test whose target answers in
 * milliseconds (a local reference target, a proxy): the mechanisms run as in a real run, scaled to that
 * target, where the product's floors (seconds, harness/http/timings.ts) would only make the test wait.
 * Each mechanism keeps one self-test at the product's defaults.
 */
export const MILLISECOND_TIMINGS: Readonly<Timings> = Object.freeze({
  cleanupRequestFloorMs: 250,
  cleanupCaseFloorMs: 1_000,
  cleanupBackoffMs: Object.freeze([10, 20, 40, 80, 100]),
  deadTargetWindowMaxMs: 250,
});
