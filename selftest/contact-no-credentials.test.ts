import { describe, expect, test } from 'vitest';
import { REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { explain, runAreas } from './_reference';

const ALL = [REFERENCE_TEST_DATA.customer, ...REFERENCE_TEST_DATA.moreCustomers];

/**
 * "Authentication of the contact-info operations: not shown": a target may take none, and the operator then
 * configures none (credentials.contactInfoHeaders `{}`). A request sent with the configured credentials, none at all,
 * is the run's own, as configured (harness/credentials.ts): served, it proves them; the run's log counts it among the
 * run's writes, so the restore knows what it changed. Before, every such request counted as sent without credentials:
 * 7 tests were could not test ("no request to that operation was served with the configured credentials"), and the
 * phone believed on record ignored the run's own updates.
 */
describe('a contact-info operation configured with no credentials', () => {
  test('is tested, judged conformant, and every customer ends as found', async () => {
    const { target, cases, failed } = await runAreas({
      areas: ['contact-info'],
      faults: ['op10-serves-without-credentials'],
      configure: (cfg) => ({ ...cfg, credentials: { ...cfg.credentials, contactInfoHeaders: {} } }),
    });
    const notTested = cases.filter((c) => c.outcome === 'could-not-test');
    expect(
      notTested.map((c) => c.title),
      explain(notTested),
    ).toEqual([]);
    expect([...failed], explain(cases)).toEqual([]);
    const served = cases.flatMap((c) => c.exchanges).filter((x) => x.response?.status === 204);
    expect(served.length, 'updates served without credentials').toBeGreaterThan(0);
    expect(
      served.every((x) => x.credentials?.includes('contactInfo')),
      'each carries the configured none',
    ).toBe(true);
    for (const x of ALL) {
      const now = target.state.customers.get(x.customerId);
      expect(now?.phoneNumber, x.customerId).toBe(x.phoneNumber);
      expect(now?.emailAddress, x.customerId).toBe(x.emailAddress);
    }
  });
});
