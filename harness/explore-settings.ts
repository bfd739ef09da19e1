/**
 * How much the model-based explorer (suites/explore/, docs/explorer.md) runs: `--explore <count>` sequences
 * (0: off) within `--explore-time <s>` seconds. The main command's default: EXPLORE_EMBEDDED on the embedded
 * target, EXPLORE_CONFIGURED on a configured one; a run that does not say (the self-tests) gets the embedded one.
 */
export interface ExploreSettings {
  count: number;
  seconds: number;
}

export const EXPLORE_EMBEDDED: ExploreSettings = { count: 12, seconds: 5 };
export const EXPLORE_CONFIGURED: ExploreSettings = { count: 4, seconds: 20 };
/** Commands per sequence, at most (each write is followed by the list that reads it back). */
export const EXPLORE_MAX_COMMANDS = 10;

/** The run's budget from --explore and --explore-time, else the target's default. */
export function exploreBudget(given: { explore?: number; exploreTime?: number }, embedded: boolean): ExploreSettings {
  const base = embedded ? EXPLORE_EMBEDDED : EXPLORE_CONFIGURED;
  return { count: given.explore ?? base.count, seconds: given.exploreTime ?? base.seconds };
}
