/**
 * The floors and windows of the clean-ups and of the dead-target breaker. A run always uses the
 * product's (DEFAULT_TIMINGS, as the README states them); a self-test against a target that answers
 * in milliseconds may give the client smaller ones (DbsiClient's `timings` option), so that a
 * mechanism is not waited on for seconds where it is not the subject.
 */
export interface Timings {
  /** A clean-up request is tried for three request timeouts, at least this long (cleanupRequestDeadlineMs). */
  cleanupRequestFloorMs: number;
  /** The clean-ups of one case take ten request timeouts in all, at least this long (cleanupDeadlineMs). */
  cleanupCaseFloorMs: number;
  /** The waits between clean-up retries (each with 50–150 % jitter); the last one repeats. */
  cleanupBackoffMs: readonly number[];
  /** After the target stopped answering, clean-ups still start within one request timeout, at most this long. */
  deadTargetWindowMaxMs: number;
}

export const DEFAULT_TIMINGS: Readonly<Timings> = Object.freeze({
  cleanupRequestFloorMs: 5_000,
  cleanupCaseFloorMs: 15_000,
  cleanupBackoffMs: Object.freeze([200, 400, 800, 1_600, 2_000]),
  deadTargetWindowMaxMs: 5_000,
});

/** The product's timings with the caller's choices over them. */
export function timingsWith(chosen: Partial<Timings> = {}): Timings {
  return { ...DEFAULT_TIMINGS, ...chosen };
}
