import { en, Faker } from '@faker-js/faker';
import { describe, expect, test } from 'vitest';
import { otherPhoneNumber } from '../data-builders/contact-info';
import type { CheckVerdict } from '../harness/checks';
import type { HttpResult } from '../harness/http/client';
import type { Seen } from '../harness/rules/exchange';
import { judgeSequence } from '../harness/rules/sequence-rules';
import { foldContactInfo } from '../harness/state/contact-info';
import { certainlyDifferent, sameNumber, samePhone } from '../harness/phone-number';

/**
 * The contact fold (harness/state/contact-info.ts): log in, queries out; the one equality of phone numbers
 * (harness/phone-number.ts); and the state rules of operation 10 that read the fold
 * (harness/rules/sequence/contact-info.ts), where the equality decides a verdict.
 */

interface Update {
  status?: number;
  customer?: string;
  phone?: Record<string, string>;
  email?: boolean;
  /** Each update runs 10 ms; the next starts 100 ms later (no overlap) unless `at` says otherwise. */
  at?: number;
}

function entry(index: number, u: Update): Seen {
  const body = {
    userIdType: 'CUSTOMER_ID',
    ...(u.phone ? { phoneNumber: u.phone } : {}),
    ...(u.email ? { email: { emailAddress: 'a@example.com' } } : {}),
  };
  const status = u.status ?? 204;
  const start = u.at ?? index * 100;
  return {
    x: {
      index,
      startMs: start,
      startPrecisionMs: 1,
      endMs: start + 10,
      startedAt: '',
      durationMs: 10,
      method: 'PUT',
      url: `https://bank.example/customers/${u.customer ?? 'c-1'}:contact-info`,
      requestHeaders: { 'content-type': 'application/json' },
      requestBody: JSON.stringify(body),
      status,
      responseHeaders: {},
      responseBody: '',
    },
    res: { status, text: '', exchange: { request: {}, response: { status, body: '' } } } as unknown as HttpResult,
    mapped: {
      operation: 'updateContactInfo',
      pathParams: { customerId: u.customer ?? 'c-1' },
      query: new URLSearchParams(),
    },
    keepsAuthorization: true,
    authority: 'configured',
  };
}
const log = (...updates: Update[]) => updates.map((u, i) => entry(i + 1, u));
const change = (oldPhoneNumber: string, newPhoneNumber: string, o: Omit<Update, 'phone'> = {}): Update => ({
  ...o,
  phone: { oldPhoneNumber, newPhoneNumber },
});

/** The verdicts the state rules give, as "REQUIREMENT outcome #index". */
function verdicts(seen: Seen[]): string[] {
  const out: string[] = [];
  judgeSequence(seen, (i) => ({
    verify: (requirement: string, v: CheckVerdict) => {
      out.push(`${requirement} ${v.outcome} #${i}`);
      return v.outcome === 'passed';
    },
  }));
  return out;
}

describe('one equality of phone numbers (harness/phone-number.ts)', () => {
  test('the same text is the same number; other digits are certainly different; the rest is open', () => {
    expect(sameNumber('5550100', '5550100')).toBe(true);
    expect(sameNumber('555-0100', '5550100')).toBe(false);
    expect(certainlyDifferent('555-0100', '5550100')).toBe(false);
    expect(certainlyDifferent('+1 555 0100', '5550100')).toBe(false);
    expect(certainlyDifferent('5550101', '5550100')).toBe(true);
    expect(certainlyDifferent('', '5550100')).toBe(true);
    expect(certainlyDifferent(' ', '')).toBe(false);
    expect(samePhone({ number: '5550100', countryCode: '1' }, { number: '5550100', countryCode: '44' })).toBe(false);
  });

  test('a number drawn as "not on record" is one no reasonable comparison matches with those to avoid', () => {
    // Every number of the shape drawn is to be avoided, written without the dash: none of the shape may be returned.
    const avoid = Array.from({ length: 10_000 }, (_, i) => `555${String(i).padStart(4, '0')}`);
    const f = new Faker({ locale: [en] });
    f.seed(3);
    const n = otherPhoneNumber(f, '555-0100', avoid);
    expect(avoid.filter((a) => !certainlyDifferent(n, a))).toEqual([]);
  });
});

describe('the contact fold (harness/state/contact-info.ts)', () => {
  test('an accepted change puts the new number on record and remembers the one it replaced', () => {
    const s = foldContactInfo(log(change('5550100', '5550199')));
    expect(s.phone('c-1')).toMatchObject({ number: '5550199', how: 'stored', by: 1 });
    expect(s.replaced('c-1')).toEqual({ number: '5550100', by: 1 });
    expect(s.mayBeOnRecord('c-1')).toEqual(['5550199', '5550100']);
    expect(s.changes('c-1')).toBe(1);
    expect(s.phone('c-2')).toBeUndefined();
  });

  test('a refused update (4xx, 503) changes nothing; an unknown outcome makes the number unknown', () => {
    const start = { 'c-1': { number: '5550100', from: 'configured' } };
    const refused = foldContactInfo(
      log(change('5550100', '5550199', { status: 409 }), change('5550100', '1', { status: 503 })),
      start,
    );
    expect(refused.phone('c-1')).toMatchObject({ number: '5550100', how: 'known', from: 'configured' });
    expect(refused.changes('c-1')).toBe(0);
    const unknown = foldContactInfo(log(change('5550100', '5550199', { status: 502 })), start);
    expect(unknown.phone('c-1')).toBeUndefined();
    expect(unknown.mayBeOnRecord('c-1')).toBeUndefined();
    // An e-mail update whose outcome is unknown may have cleared the number on a faulty target.
    expect(foldContactInfo(log({ email: true, status: 0 }), start).phone('c-1')).toBeUndefined();
  });

  test('an update naming the number as old and new shows it on record; one without phoneNumber keeps it', () => {
    const named = foldContactInfo(log({ phone: { oldPhoneNumber: '5550100', newPhoneNumber: '5550100' } }));
    expect(named.phone('c-1')).toMatchObject({ number: '5550100', how: 'named', by: 1 });
    expect(named.changes('c-1')).toBe(0);
    const kept = foldContactInfo(log(change('5550100', '5550199'), { email: true }));
    expect(kept.phone('c-1')).toMatchObject({ number: '5550199', how: 'kept', by: 2 });
    expect(kept.otherWritten('c-1')).toBe(true);
    expect(kept.previous('c-1')).toBe('5550100');
    // A phoneNumber object without a new number may clear it.
    expect(
      foldContactInfo(log(change('5550100', '5550199'), { phone: { oldPhoneNumber: '5550199' } })).phone('c-1'),
    ).toBeUndefined();
  });

  test('served: a 2xx at the documented path; accepted as old: what a 2xx update named as oldPhoneNumber', () => {
    const elsewhere = { ...entry(1, change('5550100', '5550100')), undocumentedPath: true as const };
    expect(foldContactInfo([elsewhere]).served('c-1')).toBe(false);
    const s = foldContactInfo(log(change('5550100', '5550199', { status: 409 }), change('5550123', '5550111')));
    expect(s.served('c-1')).toBe(true);
    expect(s.acceptedAsOld('c-1', '5550123')).toBe(true);
    expect(s.acceptedAsOld('c-1', '5550100')).toBe(false);
    expect(s.acceptedAsOld('c-1', '555-0123')).toBe(false);
  });

  test('customers are folded apart, and a 4xx e-mail update is no write of the e-mail', () => {
    const s = foldContactInfo(log(change('1', '2', { customer: 'c-2' }), { email: true, status: 400 }));
    expect(s.phone('c-2')?.number).toBe('2');
    expect(s.phone('c-1')).toBeUndefined();
    expect(s.otherWritten('c-1')).toBe(false);
  });
});

describe('the state rules of operation 10 read the fold with that equality', () => {
  test('the stored number named again must be accepted; the replaced one, or other digits, refused', () => {
    expect(verdicts(log(change('5550100', '5550199'), change('5550199', '5550111')))).toContain(
      'OP10-RULE1-PHONE-STORED passed #2',
    );
    expect(verdicts(log(change('5550100', '5550199'), change('5550100', '5550111')))).toContain(
      'OP10-RULE1-PHONE-STORED failed #2',
    );
    expect(verdicts(log(change('5550100', '5550199'), change('5550123', '5550111')))).toContain(
      'OP10-RULE2-OLD-PHONE-MATCH failed #2',
    );
  });

  test('the stored number written otherwise may be refused or accepted: no verdict (a target may compare text)', () => {
    // Before one equality, the rules took the same digits for the same number and failed this refusal.
    const refused = verdicts(log(change('5550100', '5550199'), change('555-0199', '5550111', { status: 409 })));
    expect(refused.filter((v) => v.endsWith('#2'))).toEqual([]);
    const accepted = verdicts(log(change('5550100', '5550199'), change('555-0199', '5550111')));
    expect(accepted.filter((v) => v.endsWith('#2'))).toEqual([]);
  });

  test('an accepted number certainly not on record, written like the replaced one: no rule can be told', () => {
    // The replaced number written otherwise: the change not stored (a normalizing target) or rule 2 broken.
    const like = verdicts(log(change('5550100', '5550199'), change('+1 5550100', '5550111')));
    expect(like.filter((v) => v.endsWith('#2'))).toEqual([]);
    // Two blank oldPhoneNumbers accepted in a row: the second breaks rule 2, not the rule that stored the first.
    const blanks = verdicts(log(change('5550100', '5550199'), change('   ', '5550111'), change('', '5550122')));
    expect(blanks.filter((v) => v.endsWith('#3'))).toEqual([]);
    expect(blanks).toContain('OP10-RULE2-OLD-PHONE-MATCH failed #2');
    expect(verdicts(log(change('5550100', '5550199'), change('5550100', '5550111')))).toContain(
      'OP10-RULE1-PHONE-STORED failed #2',
    );
  });
});
