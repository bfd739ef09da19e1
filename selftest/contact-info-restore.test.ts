import { describe, expect, test } from 'vitest';
import { REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { CONTACT_INFO_FAULTS } from '../reference-target/faults/contact-info';
import { explain, runAreas } from './_reference';

const c = REFERENCE_TEST_DATA.customer;
const AS_FOUND = { phoneNumber: c.phoneNumber, countryCode: c.countryCode, emailAddress: c.emailAddress, postalAddress: c.postalAddress };

/** The contact-info area changes one real customer: it must leave it exactly as it found it. */
describe('contact-info leaves its customer as it found it', () => {
  test('after a strict run against the faultless reference target, with no clean-up problem', async () => {
    const { cases, target } = await runAreas({ areas: ['contact-info'], strict: true });
    expect(explain(cases)).toBe('');
    expect(cases.filter((k) => /clean-up problems/.test(k.reason ?? '')).map((k) => k.reason)).toEqual([]);
    expect(target.state.customers.get(c.customerId)).toEqual(AS_FOUND);
    expect(target.state.customers.size).toBe(1);
  });

  test.each(CONTACT_INFO_FAULTS.map((f) => [f.name] as const))('also when the cases fail: with fault %s', async (fault) => {
    const { target } = await runAreas({ areas: ['contact-info'], faults: [fault], strict: true });
    expect(target.state.customers.get(c.customerId)).toEqual(AS_FOUND);
  });

  test('the customer id travels percent-encoded around the literal ":contact-info" suffix, with no version segment', async () => {
    const { target } = await runAreas({ areas: ['contact-info'] });
    const puts = target.received.filter((r) => r.method === 'PUT');
    expect(puts.length).toBeGreaterThan(0);
    expect(new Set(puts.map((r) => r.path))).toEqual(new Set(['/dbsi/customers/cust%2F7%2001:contact-info']));
  });
});
