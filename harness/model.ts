/**
 * The vocabulary shared by the harness, the suites, the reporter and the self-tests.
 * Plain data only: everything here crosses from vitest workers to the main process.
 */

import type { Grade } from '../requirements/types';

/** The catalog's grades (requirements/types.ts): the catalog is the layer below the harness. */
export type { Grade };

export type Area = 'disclosures' | 'authentication' | 'money-movement' | 'contact-info';
export const AREAS: readonly Area[] = ['disclosures', 'authentication', 'money-movement', 'contact-info'];

/** The operations of the target that change real things, each behind its own safety switch. */
export type SafetySwitch = 'moneyMovement' | 'contactUpdate' | 'tokenRevocation' | 'institutionDisclosureWrites';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  /** The body as text, cut at the configured size limit. */
  body: string;
  /** True when the body was larger than the limit and was cut off. */
  truncated: boolean;
  bytes: number;
}

export type TransportErrorKind =
  | 'connection'
  | 'timeout'
  | 'protocol'
  | 'unavailable'
  | 'interrupted'
  | 'too-large'
  | 'target-stopped';

/**
 * Something a case changed on the target and could not put back (or could not confirm it put back):
 * listed in one block at the end of the run, with the exact values to restore by hand.
 */
export interface Leftover {
  /** Identifies the thing (e.g. "contact-info phone <baseUrl> <customerId>"): a later case that puts it back resolves
   * it. */
  key: string;
  /** What may be left changed, e.g. "phone number of customer cust-7 (CUSTOMER_ID)". */
  what: string;
  /** What it may be now, as far as the suite knows. */
  now?: string;
  /** The exact values to restore by hand. */
  restore: string;
  /** Why the suite could not put it back. */
  why: string;
  /** When it was recorded (ISO time). */
  at: string;
  /**
   * Put back, but only to the values the operator configured as on record (an e-mail or postal address): the
   * interface cannot confirm what was there before. Listed with the leftovers every time; no restore is owed.
   */
  unconfirmable?: boolean;
}

export interface Exchange {
  seq: number;
  /** The configured base URL the request went to (harness/operations.ts). */
  base?: 'baseUrl' | 'authBaseUrl' | 'transfersBaseUrl' | 'contactInfoBaseUrl';
  /** The declared path it went to instead of the spec's (`paths.<operation>`, a declared deviation), if any. */
  declaredPath?: string;
  /**
   * The configured credentials the request carried exactly as configured (harness/credentials.ts):
   * what proves a credential when the request is served, and names it when it is refused.
   */
  credentials?: string[];
  /**
   * The configured credentials whose near variant (harness/credential-variants.ts) the request carried instead: served
   * while the credential itself was refused, it shows the configured value is off by a character (harness/setup/).
   */
  nearVariants?: string[];
  /** The request carried credentials.transfersForbiddenToken (the configured token said to lack the right). */
  forbiddenToken?: boolean;
  /** The configured test data the request relies on being right (SendOptions.relies). */
  relies?: string[];
  /**
   * The request never left the machine: nothing can have changed. Set by harness/http/client.ts for a
   * refused connection, a name not resolved, a TLS handshake that failed before the request was written
   * (error.kind 'connection'), and a request stopped before it was sent (error.kind 'interrupted', or
   * 'target-stopped' after the target was declared dead): the error's kind says which.
   */
  notSent?: boolean;
  /** Which documented operation (see harness/operations.ts), or 'raw'. */
  operation: string;
  label?: string;
  request: RecordedRequest;
  response?: RecordedResponse;
  error?: { kind: TransportErrorKind; message: string };
  startedAt: string;
  /** The target's time: from when the (last) attempt was sent to its answer or error. */
  durationMs: number;
  /**
   * Time the request waited in the client before that (the connection limit, the rate limit or pace,
   * earlier attempts and their back-off), when 1 ms or more: never counted as the target's.
   */
  waitedMs?: number;
  /**
   * The client was slowed down when it sent the request, because the target was shedding load
   * (harness/http/pacing.ts): the requests in flight and the rate (per second) it was paced to.
   */
  pacedTo?: { concurrency: number; ratePerSecond: number };
  /**
   * An answer of this request (the one recorded, or one its retries name) was a 429 or 5xx counted in a
   * burst: the target was shedding load.
   */
  shedLoad?: true;
  /**
   * Safe retries that happened before this answer (connection failures before sending, 429), and the
   * re-checks of a read answered 5xx while the target shed load (harness/http/pacing.ts).
   */
  retries: string[];
  /** The redacted curl line that reproduces the request. */
  curl: string;
}

/** What one check concluded. */
export type CheckOutcome = 'passed' | 'failed' | 'not-applicable';

export interface CheckResult {
  /** Function name of the check, e.g. status_code_conformance. */
  check: string;
  requirement: string;
  grade: Grade;
  section: string;
  outcome: CheckOutcome;
  /** One line: what the check states. */
  description: string;
  expected?: string;
  received?: string;
  /** Why the check does not apply (outcome not-applicable), or an observation (INFO). */
  note?: string;
  /** seq of the exchange the check looked at. */
  exchange?: number;
  curl?: string;
  /**
   * A failed check an active case held to the rules (t.judge, t.judgeLog): whether a capture of the same
   * exchanges fails the requirement too (harness/rules/capture-view.ts). Absent where the check was not
   * judged through the rules (a check a driver states from the run's configuration), or passed.
   */
  capture?: CaptureView;
}

/** Whether a capture of the exchanges an active case judged fails the requirement too, and if not, why. */
export interface CaptureView {
  fails: boolean;
  /** Where it does not fail: what the active run knew that the capture does not show. */
  why?: string;
}

/**
 * The verdict of one test case on this target.
 * - passed: every check it ran passed (INFO observations may be attached)
 * - failed: a MUST check failed (or, under --strict, a SHOULD or INFO check)
 * - warning: a SHOULD check failed, not strict
 * - not-applicable: the target does not expose what the case needs (reason given)
 * - not-allowed: the target's configuration does not allow the request (safety switch)
 * - could-not-test: transport failure (refused, reset, timeout, not HTTP, 5xx unavailability)
 * - error: the suite itself broke (a bug in the suite, reported as such)
 * - waived: failed, and every failure that fails the run is accepted by a live waiver (--waivers):
 *   not a pass, and not counted towards exit 1 (harness/run/waivers.ts)
 */
export type CaseOutcome =
  | 'passed'
  | 'failed'
  | 'warning'
  | 'not-applicable'
  | 'not-allowed'
  | 'could-not-test'
  | 'error'
  | 'waived';

export interface CaseReport {
  id: string;
  area: Area;
  operation: string;
  title: string;
  requirements: string[];
  outcome: CaseOutcome;
  /** For failed / could-not-test / not-applicable / not-allowed / error: one line. */
  reason?: string;
  checks: CheckResult[];
  exchanges: Exchange[];
  durationMs: number;
  parameters: Record<string, string>;
  /** What this case's clean-ups could not put back (see Leftover). */
  leftovers?: Leftover[];
  /** Keys of leftovers of earlier cases this case put back (with the time). */
  resolvedLeftovers?: Array<{ key: string; at: string }>;
  /**
   * Could not test because of the operator's setup, not the target: the configuration key or
   * variable to check (e.g. "testData.disclosure"), gathered in the run's diagnosis block.
   */
  setup?: {
    key: string;
    problem: string;
    /**
     * The target's, not the setup's (never named in the DIAGNOSIS block): a refusal folded under its operation's own
     * failure (never served at a proven base), or a value the target served earlier in the run and refused later.
     */
    target?: boolean;
  };
  /** seq of the exchanges another case sent that this case's verdict rests on (a shared list). */
  judged?: number[];
  /** The model-based explorer's test: what it reached (suites/explore/, docs/explorer.md). */
  explored?: Exploration;
}

/** What the explorer reached: sequences, requests, and the transitions (state × operation × value) it took. */
export interface Exploration {
  sequences: number;
  requests: number;
  reached: string[];
  notReached: string[];
}
