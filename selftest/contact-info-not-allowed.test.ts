import { describe, expect, test } from 'vitest';
import { OPERATIONS } from '../harness/operations';
import { REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { runAreas } from './_reference';

describe('contact-info with allow.contactUpdate off', () => {
  test('sends no contact update and reports every case skipped with the reason', async () => {
    const { cases, target, failed } = await runAreas({
      areas: ['contact-info'],
      allow: { contactUpdate: false },
      strict: true,
    });
    // The cases of the operations behind the switch (a read of contact data would need none), by their section.
    const switched = new Set(
      Object.values(OPERATIONS).flatMap((o) => (o.mutates === 'contactUpdate' ? [o.section] : [])),
    );
    const writes = cases.filter((k) => switched.has(k.operation));
    const written = (r: { method: string; path: string }) =>
      r.method !== 'GET' && /contact-info|\/customers\//.test(r.path);
    expect(target.received.filter(written)).toEqual([]);
    expect(writes.length).toBeGreaterThan(0);
    for (const k of writes) {
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
