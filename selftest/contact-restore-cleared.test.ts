import { describe, expect, test } from 'vitest';
import { REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { runAreas } from './_reference';

const ALL = [REFERENCE_TEST_DATA.customer, ...REFERENCE_TEST_DATA.moreCustomers];

/**
 * The restore's "" (a number an update without the phone may have cleared) is read from the run's log
 * (harness/state/contact-candidates.ts), not a flag a case sets: on a target that clears the number on an update
 * that supplies only the e-mail address, the restore names "" as oldPhoneNumber and leaves every customer as found.
 */
describe('a number cleared by an e-mail update alone is set back from the run log', () => {
  test('with the hold-out fault ho-op10-email-alone-clears-phone', async () => {
    const { target, cases } = await runAreas({ areas: ['contact-info'], faults: ['ho-op10-email-alone-clears-phone'] });
    for (const x of ALL)
      expect(target.state.customers.get(x.customerId)?.phoneNumber, x.customerId).toBe(x.phoneNumber);
    const fromCleared = cases
      .flatMap((c) => c.exchanges)
      .filter((x) => /^restore the phone number from ""/.test(x.label ?? '') && x.response?.status === 204);
    expect(fromCleared.length, 'the restore set the number back from ""').toBeGreaterThan(0);
  });
});
