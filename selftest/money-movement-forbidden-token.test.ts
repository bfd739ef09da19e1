import { describe, expect, test } from 'vitest';
import { runAreas } from './_reference';

describe('the 403 case of operation 9 needs a valid-but-unauthorized token', () => {
  test(
    'without credentials.transfersForbiddenToken it is not ' + 'applicable, with the reason, and sends nothing',
    async () => {
      const { cases } = await runAreas({
        areas: ['money-movement'],
        strict: true,
        configure: (cfg) => ({ ...cfg, credentials: { ...cfg.credentials, transfersForbiddenToken: undefined } }),
      });
      const forbidden = cases.find((c) => c.title.includes('lacks authorization'))!;
      expect(forbidden.outcome).toBe('not-applicable');
      expect(forbidden.reason).toMatch(/transfersForbiddenToken/);
      expect(forbidden.exchanges).toEqual([]);
      expect(cases.filter((c) => c !== forbidden).every((c) => c.outcome === 'passed')).toBe(true);
    },
  );
});
