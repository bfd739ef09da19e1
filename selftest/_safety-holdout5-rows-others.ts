import { expect } from 'vitest';
import type { UserDisclosure } from '../reference-target/state';
import type { ReferenceState } from '../reference-target/state';
import type { Answer, Hostile, HostilePlan, HostileRequest } from './_safety-holdout-proxy';
import type { Row5 } from './_safety-holdout5';

/** Session 41's safety hold-out rows beyond contact data: acceptance records, transfers, institution disclosures, and
 * the main command's options on a configured target. */
const FORWARD: Hostile = { kind: 'forward' };
const userRecords = (r: HostileRequest) => r.path.includes('/institution-user-disclosures');
const deleteRecord = (r: HostileRequest) => r.method === 'DELETE' && userRecords(r);
const createDisclosure = (r: HostileRequest) => r.method === 'POST' && r.path.endsWith('/institution-disclosures');
const transfer = (r: HostileRequest) => r.method === 'POST' && r.path.includes('/db-transfers/v1/transfers');
const listDisclosures = (r: HostileRequest) => r.method === 'GET' && r.path.endsWith('/institution-disclosures');
const SPIKE: Answer = { status: 500, body: { code: 'CMN_90002', message: 'Spike limit violation' } };

/** The first request `when` selects that the target serves (2xx) lands, then its answer is `then`. */
function firstLanded(when: (r: HostileRequest) => boolean, then: Answer | 'silent' | 'reset'): Row5['plan'] {
  return () => {
    let done = false;
    const landed = () => (done = true);
    return (r) => (done || !when(r) ? FORWARD : { kind: 'applied', then, landed });
  };
}

/** The first `n` requests `when` selects get `action`. */
function firstN(n: number, when: (r: HostileRequest) => boolean, action: Hostile): Row5['plan'] {
  return () => {
    let left = n;
    return (r) => (left > 0 && when(r) ? (left--, action) : FORWARD);
  };
}

/** Records the configured user had before the run, on disclosures the run's own records may also use, in `status`. */
function priorRecords(status: 'ACCEPTED' | 'NOT_ACCEPTED', ids = ['004', '005', '006', '007', '008', '009']) {
  return (s: ReferenceState) => {
    for (const n of ids) {
      const d = s.disclosures.get(`disc-${n}`) as { institutionDisclosureName: string } | undefined;
      const rec: UserDisclosure = {
        institutionId: '1001',
        institutionUserId: 'consumer-42',
        institutionUserDisclosureStatus: status,
        institutionDisclosureName: d?.institutionDisclosureName ?? `Disclosure ${n}`,
        institutionUserDisclosureId: `uds-prior-${n}`,
        institutionDisclosureId: `disc-${n}`,
        accountId: 'acct-100200',
      };
      s.userDisclosures.set(rec.institutionUserDisclosureId, rec);
    }
  };
}

/** The list of institution disclosures answered without its envelope: a MUST failure early in the run (for --bail). */
const BROKEN_LIST: HostilePlan = (r) =>
  listDisclosures(r) ? { kind: 'answer', status: 200, body: { disclosures: [] } } : FORWARD;

const createRecord = (r: HostileRequest) => r.method === 'POST' && userRecords(r);

export const OTHER_ROWS5: Row5[] = [
  {
    id: 'H26',
    what: "an acceptance record's create lands and is answered 429; the retry creates it again",
    areas: ['disclosures'],
    plan: firstLanded(createRecord, { status: 429, headers: { 'retry-after': '0' } }),
    end: 'as found or listed',
    exit: [0, 1, 3],
  },
  {
    id: 'H10',
    unsafe: true,
    before: '4 transfers moved, 2 listed; exit 0',
    what: 'a transfer lands and is answered 429 (a target that says it did not process it); the retry answered 200',
    areas: ['money-movement'],
    allow: { moneyMovement: true },
    plan: firstLanded(transfer, { status: 429, headers: { 'retry-after': '0' } }),
    end: 'changed, listed',
    exit: [0, 3],
  },
  {
    id: 'H11',
    what: 'an institution disclosure create lands, answered 500 naming a throttle: sent again, created twice',
    areas: ['disclosures'],
    allow: { institutionDisclosureWrites: true },
    plan: firstLanded(createDisclosure, SPIKE),
    end: 'changed, listed',
    exit: [0, 3],
  },
  {
    id: 'H12',
    what: 'the user had ACCEPTED records on six more disclosures before the run',
    areas: ['disclosures'],
    prepare: priorRecords('ACCEPTED'),
    end: 'as found',
    exit: [0, 3],
  },
  {
    id: 'H13',
    what: 'the user had NOT_ACCEPTED records on six more disclosures before the run',
    areas: ['disclosures'],
    prepare: priorRecords('NOT_ACCEPTED'),
    end: 'as found',
    exit: [0, 3],
  },
  {
    id: 'H14',
    what: 'the configured disclosure is one the user had NOT_ACCEPTED before the run',
    areas: ['disclosures'],
    testData: (td) => {
      (td as Record<string, unknown>).disclosure = {
        institutionDisclosureId: 'disc-003',
        institutionDisclosureName: 'Overdraft Terms',
      };
    },
    end: 'as found',
    exit: [0, 3],
  },
  {
    id: 'H15',
    unsafe: true,
    before: 'the cases and the explorer replaced country code 44 by the configured 1, listed as set to it; exit 0',
    what: 'the explorer with 8 sequences on a configured target, the user with prior records of both statuses',
    areas: ['disclosures', 'contact-info'],
    explore: { count: 8, seconds: 30 },
    prepare: (s) => {
      priorRecords('ACCEPTED', ['004', '005', '006'])(s);
      priorRecords('NOT_ACCEPTED', ['007', '008', '009'])(s);
      s.customers.get('cust/7 01')!.countryCode = '44';
    },
    testData: (td) => {
      td.customer.emailAndPostalConfirmed = false;
    },
    end: 'as found',
    exit: [0],
  },
  {
    id: 'H16',
    what: '--bail on a configured target whose first MUST failure comes early; contact data in the same run',
    areas: ['disclosures', 'contact-info'],
    cli: ['--bail'],
    plan: () => BROKEN_LIST,
    testData: (td) => {
      td.customer.emailAndPostalConfirmed = false;
    },
    end: 'as found',
    exit: [1],
  },
  {
    id: 'H17',
    what: '--fault on a configured target: refused before anything is sent',
    areas: ['disclosures'],
    cli: ['--fault', 'op1-envelope-renamed'],
    end: 'as found',
    exit: [2],
    check: (r) => expect(r.seen).toEqual([]),
  },
  {
    id: 'H18',
    what: '--seed 7, twice on the same configured target (the second run on what the first left)',
    areas: ['disclosures', 'contact-info'],
    cli: ['--seed', '7'],
    again: { cli: ['--seed', '7'] },
    testData: (td) => {
      td.customer.emailAndPostalConfirmed = false;
    },
    end: 'as found',
    exit: [0],
  },
  {
    id: 'H32',
    before: "6 of the explorer's disclosures listed by the names they were created with, renamed since by it",
    what: '--explore 6 --explore-institution 2 (main command) on a configured target, disclosure writes on',
    areas: ['disclosures'],
    allow: { institutionDisclosureWrites: true },
    cli: ['--explore', '6', '--explore-institution', '2'],
    prepare: priorRecords('ACCEPTED', ['004', '005']),
    end: 'changed, listed',
    exit: [0],
  },
  {
    id: 'H21',
    what: 'a throttling storm on DELETE only: the first twelve deletes answered 429 (Retry-After 0)',
    areas: ['disclosures'],
    plan: firstN(12, deleteRecord, { kind: 'answer', status: 429, headers: { 'retry-after': '0' } }),
    end: 'as found or listed',
    exit: [0, 3],
  },
  {
    id: 'H22',
    what: 'the first three deletes answered 204 and not applied, the others served',
    areas: ['disclosures'],
    plan: firstN(3, deleteRecord, { kind: 'answer', status: 204 }),
    end: 'as found or listed',
    exit: [1, 3],
  },
];
