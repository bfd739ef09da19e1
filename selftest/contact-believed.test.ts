import { describe, expect, test } from 'vitest';
import type { Logged, Seen } from '../harness/log/entry';
import { believedOnRecord } from '../harness/state/contact-believed';
import { email, phone, update } from './_contact-entries';

/**
 * "Which phone does the run believe is on record for customer C, and is it in doubt?"
 * (harness/state/contact-believed.ts, issue 32): the drivers' phone and its doubt as a query on the run's log and
 * the updates the lock's holder sent alone, not fields of a tracker in suites/. Log in, queries out.
 */

const START = { number: '5550100', countryCode: '1' };
const keep = (n: string) => phone(n, n);
const seen = (l: Logged): Seen => ({ ...l, keepsAuthorization: true });

/** The log (entries numbered 1, 2, …), the updates sent alone given by their number. */
function ask(entries: Array<[number, Record<string, unknown>, boolean?]>, customer = 'c-1') {
  const log = entries.map(([status, body], i) => seen(update(i + 1, status, body)));
  const alone = new Set(entries.flatMap(([, , a], i) => (a ? [i + 1] : [])));
  return believedOnRecord(log, customer, START, (i) => alone.has(i));
}

const ALONE = true;

describe('the phone the run believes is on record, asked of the run log', () => {
  test('before any update: the configured phone, in no doubt', () => {
    expect(ask([])).toEqual({ phone: START });
  });

  test('accepted updates sent alone move it, with the country code they sent (none: the one before)', () => {
    const b = ask([
      [204, keep('5550100'), ALONE],
      [204, { phoneNumber: { oldPhoneNumber: '5550100', newPhoneNumber: '5550177', newCountryCode: '44' } }, ALONE],
    ]);
    expect(b).toEqual({ phone: { number: '5550177', countryCode: '44' } });
    expect(ask([[204, phone('5550100', '5550188'), ALONE]]).phone).toEqual({ number: '5550188', countryCode: '1' });
    // Back to the configured number (with its country code): the configured phone itself.
    const back = { phoneNumber: { oldPhoneNumber: '5550188', newPhoneNumber: '5550100', newCountryCode: '1' } };
    expect(
      ask([
        [204, phone('5550100', '5550188'), ALONE],
        [204, back, ALONE],
      ]).phone,
    ).toBe(START);
  });

  test('an update another test sent beside it, accepted, does not move it and puts it in doubt', () => {
    const b = ask([[204, phone('5550100', '5550177')]]);
    expect(b.phone).toBe(START);
    expect(b.doubt).toMatch(/another test sent beside it was accepted, naming "5550177"/);
    // A confirmation of the believed number by another test (a control) changes nothing.
    expect(ask([[204, keep('5550100')]])).toEqual({ phone: START });
    // A confirmation of another number does.
    expect(ask([[204, keep('5550999')]]).doubt).toBeDefined();
  });

  test('an update whose outcome is unknown puts it in doubt unless it confirms the believed number', () => {
    expect(ask([[0, phone('5550100', '5550177'), ALONE]]).doubt).toMatch(/"5550177" as new number got no answer/);
    expect(ask([[500, phone('5550100', '5550177'), ALONE]]).doubt).toBeDefined();
    expect(ask([[0, keep('5550100'), ALONE]]).doubt).toBeUndefined();
    // An e-mail update without an answer: the phone is the clear-suspicion's (contact-candidates.ts), not a doubt.
    expect(ask([[0, email, ALONE]]).doubt).toBeUndefined();
    // 503: shed before it was served, refused.
    expect(ask([[503, phone('5550100', '5550177'), ALONE]]).doubt).toBeUndefined();
  });

  test('a confirmation sent alone, started after it ended, settles a doubt; one that overlapped it does not', () => {
    const lost: Array<[number, Record<string, unknown>, boolean?]> = [[0, phone('5550100', '5550177'), ALONE]];
    expect(ask([...lost, [204, keep('5550100'), ALONE]])).toEqual({ phone: START });
    // By another test: no.
    expect(ask([...lost, [204, keep('5550100')]]).doubt).toBeDefined();
    // Overlapping: the update ended after the confirmation started.
    const log = [update(1, 0, phone('5550100', '5550177')), update(2, 204, keep('5550100'))].map(seen);
    log[0]!.x.endMs = log[1]!.x.startMs + 5;
    expect(believedOnRecord(log, 'c-1', START, () => true).doubt).toBeDefined();
  });

  test('accepted phone changes that overlapped: in doubt', () => {
    const log = [update(1, 204, phone('5550100', '5550177')), update(2, 204, phone('5550177', '5550188'))].map(seen);
    expect(believedOnRecord(log, 'c-1', START, () => true)).toEqual({ phone: { number: '5550188', countryCode: '1' } });
    log[0]!.x.endMs = log[1]!.x.startMs + 5;
    expect(believedOnRecord(log, 'c-1', START, () => true).doubt).toMatch(/overlapped/);
  });

  test('a refusal of the believed number as oldPhoneNumber, once the run touched the customer: in doubt', () => {
    // A read-back refused after an update without the phone.
    const b = ask([
      [204, keep('5550100'), ALONE],
      [204, email, ALONE],
      [409, keep('5550100'), ALONE],
    ]);
    expect(b.doubt).toMatch(/naming "5550100" as oldPhoneNumber was refused \(status 409\)/);
    // A confirmation refused after a change no confirmation proved.
    expect(
      ask([
        [204, phone('5550100', '5550177'), ALONE],
        [400, keep('5550177'), ALONE],
      ]).doubt,
    ).toBeDefined();
    // Nothing of the run was accepted before: nothing a refusal could show moved (the setup proofs read it).
    expect(ask([[400, keep('5550100'), ALONE]]).doubt).toBeUndefined();
    // Another number refused (a near miss): no doubt.
    expect(
      ask([
        [204, keep('5550100')],
        [409, phone('5550101', '5550177')],
      ]).doubt,
    ).toBeUndefined();
  });

  test('a refusal about the credentials, the path or the pace is not about the number', () => {
    const touched: [number, Record<string, unknown>, boolean?] = [204, keep('5550100'), ALONE];
    for (const status of [401, 403, 404, 405, 429])
      expect(ask([touched, [status, keep('5550100')]]).doubt).toBe(undefined);
    const log = [update(1, 204, keep('5550100')), update(2, 422, keep('5550100'))].map(seen);
    log[1]!.authority = 'none';
    expect(believedOnRecord(log, 'c-1', START, () => true).doubt).toBeUndefined();
    log[1]!.authority = 'configured';
    log[1]!.undocumentedPath = true;
    expect(believedOnRecord(log, 'c-1', START, () => true).doubt).toBeUndefined();
    log[1]!.undocumentedPath = undefined;
    expect(believedOnRecord(log, 'c-1', START, () => true).doubt).toBeDefined();
  });

  test("another customer's updates are not this one's", () => {
    const log = [seen(update(1, 204, phone('5550200', '5550277'), 'c-2'))];
    expect(believedOnRecord(log, 'c-1', START, () => false)).toEqual({ phone: START });
    expect(believedOnRecord(log, 'c-2', { number: '5550200', countryCode: '' }, () => false).doubt).toBeDefined();
  });
});
