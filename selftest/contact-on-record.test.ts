import { describe, expect, test } from 'vitest';
import type { Logged } from '../harness/log/entry';
import { email, phone, runLog, update } from './_contact-entries';
import { contactRunLog, provenOnRecord, shownByOnRecord, untouched } from '../harness/state/contact-on-record';

/**
 * The drivers' two questions about the number a case believes on record (issue 32: queries on the run's log, not a
 * tracker in suites/): does the log prove it, and which accepted update shows it (the first entry of the log a case
 * judges). Log in, queries out.
 */

const START = { number: '5550100', countryCode: '1' };
const A = { number: '5550177', countryCode: '1' };

function ask(answered: Logged[], unanswered: Logged[] = []) {
  const { state, seen } = contactRunLog(runLog(answered, unanswered));
  return {
    proven: (p: typeof START) => provenOnRecord(state, 'c-1', p, START),
    shownBy: (p: typeof START) => shownByOnRecord(state, seen, 'c-1', p)?.x.index,
    untouched: untouched(state, 'c-1', START.number),
  };
}

describe('the number a case believes on record, asked of the run log', () => {
  test('before any update the configured number is the last word: proven, shown by no exchange', () => {
    const q = ask([]);
    expect([q.proven(START), q.shownBy(START), q.untouched]).toEqual([true, undefined, true]);
    expect(q.proven(A)).toBe(false);
  });

  test('the proof shows the number, and an e-mail update that kept it does not move what shows it', () => {
    const q = ask([update(1, 204, phone('5550100', '5550100')), update(2, 204, email)]);
    expect([q.proven(START), q.shownBy(START)]).toEqual([true, 1]);
    expect(q.shownBy(A)).toBeUndefined();
  });

  test('an accepted change shows the new number, believed but not proven; the configured one is neither', () => {
    const q = ask([update(1, 204, phone('5550100', '5550100')), update(2, 204, phone('5550100', '5550177'))]);
    expect([q.proven(A), q.shownBy(A)]).toEqual([false, 2]);
    expect([q.proven(START), q.shownBy(START), q.untouched]).toEqual([false, undefined, false]);
  });

  test('a keep of the changed number proves it and shows it; a change back is not proven until confirmed', () => {
    const kept = ask([update(1, 204, phone('5550100', '5550177')), update(2, 204, phone('5550177', '5550177'))]);
    expect([kept.proven(A), kept.shownBy(A)]).toEqual([true, 2]);
    const back = ask([update(1, 204, phone('5550100', '5550177')), update(2, 204, phone('5550177', '5550100'))]);
    expect([back.proven(START), back.shownBy(START)]).toEqual([false, 2]);
  });

  test('a refused update moves nothing; a proof without an answer leaves the configured number proven', () => {
    expect(ask([update(1, 409, phone('5550100', '5550177'))]).proven(START)).toBe(true);
    const lost = ask([], [update(1, 0, phone('5550100', '5550100'))]);
    expect([lost.proven(START), lost.shownBy(START)]).toEqual([true, undefined]);
  });

  test('a change or an e-mail update without an answer may have landed: nothing is proven, nothing shown', () => {
    const change = ask([update(1, 204, phone('5550100', '5550100'))], [update(2, 0, phone('5550100', '5550177'))]);
    expect([change.proven(START), change.proven(A), change.shownBy(START)]).toEqual([false, false, undefined]);
    const cleared = ask([update(1, 204, phone('5550100', '5550100'))], [update(2, 0, email)]);
    expect([cleared.proven(START), cleared.shownBy(START)]).toEqual([false, undefined]);
  });
});
