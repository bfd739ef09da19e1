import { describe, expect, test } from 'vitest';
import type { Seen } from '../harness/log/entry';
import { onRecordCandidates } from '../harness/state/contact-candidates';
import { entry } from './_state-entries';

/**
 * "Which numbers may be on record for customer C now?" (harness/state/contact-candidates.ts, issue 32): the restore's
 * candidates as a query on the run's log, not a tracker in suites/. Log in, queries out.
 */

const START = { number: '5550100', countryCode: '1' };
let n = 0;
function update(status: number, body: Record<string, unknown>, customer = 'c-1'): Seen {
  return entry(++n, 'updateContactInfo', {
    status,
    body: { userIdType: 'CUSTOMER_ID', ...body },
    pathParams: { customerId: customer },
  });
}
const phone = (oldPhoneNumber: string, newPhoneNumber: string, newCountryCode?: string) => ({
  phoneNumber: { oldPhoneNumber, newPhoneNumber, ...(newCountryCode ? { newCountryCode } : {}) },
});
const keep = (number: string) => phone(number, number);
const email = { email: { emailAddress: 'a@example.com' } };

function ask(log: Seen[]) {
  const c = onRecordCandidates(log, 'c-1', START);
  return { numbers: c.phones.map((p) => p.number), acceptsAnyOld: c.acceptsAnyOld, cleared: c.mayBeCleared };
}

describe('which numbers may be on record for a customer, asked of the run log', () => {
  test('before any update: the configured phone alone', () => {
    expect(onRecordCandidates([], 'c-1', START).phones).toEqual([START]);
  });

  test('an accepted change: the new number, then the one it replaced (a target that did not store it keeps it)', () => {
    const q = onRecordCandidates([update(204, phone('5550100', '5550177', '44'))], 'c-1', START);
    expect(q.phones).toEqual([{ number: '5550177', countryCode: '44' }, START]);
  });

  test('a refused update changes nothing; another customer is not this one', () => {
    const q = ask([update(409, phone('5550100', '5550177')), update(204, phone('5550100', '5550188'), 'c-2')]);
    expect(q.numbers).toEqual(['5550100']);
  });

  test('an accepted confirmation discounts the earlier candidates, and keeps the confirmed number', () => {
    const q = ask([
      update(204, phone('5550100', '5550177')),
      update(204, phone('5550177', '5550188')),
      update(204, keep('5550188')),
    ]);
    expect(q).toEqual({ numbers: ['5550188'], acceptsAnyOld: false, cleared: false });
  });

  test('after a confirmation, changes the target may not have stored keep every number since, newest first', () => {
    const q = ask([
      update(204, keep('5550100')),
      update(204, phone('5550100', '5550177')),
      update(204, phone('5550177', '5550188')),
    ]);
    expect(q.numbers).toEqual(['5550188', '5550177', '5550100']);
  });

  test('a target that accepted an oldPhoneNumber certainly not on record: no confirmation discounts anything', () => {
    const before = [update(204, phone('5550100', '5550177')), update(204, phone('5559999', '5550188'))];
    const q = ask([...before, update(204, keep('5550100'))]);
    expect(q.acceptsAnyOld).toBe(true);
    expect(q.numbers).toEqual(expect.arrayContaining(['5550100', '5550177', '5550188']));
    // The confirmation came first, the acceptance that shows the fault after it: the change before still counts.
    const trusted = [update(204, phone('5550100', '5550177')), update(204, phone('5550177', '5550188'))];
    expect(ask([...trusted, update(204, keep('5550188'))]).numbers).toEqual(['5550188']);
    const later = ask([...trusted, update(204, keep('5550188')), update(204, phone('5550123', '5550124'))]);
    expect(later.acceptsAnyOld).toBe(true);
    expect(later.numbers).toEqual(expect.arrayContaining(['5550124', '5550188', '5550177']));
    // After a confirmation, the number replaced before it is known not on record: naming it shows the fault too.
    expect(ask([...trusted, update(204, keep('5550188')), update(204, keep('5550177'))]).acceptsAnyOld).toBe(true);
  });

  test('the same digits written otherwise are not shown wrong: the confirmation still discounts', () => {
    const q = ask([update(204, phone('5550100', '5550177')), update(204, phone('555-0177', '5550188'))]);
    expect(q.acceptsAnyOld).toBe(false);
    expect(ask([...[update(204, phone('5550100', '5550177'))], update(204, keep('5550177'))]).numbers).toEqual([
      '5550177',
    ]);
  });

  test('an update without the phone, then a refused read-back of the number shown: it may have been cleared', () => {
    const q = ask([update(204, keep('5550100')), update(204, email), update(409, keep('5550100'))]);
    expect(q).toEqual({ numbers: ['5550100', ''], acceptsAnyOld: false, cleared: true });
    // A confirmation after it discounts the suspicion.
    const back = ask([update(204, email), update(409, keep('5550100')), update(204, keep('5550100'))]);
    expect(back.cleared).toBe(false);
  });

  test('no clear suspected without the update that did not supply the phone, nor for a number never on record', () => {
    expect(ask([update(409, keep('5550100'))]).cleared).toBe(false);
    expect(ask([update(204, email), update(409, keep('5550999'))]).cleared).toBe(false);
    expect(
      ask([update(204, email), update(204, phone('5550100', '5550177')), update(409, keep('5550100'))]).cleared,
    ).toBe(false);
  });

  test('an update without an answer may have landed: its number, or "" where it did not supply one', () => {
    const change = ask([update(204, keep('5550100')), update(0, phone('5550100', '5550177'))]);
    expect(change.numbers).toEqual(['5550177', '5550100']);
    const other = ask([update(204, keep('5550100')), update(0, email)]);
    expect(other).toMatchObject({ numbers: ['5550100', ''], cleared: true });
  });

  test('a confirmation does not discount an update that overlapped it, nor one without an answer', () => {
    const change = update(204, phone('5550100', '5550177'));
    const confirm = update(204, keep('5550100'));
    // The change was answered after the confirmation started: it may have landed after it.
    change.x.endMs = confirm.x.startMs + 5;
    expect(ask([change, confirm]).numbers).toEqual(['5550100', '5550177']);
    const lost = update(0, phone('5550100', '5550188'));
    expect(ask([lost, update(204, keep('5550100'))]).numbers).toEqual(['5550100', '5550188']);
    // Answered (even 500) and over before the confirmation: discounted.
    expect(ask([update(500, phone('5550100', '5550188')), update(204, keep('5550100'))]).numbers).toEqual(['5550100']);
  });

  test('once the log suspected a clear of any customer, each later accepted update without the phone may clear', () => {
    const other = [update(204, email, 'c-2'), update(409, phone('5550200', '5550200'), 'c-2')];
    // c-1's own log shows nothing but a confirmation, then an e-mail update accepted after c-2's refused read-back.
    expect(ask([update(204, keep('5550100')), ...other, update(204, email)]).cleared).toBe(true);
    expect(ask([update(204, keep('5550100')), update(204, email), ...other]).cleared).toBe(false);
    expect(ask([update(204, keep('5550100')), update(204, email)]).cleared).toBe(false);
  });

  test('an update without the phone since the last accepted confirmation (accepted, or maybe landed) is told', () => {
    const other = (log: Seen[]) => onRecordCandidates(log, 'c-1', START).otherSinceConfirmed;
    expect(other([])).toBe(false);
    expect(other([update(204, keep('5550100')), update(204, email)])).toBe(true);
    expect(other([update(204, email), update(204, keep('5550100'))])).toBe(false);
    expect(other([update(204, keep('5550100')), update(0, email)])).toBe(true);
    expect(other([update(204, keep('5550100')), update(409, email)])).toBe(false);
    // A change is no confirmation: the update without the phone before it still counts.
    expect(other([update(204, email), update(204, phone('5550100', '5550177'))])).toBe(true);
  });

  test('a read-back refused for the credentials, the path or the pace suspects nothing', () => {
    const refused = (status: number) => update(status, keep('5550100'));
    expect(ask([update(204, email), refused(429)]).cleared).toBe(false);
    const made = refused(401);
    made.authority = 'made-up';
    expect(ask([update(204, email), made]).cleared).toBe(false);
    const probe = refused(404);
    probe.undocumentedPath = true;
    expect(ask([update(204, email), probe]).cleared).toBe(false);
    expect([401, 403, 404, 405].map((status) => ask([update(204, email), refused(status)]).cleared)).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(ask([update(204, email), refused(422)]).cleared).toBe(true);
  });
});
