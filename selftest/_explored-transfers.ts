import type { CaseReport } from '../harness/model';
import type { ReferenceTarget } from '../reference-target/server';
import { EXPLORE_TRANSFERS_TITLE } from '../suites/explore/explore-transfers';
import { EXPLORER_MEMO } from '../suites/explore/transfer-sequence';

/**
 * The transfer explorer (suites/explore/explore-transfers.ts) moves money on the embedded target on purpose, with
 * amounts above the configured one; the self-tests of the hand-written tests' transfers (their count, their amounts,
 * the budget of transfers accepted by mistake) leave its test and its transfers out. Its transfers name themselves
 * in their memo; the one with an empty memo (only the explorer sends one) by that.
 */
export const explored = (text: string): boolean => text.includes(` ${EXPLORER_MEMO} `) || /"memo":\s*""/.test(text);

/** A run's cases and target without the explorer's test and transfers. */
export function handWritten(run: { cases: CaseReport[]; target: ReferenceTarget }): {
  cases: CaseReport[];
  target: { state: Pick<ReferenceTarget['state'], 'transfers' | 'seenRequests'> };
} {
  const { state } = run.target;
  return {
    cases: run.cases.filter((c) => c.title !== EXPLORE_TRANSFERS_TITLE),
    target: {
      state: {
        transfers: state.transfers.filter((t) => !explored(JSON.stringify(t))),
        seenRequests: state.seenRequests.filter((r) => !explored(r.text)),
      },
    },
  };
}
