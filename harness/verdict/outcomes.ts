import type { Exchange } from '../model';

/**
 * What a test says when it gives no verdict on the target (issue 32, the grader): the target does not expose what
 * it needs (not applicable), or the state it needs could not be established (could not test). A driver throws
 * them; the grader turns them into the test's outcome.
 */

/** The target does not expose what the case needs: reported with the reason, never a pass. */
export class NotApplicableError extends Error {
  override name = 'NotApplicableError';
  /** The answer that says so (a shared list may reach several cases through one error). */
  constructor(
    message: string,
    readonly exchange?: Exchange,
  ) {
    super(message);
  }
}

/** The state the case needs could not be established (e.g. left unknown by an earlier case): no verdict, never a
 * failure. */
export class CouldNotTestError extends Error {
  override name = 'CouldNotTestError';
  /** The configuration key or variable the operator should check, when the setup may be the cause. */
  constructor(
    message: string,
    readonly setupKey?: string,
  ) {
    super(message);
  }
}
