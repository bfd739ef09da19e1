import { describe, expect, test } from 'vitest';
import { AREAS } from '../harness/model';
import { FIXTURE_SETS } from '../reference-target/fixture-sets';
import { explain, runAreas } from './_reference';

/**
 * A bank's sandbox offers little: 3 institution disclosures, of which the configured user has already
 * accepted 1, and one test customer (the `realistic` fixture set; the bench measures its speed).
 * Every case still gets its verdict there, and the record the user had before the run is left as it was.
 */
describe('the suites against a target with a sandbox\'s test data', () => {
  test('every case passes, and the acceptance record that was there before the run is untouched', async () => {
    const { cases, target } = await runAreas({ areas: [...AREAS], strict: true, fixtures: 'realistic' });
    // The one test customer is addressed by its customer id: the LOGIN_ID case has no customer, and says so.
    const loginId = cases.filter((c) => c.requirements.includes('OP10-USERIDTYPE-LOGIN-ID'));
    expect(loginId.map((c) => `${c.outcome}: ${c.reason}`)).toEqual([expect.stringMatching(/^not-applicable: .*no configured customer is addressed by its login id/)]);
    expect(explain(cases.filter((c) => !loginId.includes(c)))).toBe('');
    const before = FIXTURE_SETS.realistic.userDisclosures[0]!;
    expect(target.state.userDisclosures.get(before.institutionUserDisclosureId)).toEqual(before);
    // Everything the run created is gone: only the record that was there before remains.
    expect([...target.state.userDisclosures.keys()]).toEqual([before.institutionUserDisclosureId]);
    const customer = FIXTURE_SETS.realistic.testData.customer;
    expect(target.state.customers.get(customer.customerId)).toEqual({ phoneNumber: customer.phoneNumber, countryCode: customer.countryCode, emailAddress: customer.emailAddress, postalAddress: customer.postalAddress });
    expect(target.state.customers.size).toBe(1);
  });
});

describe('cases that only read an acceptance record share one', () => {
  test('the list, change-without-credentials and delete-without-credentials cases create one record between them, and it is deleted', async () => {
    const { cases, target } = await runAreas({ areas: ['disclosures'], strict: true, fixtures: 'realistic' });
    expect(explain(cases)).toBe('');
    const readers = cases.filter((c) => /^disclosures\/(listUserDisclosures\/lists-records-|listUserDisclosures\/lists-only-the-statuses|(change|delete)UserDisclosure\/.*is-not-served-)/.test(c.id));
    expect(readers.map((c) => c.id).length).toBe(7);
    const creates = readers.flatMap((c) => c.exchanges).filter((e) => e.operation === 'createUserDisclosure');
    expect(creates).toHaveLength(1);
    // Each reader lists once (or sends its one refused request); the one that created also lists after creating, the last one out cleans up.
    for (const r of readers) expect(r.exchanges.length, r.id).toBeLessThanOrEqual(6);
    expect([...target.state.userDisclosures.keys()]).toEqual([FIXTURE_SETS.realistic.userDisclosures[0]!.institutionUserDisclosureId]);
  });
});

describe('a run asks the target only what it does not know', () => {
  test('operation 1 and the user records before the run are listed once; a clean-up that knows its record deletes it without listing first', async () => {
    const { cases } = await runAreas({ areas: ['disclosures'], strict: true, fixtures: 'realistic' });
    expect(explain(cases)).toBe('');
    const userCases = cases.filter((c) => /^disclosures\/(listUserDisclosures|createUserDisclosure|changeUserDisclosure|deleteUserDisclosure)\//.test(c.id));
    const all = userCases.flatMap((c) => c.exchanges);
    expect(all.filter((e) => e.operation === 'listInstitutionDisclosures')).toHaveLength(1);
    expect(all.filter((e) => e.label === 'list user disclosures (before the run changes any)')).toHaveLength(1);
    // Created, listed (ACCEPTED), then the clean-up: delete, and a list that confirms it is gone.
    const created = cases.find((c) => c.id === 'disclosures/createUserDisclosure/creates-a-record-that-is-listed-with-the-status-sent-accepted')!;
    expect(created.exchanges.map((e) => e.operation)).toEqual(['createUserDisclosure', 'listUserDisclosures', 'deleteUserDisclosure', 'listUserDisclosures']);
    // A create refused for want of credentials leaves nothing to clean up, and the run knows it.
    const refused = cases.filter((c) => /^disclosures\/createUserDisclosure\/.*is-not-served/.test(c.id));
    expect(refused).toHaveLength(2);
    for (const c of refused) expect(c.exchanges.map((e) => e.operation), c.id).toEqual(['createUserDisclosure']);
  });
});
