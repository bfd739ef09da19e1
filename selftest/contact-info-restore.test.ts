import { describe, expect, test } from 'vitest';
import { REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { CONTACT_INFO_FAULTS } from '../reference-target/faults/contact-info';
import { explain, runAreas } from './_reference';

const c = REFERENCE_TEST_DATA.customer;
const ALL = [c, ...REFERENCE_TEST_DATA.moreCustomers];
const asFound = (x: typeof c) => ({
  phoneNumber: x.phoneNumber,
  countryCode: x.countryCode,
  emailAddress: x.emailAddress,
  postalAddress: x.postalAddress,
});
const everyCustomerAsFound = (customers: Map<string, unknown>) => {
  expect(customers.size).toBe(ALL.length);
  for (const x of ALL) expect(customers.get(x.customerId), x.customerId).toEqual(asFound(x));
};

/** The contact-info area changes one real customer: it must leave it exactly as it found it. */
describe('contact-info leaves its customer as it found it', () => {
  test('after a strict run against the faultless reference target, with no clean-up problem', async () => {
    const { cases, target } = await runAreas({ areas: ['contact-info'], strict: true });
    expect(explain(cases)).toBe('');
    expect(cases.filter((k) => /clean-up problems/.test(k.reason ?? '')).map((k) => k.reason)).toEqual([]);
    everyCustomerAsFound(target.state.customers);
  });

  test.each(CONTACT_INFO_FAULTS.map((f) => [f.name] as const))(
    'also when the cases fail: with fault %s',
    async (fault) => {
      const { target } = await runAreas({ areas: ['contact-info'], faults: [fault], strict: true });
      everyCustomerAsFound(target.state.customers);
    },
  );

  test(
    'the customer id travels percent-encoded around the literal ' + '":contact-info" suffix, with no version segment',
    async () => {
      const { target } = await runAreas({ areas: ['contact-info'] });
      const puts = target.received.filter((r) => r.method === 'PUT');
      expect(puts.length).toBeGreaterThan(0);
      // 'cust/7 01' and its siblings hold a slash and a space: both percent-encoded, the colon literal.
      const documented = new Set(ALL.map((x) => `/dbsi/customers/${encodeURIComponent(x.customerId)}:contact-info`));
      expect(documented.has('/dbsi/customers/cust%2F7%2001:contact-info')).toBe(true);
      expect(puts.map((r) => r.path).filter((p) => !documented.has(p))).toEqual([]);
    },
  );
});
