import { describe, expect, test } from 'vitest';
import { email, phone, runLog, update } from './_contact-entries';
import { foldRunLog } from '../harness/state/contact-info';

/**
 * The drivers' questions to the contact fold over the run's whole log (issue 32: no tracker of target state in
 * suites/): which numbers may be on record for a customer, whether the one the log shows is proven, whether an
 * update of the customer was served, whether a number was accepted as old. Log in, queries out; a request that got
 * no answer (status 0) is read by the fold that asks (RunLog.withUnanswered) and by nothing else.
 */

describe("the contact fold answers the drivers' questions over the run's log", () => {
  test('the proof before the first write proves the number; an update that keeps it keeps it proven', () => {
    const s = foldRunLog(runLog([update(1, 204, phone('5550100', '5550100')), update(2, 204, email)]));
    expect(s.served('c-1')).toBe(true);
    expect(s.proven('c-1')).toBe(true);
    expect(s.phone('c-1')).toMatchObject({ number: '5550100', how: 'kept', by: 2 });
    expect(s.acceptedAsOld('c-1', '5550100')).toBe(true);
    expect(s.mayHaveSetSinceConfirmed('c-1')).toEqual([]);
    expect(s.served('c-2')).toBe(false);
  });

  test('a change is believed, not proven, and may be on record until a confirmation', () => {
    const s = foldRunLog(runLog([update(1, 204, phone('5550100', '5550100')), update(2, 204, phone('5550100', '1'))]));
    expect(s.proven('c-1')).toBe(false);
    expect(s.phone('c-1')).toMatchObject({ number: '1', how: 'stored' });
    expect(s.mayHaveSetSinceConfirmed('c-1')).toEqual(['1']);
    const back = foldRunLog(
      runLog([
        update(1, 204, phone('5550100', '1')),
        update(2, 204, phone('1', '5550100')),
        update(3, 204, phone('5550100', '5550100')),
      ]),
    );
    expect(back.proven('c-1')).toBe(true);
    expect(back.mayHaveSetSinceConfirmed('c-1')).toEqual([]);
  });

  test('a refused update changes nothing and serves nothing', () => {
    const s = foldRunLog(runLog([update(1, 409, phone('5550100', '5550100')), update(2, 409, phone('9', '2'))]));
    expect(s.served('c-1')).toBe(false);
    expect(s.phone('c-1')).toBeUndefined();
    expect(s.acceptedAsOld('c-1', '5550100')).toBe(false);
  });

  test('a request that got no answer may have landed: the number is unknown, and may be the one it named', () => {
    const log = runLog([update(1, 204, phone('5550100', '5550100'))], [update(2, 0, phone('5550100', '7'))]);
    // Every rule and the run's judged view read the answered entries only.
    expect(log.entries().map((s) => s.x.index)).toEqual([1]);
    expect(log.judged().map((s) => s.x.index)).toEqual([1]);
    const s = foldRunLog(log);
    expect(s.phone('c-1')).toBeUndefined();
    expect(s.proven('c-1')).toBe(false);
    expect(s.mayHaveSetSinceConfirmed('c-1')).toEqual(['7']);
  });

  test('an e-mail update that got no answer may have cleared the number ("" may be on record)', () => {
    const s = foldRunLog(runLog([update(1, 204, phone('5550100', '5550100'))], [update(2, 0, email)]));
    expect(s.proven('c-1')).toBe(false);
    expect(s.mayHaveSetSinceConfirmed('c-1')).toEqual(['']);
  });
});
