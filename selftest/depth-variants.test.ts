import { describe, expect, test } from 'vitest';
import { explain, runAreas } from './_reference';

/**
 * Targets that make other legitimate choices where a check of rule depth could trip: every case passes,
 * even under --strict.
 */
describe('rule-depth checks on other conformant targets', () => {
  test('revocation: a non-numeric institutionId answered 404 with no body passes', async () => {
    const { cases } = await runAreas({
      areas: ['authentication'],
      faults: ['op8-unknown-institution-404'],
      strict: true,
    });
    expect(explain(cases)).toBe('');
    const numeric = cases.find((c) => c.requirements.includes('OP8-INSTITUTIONID-NUMERIC'))!;
    expect(numeric.exchanges.at(-1)!.response!.status).toBe(404);
  });

  test(
    'transfers: an answer with the values the target assigns ' + 'itself (id, fee, execution dates …) passes',
    async () => {
      const { cases } = await runAreas({ areas: ['money-movement'], faults: ['op9-assigns-own-values'], strict: true });
      expect(explain(cases)).toBe('');
      const every = cases.find((c) => c.requirements.includes('OP9-REQUEST-EVERY-MEMBER'))!;
      expect(JSON.parse(every.exchanges.at(-1)!.response!.body).fee.amount).toBe(0.25);
    },
  );
});
