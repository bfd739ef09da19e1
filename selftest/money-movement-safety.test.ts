import { describe, expect, test } from 'vitest';
import { runAreas } from './_reference';

/**
 * With allow.moneyMovement and allow.tokenRevocation off, the authentication and money-movement areas
 * send nothing to the revoke and transfer paths, and every case is reported skipped with the reason.
 */
describe('safety switches of operations 8 and 9', () => {
  test('with both switches off, no revocation and no transfer request leaves the machine', async () => {
    const { cases, target } = await runAreas({
      areas: ['authentication', 'money-movement'],
      allow: { moneyMovement: false, tokenRevocation: false },
      strict: true,
    });
    expect(cases.length).toBeGreaterThan(0);
    expect(target.received.filter((r) => /\/revoke|\/transfers/.test(r.path))).toEqual([]);
    expect(target.state.seenRequests).toEqual([]);
    for (const c of cases) {
      expect(c.outcome, c.id).toBe('not-allowed');
      expect(c.reason, c.id).toMatch(
        c.area === 'authentication' ? /allow\.tokenRevocation is off/ : /allow\.moneyMovement is off/,
      );
      expect(c.exchanges, c.id).toEqual([]);
    }
  });

  test('each switch guards only its own operation', async () => {
    const { cases, target } = await runAreas({
      areas: ['authentication', 'money-movement'],
      allow: { moneyMovement: true, tokenRevocation: false },
      strict: true,
    });
    expect(target.received.filter((r) => /\/revoke/.test(r.path))).toEqual([]);
    expect(cases.filter((c) => c.area === 'authentication').every((c) => c.outcome === 'not-allowed')).toBe(true);
    expect(cases.filter((c) => c.area === 'money-movement').every((c) => c.outcome === 'passed')).toBe(true);
  });
});
