import { describe, expect, test } from 'vitest';
import { FAULTS } from '../reference-target/faults';
import { explain, runAreas } from './_reference';

/**
 * Every named fault of the reference target is caught by the check for the rule it breaks, and by
 * nothing unrelated: the failed requirements are exactly those the fault declares (plus its declared
 * collateral), and no case crashes.
 */
/**
 * The table in `of` shards (selftest/faults.test.ts, faults-2.test.ts, …): the fault table is the self-tests' longest
 * file, and one file runs in one worker, so a shard each lets the workers share it. Fault k goes to shard k mod `of`;
 * `npx vitest run -c selftest/vitest.config.ts faults -t NAME` runs a fault whichever shard holds it.
 */
export function faultTable(shard: number, of: number): void {
  const mine = FAULTS.filter((_f, k) => k % of === shard);
  describe(`each reference fault is caught by the check for its rule (shard ${shard + 1} of ${of})`, () => {
    test.each(mine.map((f) => [f.name, f] as const))('%s', async (_name, fault) => {
      const { cases, failed } = await runAreas({ areas: [fault.area], faults: [fault.name], strict: fault.strict });
      // A refusal the fault leaves without its control (the operation served nowhere) is could not test,
      // with the setup key to check: that is the honest verdict, not a crash.
      const errors = cases.filter((c) => c.outcome === 'error' || (c.outcome === 'could-not-test' && !c.setup));
      expect(explain(errors), 'no case may crash or lose its connection').toBe('');
      for (const id of fault.breaks)
        expect([...failed], `${fault.name} must be caught as ` + `${id}\n${explain(cases)}`).toContain(id);
      const allowed = new Set([...fault.breaks, ...(fault.collateral ?? [])]);
      expect(
        [...failed].filter((id) => !allowed.has(id)),
        `only the rule ${fault.name} breaks may ` + `fail\n${explain(cases)}`,
      ).toEqual([]);
      if (fault.strict) {
        const lenient = await runAreas({ areas: [fault.area], faults: [fault.name], strict: false });
        expect([...lenient.failed], 'a SHOULD/INFO fault fails the run only under --strict').toEqual([]);
      }
    });
  });
}
