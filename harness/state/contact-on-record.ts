import type { Seen } from '../rules/exchange';
import type { RunLog } from '../log/run-log';
import { sameNumber, type Phone } from '../phone-number';
import { foldRunLog, type ContactInfoState } from './contact-info';

/**
 * The drivers' questions about the number a case believes is on record (suites/contact-info/), asked of the contact
 * fold of the run's whole log (harness/state/contact-info.ts), not kept beside it (issue 32). What the case believes
 * (the number it handed on or was handed, and whether a request to refuse was accepted beside it) stays the
 * driver's, with the customer's lock; whether the log proves that number, and which exchange shows it, is the log's.
 */

/**
 * No update in the log set, or may have set, a number other than the configured one: the configuration is the last
 * word (an update that kept it, or one without an answer that named it as new, moves nothing).
 */
export function untouched(state: ContactInfoState, customer: string, configured: string): boolean {
  return (
    state.changes(customer) === 0 && state.mayHaveSetSinceConfirmed(customer).every((n) => sameNumber(n, configured))
  );
}

/**
 * The number believed is proven on record: an accepted update named it as old and new and nothing moved it since
 * (ContactInfoState.proven), or it is the configured number and no update of the run moved it.
 */
export function provenOnRecord(state: ContactInfoState, customer: string, believed: Phone, configured: Phone): boolean {
  const shown = state.phone(customer);
  if (state.proven(customer) && shown !== undefined && sameNumber(shown.number, believed.number)) return true;
  return sameNumber(believed.number, configured.number) && untouched(state, customer, configured.number);
}

/**
 * The accepted update that shows the number believed on record (it named it as new number, and only updates that
 * kept it followed): its log entry, with its answer. Undefined where the log shows another number, or none.
 */
export function shownByOnRecord(state: ContactInfoState, log: readonly Seen[], customer: string, believed: Phone) {
  const shown = state.phone(customer);
  if (shown?.shownBy === undefined || !sameNumber(shown.number, believed.number)) return undefined;
  return log.find((s) => s.x.index === shown.shownBy);
}

/** The fold of the run's log and the log it folded (the requests without an answer included), for one question. */
export function contactRunLog(log: Pick<RunLog, 'withUnanswered'>): { state: ContactInfoState; seen: Seen[] } {
  const seen = log.withUnanswered();
  return { state: foldRunLog({ withUnanswered: () => seen }), seen };
}
