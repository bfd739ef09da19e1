import type { Answer, Hostile, HostilePlan, HostileRequest } from './_safety-holdout-proxy';
import type { Scenario } from './_safety-holdout';

/**
 * The safety hold-out set of session 40 (docs/what-the-suite-changes.md, "A hold-out set (session 40)"): hostile
 * scenarios written from the spec, the README and the configuration guide alone, before reading the suite's own
 * safety tests. Each says what a careful operator expects at the end: the target's data as found (`asFound`), or
 * changed and every change listed; the exit codes an honest verdict may have.
 */
export interface Row extends Scenario {
  id: string;
  what: string;
  /**
   * The target's data at the end: as before the run; changed (the scenario makes a change the run cannot undo) and
   * every change listed; or either. Whatever it is, every change is listed.
   */
  end: 'as found' | 'changed, listed' | 'as found or listed';
  /** The exit codes an honest run may end with. */
  exit: number[];
  /** What the suite did before session 40's fixes, when that was unsafe (the "before" table). */
  before?: string;
  /** Still unsafe after the fixes (the test states the safe outcome and is expected to fail): why it is left. */
  left?: string;
}

export const FORWARD: Hostile = { kind: 'forward' };
export const CONFIGURED_PHONE = '5550100';
const REAL_PHONE = '5550177';
export const MAIN = 'cust/7 01';

export const contact = (r: HostileRequest) => r.method === 'PUT' && r.path.includes(':contact-info');
export const phone = (r: HostileRequest): Record<string, string> | undefined =>
  contact(r) ? (r.json.phoneNumber as Record<string, string> | undefined) : undefined;
/** An update that moves the phone number (new other than old). */
export const phoneChange = (r: HostileRequest) => {
  const p = phone(r);
  return !!p && typeof p.newPhoneNumber === 'string' && p.newPhoneNumber !== p.oldPhoneNumber;
};
/** An update that sets the configured number back (a restore). */
export const restore = (r: HostileRequest) => phoneChange(r) && phone(r)!.newPhoneNumber === CONFIGURED_PHONE;
/** A change from the configured number: one that lands (a near-variant old number, which the explorer sends first, is
 * refused). */
export const away = (r: HostileRequest) =>
  phoneChange(r) && !restore(r) && phone(r)!.oldPhoneNumber === CONFIGURED_PHONE;

/** The first request `when` selects that the target serves (2xx) lands, then its answer is `then`. */
export function firstLanded(
  when: (r: HostileRequest) => boolean,
  then: Answer | 'silent' | 'reset' | 'pass',
  onLanded: () => void = () => {},
): HostilePlan {
  let done = false;
  const landed = () => {
    done = true;
    onLanded();
  };
  return (r) => (done || !when(r) ? FORWARD : { kind: 'applied', then, landed });
}

/** The first `n` requests `when` selects get `action`. */
function firstN(n: number, when: (r: HostileRequest) => boolean, action: Hostile): HostilePlan {
  let left = n;
  return (r) => (left > 0 && when(r) ? (left--, action) : FORWARD);
}

/** Once the first request `when` selects landed (served, answered), nothing is answered any more. */
function stopsAfter(when: (r: HostileRequest) => boolean): HostilePlan {
  let stopped = false;
  const landed = firstLanded(when, 'pass', () => (stopped = true));
  return (r) => (stopped ? { kind: 'silent' } : landed(r));
}

/** Every request `when` selects never reaches the target nor is answered; the first one interrupts the run. */
function silentThenInterrupt(when: (r: HostileRequest) => boolean, interrupt: () => void): HostilePlan {
  return (r) => {
    if (!when(r)) return FORWARD;
    interrupt();
    return { kind: 'silent' };
  };
}

/** The first phone change is stored with another number than the one sent (its last digits changed). */
const storesOther = (): HostilePlan => {
  let done = false;
  return (r: HostileRequest): Hostile => {
    if (done || !away(r)) return FORWARD;
    done = true;
    const p = { ...phone(r)!, newPhoneNumber: '5559999' };
    return { kind: 'forward', body: JSON.stringify({ ...r.json, phoneNumber: p }) };
  };
};
const SPIKE: Hostile = { kind: 'answer', status: 500, body: { code: 'CMN_90002', message: 'Spike limit violation' } };
const UNAVAILABLE: Hostile = { kind: 'answer', status: 503, body: '<html>503 Service Unavailable</html>' };

/** The customer's real data: another number than configured (and real e-mail and postal address). */
const realCustomerElsewhere = (s: Parameters<NonNullable<Scenario['prepare']>>[0]) => {
  s.customers.get(MAIN)!.phoneNumber = REAL_PHONE;
};
const unconfirmed: Scenario['testData'] = (td) => {
  td.customer.emailAndPostalConfirmed = false;
};

export const CONTACT_ROWS: Row[] = [
  {
    id: 'C1',
    what: 'copied example phone number for a real customer whose number is another',
    areas: ['contact-info'],
    prepare: realCustomerElsewhere,
    testData: unconfirmed,
    end: 'as found',
    exit: [3],
  },
  {
    id: 'C2',
    before: 'the country code on record (44) replaced by the configured one (1); nothing listed; exit 0',
    what: 'the number is right, the country code on record is another than configured',
    areas: ['contact-info'],
    prepare: (s) => {
      s.customers.get(MAIN)!.countryCode = '44';
    },
    testData: unconfirmed,
    end: 'as found',
    exit: [0],
  },
  {
    id: 'C3',
    what: 'e-mail and postal address guessed, not confirmed (the phone number right)',
    areas: ['contact-info'],
    prepare: (s) => {
      s.customers.get(MAIN)!.emailAddress = 'real.person@bank.example';
    },
    testData: (td) => {
      td.customer.emailAndPostalConfirmed = false;
      td.customer.emailAddress = 'guess@example.com';
    },
    end: 'as found',
    exit: [0],
  },
  {
    id: 'C4',
    what: 'e-mail confirmed by the operator, but not the one on record',
    areas: ['contact-info'],
    prepare: (s) => {
      s.customers.get(MAIN)!.emailAddress = 'real.person@bank.example';
    },
    end: 'changed, listed',
    exit: [0],
  },
  {
    id: 'C5',
    before: 'the run hung: near misses held one customer and waited for the other, the explorer the reverse',
    what: "a moreCustomers entry that is someone else's real customer, its number other than configured",
    areas: ['contact-info'],
    prepare: (s) => {
      s.customers.get('cust/7 05')!.phoneNumber = '5550999';
    },
    testData: (td) => {
      td.customer.emailAndPostalConfirmed = false;
      td.moreCustomers = [
        { customerId: 'cust/7 05', userIdType: 'CUSTOMER_ID', phoneNumber: '5550105', countryCode: '1' },
      ];
    },
    end: 'as found',
    exit: [3],
  },
  {
    id: 'C6',
    what: 'a moreCustomers entry with the right number and no confirmation of its e-mail and postal address',
    areas: ['contact-info'],
    testData: (td) => {
      td.customer.emailAndPostalConfirmed = false;
      td.moreCustomers = [
        { customerId: 'cust/7 05', userIdType: 'CUSTOMER_ID', phoneNumber: '5550105', countryCode: '1' },
      ];
    },
    end: 'as found',
    exit: [0],
  },
  {
    id: 'C7',
    what: 'the first phone change lands, its connection is reset before the answer',
    areas: ['contact-info'],
    testData: unconfirmed,
    plan: () => firstLanded(away, 'reset'),
    end: 'as found',
    exit: [3],
  },
  {
    id: 'C8',
    what: 'the first restores of the number are answered 503 (not applied), then served',
    areas: ['contact-info'],
    testData: unconfirmed,
    plan: () => firstN(4, restore, UNAVAILABLE),
    end: 'as found',
    exit: [0, 3],
  },
  {
    id: 'C9',
    what: 'the first restores are answered 500 with a vendor throttling code (not applied)',
    areas: ['contact-info'],
    testData: unconfirmed,
    plan: () => firstN(3, restore, SPIKE),
    end: 'as found',
    exit: [0, 3],
  },
  {
    id: 'C10',
    what: 'every restore of the number is refused (400)',
    areas: ['contact-info'],
    testData: unconfirmed,
    plan: () => (r) => (restore(r) ? { kind: 'answer', status: 400, body: { error: 'refused' } } : FORWARD),
    end: 'changed, listed',
    exit: [1, 3],
  },
  {
    id: 'C11',
    what: 'a phone change answered 204 and not stored',
    areas: ['contact-info'],
    testData: unconfirmed,
    plan: () => (r) => (away(r) ? { kind: 'answer', status: 204 } : FORWARD),
    end: 'as found',
    exit: [1, 3],
  },
  {
    id: 'C12',
    what: 'a phone change stores another number than the one sent',
    areas: ['contact-info'],
    testData: unconfirmed,
    plan: storesOther,
    end: 'changed, listed',
    exit: [1, 3],
  },
  {
    id: 'C13',
    what: 'the target stops answering once the first phone change landed',
    areas: ['contact-info'],
    testData: unconfirmed,
    plan: () => stopsAfter(away),
    http: { timeoutMs: 400 },
    end: 'changed, listed',
    exit: [3],
  },
  {
    id: 'C14',
    before: 'the control replaced the real number with the configured one; nothing listed (exit 1)',
    what: 'a target that accepts any oldPhoneNumber, and a configured number that is not on record',
    areas: ['contact-info'],
    faults: ['op10-accepts-mismatched-old-phone'],
    prepare: realCustomerElsewhere,
    testData: unconfirmed,
    end: 'changed, listed',
    exit: [1, 3],
  },
  {
    id: 'C15',
    what: 'interrupted (Ctrl-C) right after the first phone change landed',
    areas: ['contact-info'],
    testData: unconfirmed,
    plan: (interrupt) => firstLanded(away, 'pass', interrupt),
    end: 'as found',
    exit: [130],
  },
  {
    id: 'C16',
    what: 'interrupted while the first restore gets no answer (it never reaches the target)',
    areas: ['contact-info'],
    testData: unconfirmed,
    plan: (interrupt) => silentThenInterrupt(restore, interrupt),
    http: { timeoutMs: 300 },
    end: 'as found or listed',
    exit: [130],
  },
  {
    id: 'C17',
    before: 'the explorer overwrote the unconfirmed e-mail with the configured guess; nothing listed; exit 0',
    what: 'the configuration `npm run reference` prints, pasted for a real sandbox (its name kept), e-mail guessed',
    areas: ['contact-info'],
    name: 'embedded reference target',
    prepare: (s) => {
      s.customers.get(MAIN)!.emailAddress = 'real.person@bank.example';
    },
    testData: (td) => {
      td.customer.emailAndPostalConfirmed = false;
      td.customer.emailAddress = 'guess@example.com';
    },
    end: 'as found',
    exit: [0],
  },
  {
    id: 'C18',
    what: 'every restore of the number answered 204 and not stored',
    areas: ['contact-info'],
    testData: unconfirmed,
    plan: () => (r) => (restore(r) ? { kind: 'answer', status: 204 } : FORWARD),
    end: 'changed, listed',
    exit: [1, 3],
  },
  {
    id: 'C19',
    what: 'the first restores of the number answered 429 with Retry-After (not applied)',
    areas: ['contact-info'],
    testData: unconfirmed,
    plan: () => firstN(4, restore, { kind: 'answer', status: 429, headers: { 'retry-after': '0' } }),
    end: 'as found',
    exit: [0, 3],
  },
];
