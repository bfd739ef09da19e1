import { describe, expect, test } from 'vitest';
import { AREAS } from '../harness/model';
import { explain, runAreas } from './_reference';

describe('the suites against the faultless reference target', () => {
  for (const area of AREAS) {
    test(`${area}: every case passes, none is skipped or not applicable`, async () => {
      const { cases } = await runAreas({ areas: [area], strict: true });
      expect(cases.length, `area ${area} has no case`).toBeGreaterThan(0);
      expect(explain(cases)).toBe('');
    });
  }
});
