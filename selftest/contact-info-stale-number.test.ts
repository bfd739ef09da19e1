import { describe, expect, test } from 'vitest';
import { openLeftovers } from '../harness/run/leftovers';
import { REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { runAreas } from './_reference';
import { phoneAdvice } from '../suites/contact-info/_unconfirmable';

/**
 * Issue 30: restore advice never proposes a value the run has not proven. The configured phone number is stale
 * (the target holds another one): no update naming it as oldPhoneNumber is ever accepted, so it was never proven
 * on record. Where the run may have changed the number (an update without phoneNumber that a target may take as
 * clearing it), the advice says the number on record before the run is unknown; it never tells the operator to set
 * the stale number, which would overwrite the customer's real one.
 */
const STALE = '5550111';
const real = REFERENCE_TEST_DATA.customer;

describe('a stale configured phone number', () => {
  test('the restore advice names no unproven number', async () => {
    const { cases, target } = await runAreas({
      areas: ['contact-info'],
      // One customer, with a number that is not the one on record.
      configure: (cfg) => ({
        ...cfg,
        testData: { ...cfg.testData, customer: { ...cfg.testData.customer, phoneNumber: STALE }, moreCustomers: [] },
      }),
    });
    // The target kept its own number: nothing the run did proved or set the stale one.
    expect(target.state.customers.get(real.customerId)?.phoneNumber).toBe(real.phoneNumber);
    const phone = openLeftovers(cases).filter((l) => l.what.startsWith('phone number'));
    expect(phone.length, 'the run may have changed the number and cannot confirm it').toBeGreaterThan(0);
    for (const l of phone) {
      expect(l.restore).not.toContain(STALE);
      expect(l.restore).toMatch(/^the number on record before the run is unknown: no update naming the configured/);
      expect(l.restore).toContain('check testData.customer.phoneNumber');
      expect(l.now ?? '').not.toContain(STALE);
    }
    // Every other place that names the number says it may not be the one on record, never "set it".
    for (const c of cases) expect(c.reason ?? '').not.toMatch(new RegExp(`phoneNumber "${STALE}"`));
  });

  test('the advice by what the run knows of the configured number: proven, refused, or no answer either way', () => {
    const start = { number: STALE, countryCode: '1' };
    const describe = (p: { number: string }) => JSON.stringify(p.number);
    const key = 'testData.customer.phoneNumber';
    expect(phoneAdvice(start, 'proven', key, describe)).toBe(`phoneNumber "${STALE}"`);
    expect(phoneAdvice(start, 'refused', key, describe)).not.toContain(STALE);
    expect(phoneAdvice(start, 'unconfirmed', key, describe)).toBe(
      `phoneNumber "${STALE}", as configured in ${key}: no answer of this run confirmed it was on record`,
    );
  });
});
