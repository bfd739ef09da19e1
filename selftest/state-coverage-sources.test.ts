import { describe, expect, test } from 'vitest';
import { judgeFile, recordActiveRun } from './_recorded-run';

/**
 * Both sources measure the state coverage on their log (harness/state/coverage/): a capture of the suite's own run
 * on the embedded target shows the transitions the run took, read back by the lists and updates it captured.
 */
describe('state coverage of a recorded run', () => {
  test('a capture of a run of the disclosures and contact info takes and reads back transitions of each', async () => {
    const run = await recordActiveRun({ areas: ['disclosures', 'contact-info'] });
    const j = await judgeFile(run.har, run.config);
    const families = j.states?.families ?? [];
    expect(families.map((f) => f.family.replace(/ \(.*/, ''))).toEqual([
      'acceptance records',
      'institution disclosures',
      'contact data',
    ]);
    for (const f of families) {
      const read = f.transitions.filter((t) => t.status === 'read back');
      expect(read.length, f.family).toBeGreaterThan(f.transitions.length / 2);
      for (const t of read) expect(t.readBack!, t.transition).toBeGreaterThan(t.write!);
    }
  });
});
