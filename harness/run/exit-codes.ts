/** The main command's exit codes (README, "Exit codes"); results.ts re-exports them. */
/** 4: --bundle was refused because a configured secret appears in an artifact (nothing was packed). */
/** 5: conformant in the areas tested, but a selected area verified nothing (its allow.* switch off, or not applicable).
 * */
export const EXIT = {
  CONFORMANT: 0,
  NON_CONFORMANT: 1,
  USAGE: 2,
  COULD_NOT_TEST: 3,
  EVIDENCE_REFUSED: 4,
  PARTLY_TESTED: 5,
  INTERRUPTED: 130,
} as const;
