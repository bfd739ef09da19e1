import type { Answer, Hostile, HostilePlan, HostileRequest } from './_safety-holdout-proxy';
import { firstLanded as landedThen, type Row } from './_safety-holdout-rows';

/** The safety hold-out set's rows beyond contact data: acceptance records, institution disclosures, transfers. */
const FORWARD: Hostile = { kind: 'forward' };
const userRecords = (r: HostileRequest) => r.path.includes('/institution-user-disclosures');
const createRecord = (r: HostileRequest) => r.method === 'POST' && userRecords(r);
const deleteRecord = (r: HostileRequest) => r.method === 'DELETE' && userRecords(r);
const createDisclosure = (r: HostileRequest) => r.method === 'POST' && r.path.endsWith('/institution-disclosures');
const transfer = (r: HostileRequest) => r.method === 'POST' && r.path.includes('/db-transfers/v1/transfers');

/** The first request `when` selects that the target serves (2xx) lands, then its answer is `then`. */
function firstLanded(when: (r: HostileRequest) => boolean, then: Answer | 'silent' | 'reset'): () => HostilePlan {
  return () => {
    let done = false;
    const landed = () => (done = true);
    return (r) => (done || !when(r) ? FORWARD : { kind: 'applied', then, landed });
  };
}

const SPIKE: Answer = { status: 500, body: { code: 'CMN_90002', message: 'Spike limit violation' } };

export const OTHER_ROWS: Row[] = [
  {
    id: 'D1',
    what: 'the configured disclosure is one the user had accepted before the run',
    areas: ['disclosures'],
    testData: (td) => {
      (td as Record<string, unknown>).disclosure = {
        institutionDisclosureId: 'disc-001',
        institutionDisclosureName: 'E-Sign Agreement',
      };
    },
    end: 'as found',
    exit: [0, 3],
  },
  {
    id: 'D2',
    what: "a record's create lands, its connection is reset before the answer",
    areas: ['disclosures'],
    plan: firstLanded(createRecord, 'reset'),
    end: 'as found',
    exit: [3],
  },
  {
    id: 'D3',
    what: 'every delete of a record answered 204, nothing deleted',
    areas: ['disclosures'],
    plan: () => (r) => (deleteRecord(r) ? { kind: 'answer', status: 204 } : FORWARD),
    end: 'changed, listed',
    exit: [1, 3],
  },
  {
    id: 'D4',
    what: 'every delete of a record answered 503 (not applied)',
    areas: ['disclosures'],
    plan: () => (r) => (deleteRecord(r) ? { kind: 'answer', status: 503 } : FORWARD),
    // The clean-ups' deadlines are multiples of the time-out: at the default, they outlast the test's.
    http: { timeoutMs: 1_000 },
    end: 'changed, listed',
    exit: [3],
  },
  {
    id: 'D5',
    before: 'two disclosures created whose answers were lost, none listed',
    what: 'an institution disclosure create lands, its answer is lost (time-out)',
    areas: ['disclosures'],
    allow: { institutionDisclosureWrites: true },
    plan: firstLanded(createDisclosure, 'silent'),
    http: { timeoutMs: 1_000 },
    end: 'changed, listed',
    exit: [3],
  },
  {
    id: 'M1',
    before: 'two transfers moved whose answers were lost, none listed',
    what: 'a transfer lands, its answer is lost (time-out)',
    areas: ['money-movement'],
    allow: { moneyMovement: true },
    plan: firstLanded(transfer, 'silent'),
    http: { timeoutMs: 1_000 },
    end: 'changed, listed',
    exit: [3],
  },
  {
    id: 'M2',
    before: 'each transfer answered 500 (throttle) was sent again: 4 moved, 2 listed; exit 0',
    what: 'a transfer lands and is answered 500 with a vendor throttling code',
    areas: ['money-movement'],
    allow: { moneyMovement: true },
    plan: firstLanded(transfer, SPIKE),
    end: 'changed, listed',
    exit: [0, 1, 3],
  },
  {
    id: 'M3',
    before: 'the transfers explorer ran: 42 transfers moved, 2 listed; exit 0',
    what: 'the configuration `npm run reference` prints, pasted for a real sandbox (its name kept)',
    areas: ['money-movement'],
    name: 'embedded reference target',
    allow: { moneyMovement: true },
    end: 'changed, listed',
    exit: [0],
  },
  {
    id: 'D6',
    what: "institution disclosure writes on, the configured disclosure one of the institution's real ones",
    areas: ['disclosures'],
    allow: { institutionDisclosureWrites: true },
    testData: (td) => {
      (td as Record<string, unknown>).disclosure = {
        institutionDisclosureId: 'disc-002',
        institutionDisclosureName: 'Privacy Notice',
      };
    },
    end: 'changed, listed',
    exit: [0, 3],
  },
  {
    id: 'D7',
    what: "interrupted (Ctrl-C) right after a record's create landed",
    areas: ['disclosures'],
    plan: (interrupt) => landedThen(createRecord, 'pass', interrupt),
    end: 'as found',
    exit: [130],
  },
  {
    id: 'M4',
    what: 'interrupted (Ctrl-C) right after the first transfer landed',
    areas: ['money-movement'],
    allow: { moneyMovement: true },
    plan: (interrupt) => landedThen(transfer, 'pass', interrupt),
    end: 'changed, listed',
    exit: [130],
  },
];
