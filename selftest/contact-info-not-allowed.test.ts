import { describe, expect, test } from 'vitest';
import { REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { runAreas } from './_reference';

describe('contact-info with allow.contactUpdate off', () => {
  test('sends no contact update and reports every case skipped with the reason', async () => {
    const { cases, target, failed } = await runAreas({
      areas: ['contact-info'],
      allow: { contactUpdate: false },
      strict: true,
    });
    expect(target.received.filter((r) => /contact-info|\/customers\//.test(r.path))).toEqual([]);
    expect(cases.length).toBeGreaterThan(0);
    for (const k of cases) {
      expect(k.outcome, k.title).toBe('not-allowed');
      expect(k.reason, k.title).toMatch(/not allowed on this target \(allow\.contactUpdate is off\)/);
      expect(k.reason, k.title).not.toMatch(/clean-up problems/);
    }
    expect([...failed]).toEqual([]);
    expect(target.state.customers.get(REFERENCE_TEST_DATA.customer.customerId)?.phoneNumber).toBe(
      REFERENCE_TEST_DATA.customer.phoneNumber,
    );
  });
});
