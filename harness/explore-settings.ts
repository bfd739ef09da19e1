import type { Exploration } from './model';

/**
 * How much the model-based explorer (suites/explore/, docs/explorer.md) runs: `--explore <count>` sequences
 * (0: off) within `--explore-time <s>` seconds. The main command's default: EXPLORE_EMBEDDED on the embedded
 * target, EXPLORE_CONFIGURED on a configured one; a run that does not say (the self-tests) gets the embedded one.
 */
export interface ExploreSettings {
  count: number;
  seconds: number;
  /**
   * Sequences of the institution disclosure explorer (none can be deleted through the interface): undefined, the
   * count on the embedded target and none on a configured one (--explore-institution N asks for them there).
   */
  institution?: number;
}

/**
 * On the embedded target the count governs: the same seed explores the same sequences on any machine. Its time
 * only stops a hang (at 5 s a loaded machine ran fewer sequences and missed faults the seed finds elsewhere).
 */
export const EXPLORE_EMBEDDED: ExploreSettings = { count: 12, seconds: 60 };
export const EXPLORE_CONFIGURED: ExploreSettings = { count: 4, seconds: 20 };
/** Commands per sequence, at most (each write is followed by the list that reads it back). */
export const EXPLORE_MAX_COMMANDS = 10;

/** The run's budget from --explore and --explore-time, else the target's default. */
export function exploreBudget(
  given: { explore?: number; exploreTime?: number; exploreInstitution?: number },
  embedded: boolean,
): ExploreSettings {
  const base = embedded ? EXPLORE_EMBEDDED : EXPLORE_CONFIGURED;
  const institution = given.exploreInstitution;
  return {
    count: given.explore ?? base.count,
    seconds: given.exploreTime ?? base.seconds,
    ...(institution !== undefined ? { institution } : {}),
  };
}

/** The console's line: "explorer: N of M transitions reached (state × operation × value), S sequences, R requests". */
export function explorationLine(e: Exploration): string {
  const total = e.reached.length + e.notReached.length;
  return (
    `explorer: ${e.reached.length} of ${total} transitions of the acceptance records reached (state × operation × ` +
    `value), ${e.sequences} sequence${e.sequences === 1 ? '' : 's'}, ${e.requests} requests`
  );
}
