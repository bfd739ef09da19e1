import { expect } from 'vitest';
import type { Hostile, HostilePlan, HostileRequest } from './_safety-holdout-proxy';
import { countryCodesSent, type Row5 } from './_safety-holdout5';
import type { TestData } from './_safety-holdout';
import { away, contact, FORWARD, MAIN, phone, restore } from './_safety-holdout-rows';

/**
 * Session 41's safety hold-out rows on contact data (selftest/safety-holdout5.test.ts; the scenarios were written
 * before reading the suite's own safety tests: docs/what-the-suite-changes.md, "A hold-out set (session 41)").
 */
const SECOND = 'cust/7 05';
/** An update that sets the configured e-mail address (a restore of it, alone or with other objects). */
const emailRestore = (r: HostileRequest) => contact(r) && r.json.email?.emailAddress === 'jordan.lee@example.com';
const allThree = (r: HostileRequest) => contact(r) && !!r.json.phoneNumber && !!r.json.email && !!r.json.postalAddress;

const unconfirmed = (td: TestData) => {
  td.customer.emailAndPostalConfirmed = false;
};
const second = (extra: Record<string, unknown> = {}) => ({
  customerId: SECOND,
  userIdType: 'CUSTOMER_ID',
  phoneNumber: '5550105',
  countryCode: '1',
  emailAddress: 'customer.5@example.com',
  postalAddress: { address1: '5 Main St', address2: '', city: 'Springfield', state: 'IL', postalCode: '62701' },
  ...extra,
});
const noCountryCode = (r: { seen: HostileRequest[] }) =>
  expect(countryCodesSent(r.seen).map((x) => x.body)).toEqual([]);

/** Once the first phone change away from the configured number landed, another process sets another number. */
function otherProcessAfterFirstChange(): Row5['plan'] {
  return ({ state }) => {
    let done = false;
    return (r) => {
      if (done || !away(r)) return FORWARD;
      done = true;
      return {
        kind: 'applied',
        then: 'pass',
        landed: () => {
          state.customers.get(MAIN)!.phoneNumber = '5550444';
        },
      };
    };
  };
}

/** The first phone change lands and its answer is lost; every request after it is lost too (the run is cut off). */
function cutOffAfterFirstChange(): Row5['plan'] {
  return ({ interrupt }) => {
    let cut = false;
    return (r): Hostile => {
      if (cut) return { kind: 'silent' };
      if (!away(r)) return FORWARD;
      cut = true;
      interrupt();
      return { kind: 'applied', then: 'silent' };
    };
  };
}

/** The target compares oldPhoneNumber by its digits (and stores newPhoneNumber as sent): the proxy writes an
 * oldPhoneNumber with the same digits as the one on record as the record writes it. */
function digitsCompared(r: HostileRequest, onRecord: string): Hostile {
  const p = phone(r);
  const digits = (n: string) => n.replace(/\D/g, '');
  if (!p || p.oldPhoneNumber === undefined || digits(p.oldPhoneNumber) !== digits(onRecord)) return FORWARD;
  return { kind: 'forward', body: JSON.stringify({ ...r.json, phoneNumber: { ...p, oldPhoneNumber: onRecord } }) };
}

export const CONTACT_ROWS5: Row5[] = [
  {
    id: 'H1',
    unsafe: true,
    before:
      'country code 44 replaced by the configured 1 (every phone update sent it), listed as set to the ' +
      'configured value; exit 0',
    what: 'country code on record 44, configured 1, no statement: nothing may send a country code',
    areas: ['contact-info'],
    prepare: (s) => {
      s.customers.get(MAIN)!.countryCode = '44';
    },
    testData: unconfirmed,
    end: 'as found',
    exit: [0],
    check: noCountryCode,
  },
  {
    id: 'H2',
    before: 'refused: countryCodeConfirmed is not a configuration key (exit 2)',
    what: 'the country code stated (countryCodeConfirmed) and right: the country-code case runs, set back, listed',
    areas: ['contact-info'],
    testData: (td) => {
      unconfirmed(td);
      (td.customer as Record<string, unknown>).countryCodeConfirmed = true;
    },
    end: 'as found',
    exit: [0],
    check: (r) => expect(r.setToConfigured.map((l) => l.what).join()).toMatch(/country code of customer/),
  },
  {
    id: 'H3',
    before: 'refused: countryCodeConfirmed is not a configuration key (exit 2)',
    what: 'the country code stated but wrong (44 on record): replaced, and listed as set to the stated value',
    areas: ['contact-info'],
    prepare: (s) => {
      s.customers.get(MAIN)!.countryCode = '44';
    },
    testData: (td) => {
      unconfirmed(td);
      (td.customer as Record<string, unknown>).countryCodeConfirmed = true;
    },
    end: 'changed, listed',
    exit: [0],
  },
  {
    id: 'H4',
    what: 'two customers: the first right and confirmed, the second (moreCustomers) configured with a stale number',
    areas: ['contact-info'],
    prepare: (s) => {
      s.customers.get(SECOND)!.phoneNumber = '5550999';
    },
    testData: (td) => {
      td.moreCustomers = [second()];
    },
    end: 'as found',
    exit: [3],
  },
  {
    id: 'H5',
    what: 'two customers: the first confirmed, the second not, its e-mail on record other than configured',
    areas: ['contact-info'],
    prepare: (s) => {
      s.customers.get(SECOND)!.emailAddress = 'real.five@bank.example';
    },
    testData: (td) => {
      td.moreCustomers = [second({ emailAndPostalConfirmed: false })];
    },
    end: 'as found',
    exit: [0],
  },
  {
    id: 'H6',
    what: 'another process sets another number once the first phone change landed',
    areas: ['contact-info'],
    testData: unconfirmed,
    plan: otherProcessAfterFirstChange(),
    end: 'changed, listed',
    exit: [1, 3],
    check: (r) => expect(r.after.customers[MAIN]).toMatchObject({ phoneNumber: '5550444' }),
  },
  {
    id: 'H7',
    what: 'the restore lands for the phone but not for the e-mail (every update setting it back answered 500)',
    areas: ['contact-info'],
    plan: () => (r) => (emailRestore(r) ? { kind: 'answer', status: 500, body: { error: 'internal' } } : FORWARD),
    // Since session 41 (the lead) a real target is sent only the configured e-mail and postal address, never
    // test values: nothing changes (before: changed, listed).
    end: 'as found',
    // Every e-mail update is then one the proxy answers 500, the test's own included: a failure.
    exit: [1, 3],
  },
  {
    id: 'H8',
    what: 'a target that stores only part of a full update (all three: the phone number dropped), 204',
    areas: ['contact-info'],
    plan: () => (r) =>
      allThree(r) ? { kind: 'forward', body: JSON.stringify({ ...r.json, phoneNumber: undefined }) } : FORWARD,
    end: 'as found or listed',
    exit: [1, 3],
  },
  {
    id: 'H9',
    what: 'a target that answers 204 to every contact update and stores nothing',
    areas: ['contact-info'],
    testData: unconfirmed,
    plan: () => (r) => (contact(r) ? { kind: 'answer', status: 204 } : FORWARD),
    end: 'as found',
    exit: [1, 3],
  },
  {
    id: 'H19',
    what: 'interrupted (Ctrl-C) as the first restore of the number lands',
    areas: ['contact-info'],
    testData: unconfirmed,
    plan: ({ interrupt }) => {
      let done = false;
      return (r) =>
        done || !restore(r) ? FORWARD : ((done = true), { kind: 'applied', then: 'pass', landed: interrupt });
    },
    end: 'as found or listed',
    exit: [130],
  },
  {
    id: 'H20',
    what: 'a second run after an interrupted first one that left the number changed',
    areas: ['contact-info'],
    testData: unconfirmed,
    http: { timeoutMs: 400 },
    plan: cutOffAfterFirstChange(),
    again: {},
    end: 'changed, listed',
    exit: [3],
    check: (r) => {
      // The second run wrote nothing on what the first left (its configured number is no longer on record).
      expect(r.runs[1]!.cases.length).toBeGreaterThan(0);
      expect(r.after.customers).toEqual(r.afterFirst.customers);
    },
  },
  {
    id: 'H23',
    what: 'the e-mail restore answered 204 and not stored (the interface cannot read it back)',
    areas: ['contact-info'],
    plan: () => (r) => (emailRestore(r) ? { kind: 'answer', status: 204 } : FORWARD),
    // Since session 41 (the lead) a real target is sent only the configured e-mail and postal address, never
    // test values: nothing changes (before: changed, listed).
    end: 'as found',
    exit: [0, 1, 3],
  },
  {
    id: 'H25',
    unsafe: true,
    before:
      'every phone update sent the unproven configured country code (the variant served them); as found only ' +
      'because it was right',
    what: 'a target that refuses a phone update without country codes (400), no statement of the country code',
    areas: ['contact-info'],
    faults: ['op10-requires-every-member'],
    testData: unconfirmed,
    end: 'as found',
    exit: [3],
    check: (r) => {
      noCountryCode(r);
      const reasons = r.cases.filter((c) => c.outcome === 'could-not-test').map((c) => c.reason ?? '');
      expect(reasons.join('\n')).toContain('testData.customer.countryCodeConfirmed');
    },
  },
  {
    id: 'H27',
    before: 'the number the run set left on record (its first attempt landed), listed as "unknown: 5550100"; exit 1',
    what: 'the first phone change lands and is answered 429; its retry is refused (409: the old number moved)',
    areas: ['contact-info'],
    testData: unconfirmed,
    plan: () => {
      let done = false;
      const landed = () => (done = true);
      const then = { status: 429, headers: { 'retry-after': '0' } };
      return (r) => (done || !away(r) ? FORWARD : { kind: 'applied', then, landed });
    },
    end: 'as found',
    exit: [1, 3],
  },
  {
    id: 'H28',
    before: 'refused: countryCodeConfirmed is not a configuration key (exit 2)',
    what: 'two customers: the first states its country code, the second (code 44 on record, 1 configured) does not',
    areas: ['contact-info'],
    prepare: (s) => {
      s.customers.get(SECOND)!.countryCode = '44';
    },
    testData: (td) => {
      unconfirmed(td);
      (td.customer as Record<string, unknown>).countryCodeConfirmed = true;
      td.moreCustomers = [second({ emailAndPostalConfirmed: false })];
    },
    end: 'as found',
    exit: [0],
    check: (r) => {
      const second = countryCodesSent(r.seen).filter((x) => x.path.includes(SECOND));
      expect(second.map((x) => x.body)).toEqual([]);
    },
  },
  {
    id: 'H29',
    what: 'moreCustomers repeats the first customer (a copy-paste of testData.customer)',
    areas: ['contact-info'],
    testData: (td) => {
      unconfirmed(td);
      td.moreCustomers = [{ ...structuredClone(td.customer), emailAndPostalConfirmed: false }];
    },
    end: 'as found',
    exit: [0],
  },
  {
    id: 'H30',
    unsafe: true,
    before: 'the number on record rewritten "555-0100" by the control (same digits); nothing listed; exit 0',
    left:
      'rule 2 proves a number only as the target compares it: the control (the configured number as old and new) ' +
      'writes it as configured, and no read-back shows the form stored',
    what: 'a target that compares digits only and stores the number as sent; the number configured as "555-0100"',
    areas: ['contact-info'],
    testData: (td) => {
      unconfirmed(td);
      td.customer.phoneNumber = '555-0100';
    },
    plan:
      ({ state }) =>
      (r) =>
        digitsCompared(r, state.customers.get(MAIN)!.phoneNumber),
    end: 'as found or listed',
    exit: [0, 1, 3],
  },
  {
    id: 'H31',
    before: "the first run's leftover was gone from the folder (its summary replaced); the second said nothing of it",
    what: 'the main command twice in one reports folder, the first cut off after its first phone change',
    areas: ['contact-info'],
    testData: unconfirmed,
    http: { timeoutMs: 400 },
    cli: [],
    plan: cutOffAfterFirstChange(),
    again: { cli: [] },
    sameReports: true,
    end: 'changed, listed',
    exit: [3],
    check: (r) => {
      expect(r.runs[0]!.leftovers.length).toBeGreaterThan(0);
      // The second run says first what the first left, though its own summary replaces the first's.
      expect(r.runs[1]!.stdout).toMatch(/^EARLIER RUNS LEFT CHANGES ON THIS TARGET \(1\)/m);
      expect(r.runs[1]!.stdout).toMatch(/• phone number of customer "cust\/7 01" .*: restore /);
      expect(r.after.customers).toEqual(r.afterFirst.customers);
    },
  },
  {
    id: 'H24',
    what: 'the configured number written otherwise than on record ("555-0100" for "5550100")',
    areas: ['contact-info'],
    testData: (td) => {
      unconfirmed(td);
      td.customer.phoneNumber = '555-0100';
    },
    end: 'as found',
    exit: [0, 3],
  },
];

/** A plan that passes every request on (rows of the CLI). */
export const PASS: HostilePlan = () => FORWARD;
