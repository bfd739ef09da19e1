import { NEAR_VARIANTS } from '../harness/credential-variants';
import { describe, expect, test } from 'vitest';
import { AREAS } from '../harness/model';
import { FIXTURE_SETS } from '../reference-target/fixture-sets';
import type { CaseReport } from '../harness/model';
import { explain, runAreas } from './_reference';
import { EXPLORE_TITLE } from '../suites/explore/explore-user-disclosures';

/**
 * A bank's sandbox offers little: 3 institution disclosures, of which the configured user has already
 * accepted 1, and one test customer (the `realistic` fixture set; the bench measures its speed).
 * Every case still gets its verdict there, and the record the user had before the run is left as it was.
 */
/** The refusals each form of an operation is sent: no credentials, a made-up token, each near variant of the real one.
 */
const REFUSALS = 2 + NEAR_VARIANTS.length;

describe("the suites against a target with a sandbox's test data", () => {
  test('every case passes, and the acceptance record that was there before the run is untouched', async () => {
    const { cases, target } = await runAreas({ areas: [...AREAS], strict: true, fixtures: 'realistic' });
    // The one test customer is addressed by its customer id: the LOGIN_ID case has no customer, and says so.
    const loginId = cases.filter((c) => c.requirements.includes('OP10-USERIDTYPE-LOGIN-ID'));
    expect(loginId.map((c) => `${c.outcome}: ${c.reason}`)).toEqual([
      expect.stringMatching(/^not-applicable: .*no configured customer is addressed by its login id/),
    ]);
    expect(explain(cases.filter((c) => !loginId.includes(c)))).toBe('');
    const before = FIXTURE_SETS.realistic.userDisclosures[0]!;
    expect(target.state.userDisclosures.get(before.institutionUserDisclosureId)).toEqual(before);
    // Everything the run created is gone: only the record that was there before remains.
    expect([...target.state.userDisclosures.keys()]).toEqual([before.institutionUserDisclosureId]);
    const customer = FIXTURE_SETS.realistic.testData.customer;
    expect(target.state.customers.get(customer.customerId)).toEqual({
      phoneNumber: customer.phoneNumber,
      countryCode: customer.countryCode,
      emailAddress: customer.emailAddress,
      postalAddress: customer.postalAddress,
    });
    expect(target.state.customers.size).toBe(1);
  });
});

describe('the cases of operations 4–7 share one life of two records', () => {
  // The cases judged on the life: by the rules they prove (every case of operations 5–7 with valid credentials,
  // and the list's members, types and statuses).
  const LIFE_RULES =
    /^(OP5-STATUS-204|STATE-UD-.*|OP[67]-.*|OP4-RESPONSE-MEMBERS|RES-USERDISC-FIELD-TYPES|RES-USERDISC-STATUS-VALUES)$/;
  // The explorer (suites/explore/) has sequences of its own.
  const isLife = (c: CaseReport) =>
    c.requirements.some((r) => LIFE_RULES.test(r)) &&
    !c.requirements.includes('DISC-AUTH-REQUIRED') &&
    c.title !== EXPLORE_TITLE;
  const AUTH = /^disclosures\/(change|delete)UserDisclosure\/.*is-not-served-/;

  test(
    'one case sends every create, change and delete of the life; the ' + 'others judge its exchanges and send nothing',
    async () => {
      const { cases, target } = await runAreas({ areas: ['disclosures'], strict: true, fixtures: 'realistic' });
      expect(explain(cases)).toBe('');
      const life = cases.filter(isLife);
      expect(life).toHaveLength(17);
      const senders = life.filter((c) =>
        c.exchanges.some((e) => e.operation !== 'listInstitutionDisclosures' && !/before the run/.test(e.label ?? '')),
      );
      expect(senders.map((c) => c.id)).toHaveLength(1);
      const writes = senders[0]!.exchanges
        .filter((e) => e.operation !== 'listUserDisclosures' && e.operation !== 'listInstitutionDisclosures')
        .map((e) => `${e.operation} ${e.label}`);
      // The two creates go side by side (either may be answered first); then one write at a time.
      expect(writes.slice(0, 2).sort()).toEqual([
        'createUserDisclosure create a second user disclosure ' + '(ACCEPTED), which the changes must not touch',
        'createUserDisclosure create the user disclosure',
      ]);
      expect(writes.slice(2)).toEqual([
        'changeUserDisclosure change the user disclosure (collection form)',
        'changeUserDisclosure set back the user disclosure (collection form)',
        'changeUserDisclosureById change the user disclosure (/{institutionUserDisclosureId} form)',
        'deleteUserDisclosure delete the user disclosure (collection form)',
        'createUserDisclosure create the user disclosure again',
        'deleteUserDisclosureById delete the user disclosure (/{institutionUserDisclosureId} form)',
        // The clean-up knows its record as listed after the last step: it deletes without looking first, and a list
        // confirms.
        'deleteUserDisclosure clean-up: delete the user disclosure',
      ]);
      // A list after each of the 7 steps that write (the second create is listed with the first), and one to confirm
      // the
      // clean-up.
      expect(
        senders[0]!.exchanges.filter(
          (e) => e.operation === 'listUserDisclosures' && !/before the run/.test(e.label ?? ''),
        ),
      ).toHaveLength(8);
      for (const c of life.filter((x) => x !== senders[0])) expect(c.exchanges, c.id).toEqual([]);
      // The changes and deletes without valid credentials are sent on the life's record after its last step: no record
      // of
      // their own.
      // Both forms of each (the cases of the /{institutionUserDisclosureId} form end in
      // "-institutionuserdisclosureid-form").
      const auth = cases.filter((c) => AUTH.test(c.id));
      // Per form: no credentials, a made-up token, and each near variant of the configured one.
      expect(auth).toHaveLength(4 * REFUSALS);
      for (const c of auth)
        expect(
          c.exchanges.map((e) => e.operation),
          c.id,
        ).toEqual([
          (c.id.includes('/change') ? 'changeUserDisclosure' : 'deleteUserDisclosure') +
            (c.id.endsWith('-institutionuserdisclosureid-form') ? 'ById' : ''),
        ]);
      expect(cases.flatMap((c) => c.exchanges).filter((e) => /shared by the cases/.test(e.label ?? ''))).toEqual([]);
      expect([...target.state.userDisclosures.keys()]).toEqual([
        FIXTURE_SETS.realistic.userDisclosures[0]!.institutionUserDisclosureId,
      ]);
    },
  );

  test(
    'one case at a time (as at --concurrency 1): the life runs in the first case that asks, the ' +
      'refused changes and deletes share a record of their own, and nothing is left',
    async () => {
      const { cases, target } = await runAreas({
        areas: ['disclosures'],
        strict: true,
        fixtures: 'realistic',
        sequential: true,
      });
      expect(explain(cases)).toBe('');
      const creates = cases
        .flatMap((c) => c.exchanges)
        // The hand-written cases' (the explorer's evidence holds a create of a disclosure no list shows).
        .filter((e) => e.operation === 'createUserDisclosure' && e.response?.status === 204)
        .filter((e) => !(e.label ?? '').startsWith('explore:'));
      // The life's three, and one shared record for each refused change or delete of either form (one at a time, they
      // cannot share it).
      expect(creates.filter((e) => /shared by the cases/.test(e.label ?? ''))).toHaveLength(4 * REFUSALS);
      expect(creates).toHaveLength(3 + 4 * REFUSALS);
      expect([...target.state.userDisclosures.keys()]).toEqual([
        FIXTURE_SETS.realistic.userDisclosures[0]!.institutionUserDisclosureId,
      ]);
    },
  );
});

describe('a run asks the target only what it does not know', () => {
  test(
    'operation 1 and the user records before the run are listed once; a create ' +
      'refused for want of credentials leaves nothing to clean up',
    async () => {
      const { cases } = await runAreas({ areas: ['disclosures'], strict: true, fixtures: 'realistic' });
      expect(explain(cases)).toBe('');
      const userCases = cases.filter((c) =>
        /^disclosures\/(listUserDisclosures|createUserDisclosure|changeUserDisclosure|deleteUserDisclosure)\//.test(
          c.id,
        ),
      );
      const all = userCases.flatMap((c) => c.exchanges);
      expect(all.filter((e) => e.operation === 'listInstitutionDisclosures')).toHaveLength(1);
      expect(all.filter((e) => e.label === 'list user disclosures (before the run changes any)')).toHaveLength(1);
      const refused = cases.filter((c) => /^disclosures\/createUserDisclosure\/.*is-not-served/.test(c.id));
      expect(refused).toHaveLength(REFUSALS);
      for (const c of refused)
        expect(
          c.exchanges.map((e) => e.operation),
          c.id,
        ).toEqual(['createUserDisclosure']);
    },
  );
});
