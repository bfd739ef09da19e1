import { describe, expect, test } from 'vitest';
import { AREAS, type Area } from '../harness/model';
import { FAULTS } from '../reference-target/faults';
import { ACTIVE_CAPTURE_DIFFERENCES } from './active-capture-differences';
import { brokenRequirements, judgeFile, recordActiveRun } from './_recorded-run';

/**
 * Issue 32, "a self-test proves that an active run and the same run's capture get the same verdict per
 * requirement": the suite's own run, made through the recorder (npm run record), is judged twice: as it ran (its
 * cases and its whole run log, harness/verdict/run-log-verdicts.ts) and as --traffic judges the HAR the recorder wrote.
 * Per requirement, failed in one is failed in the other, except where ACTIVE_CAPTURE_DIFFERENCES names the
 * requirement and the reason (a capture cannot know what the active run knew).
 */
const TARGETS: Array<{ fault?: string; areas: Area[] }> = [
  { areas: [...AREAS] },
  ...[
    'op1-envelope-renamed',
    'op7-deletes-declined-records',
    'op8-revoke-answers-204',
    'op9-amount-as-string',
    'op10-mismatch-accepted-after-a-change',
    'op10-unsupplied-phone-cleared',
  ].map((fault) => ({ fault, areas: [FAULTS.find((f) => f.name === fault)!.area] })),
];

describe('an active run and the capture of the same run get the same verdict per requirement', () => {
  test('every area is among the faults compared', () => {
    expect(new Set(TARGETS.filter((t) => t.fault).flatMap((t) => t.areas))).toEqual(new Set(AREAS));
    const known = new Set(['', ...FAULTS.map((f) => f.name)]);
    expect(Object.keys(ACTIVE_CAPTURE_DIFFERENCES).filter((k) => !known.has(k))).toEqual([]);
  });

  test.each(TARGETS.map((t) => [t.fault ?? 'the faultless target', t] as const))(
    '%s',
    async (_name, { fault, areas }) => {
      const rec = await recordActiveRun({ areas, faults: fault ? [fault] : [] });
      const captured = brokenRequirements(await judgeFile(rec.har, rec.config));
      const active = rec.active.failed;
      const listed = ACTIVE_CAPTURE_DIFFERENCES[fault ?? ''] ?? {};
      const unexplained = [
        ...[...active].filter((id) => !captured.has(id) && !listed[id]).map((id) => `active only: ${id}`),
        ...[...captured].filter((id) => !active.has(id) && !listed[id]).map((id) => `capture only: ${id}`),
      ];
      expect(unexplained, `active [${[...active]}], capture [${[...captured]}]`).toEqual([]);
      // A listed active-only failure is one the rules say a capture of the same exchanges does not reach.
      const reached = Object.keys(listed).filter((id) =>
        rec.active.cases.some((c) => c.checks.some((k) => k.requirement === id && k.capture?.fails === true)),
      );
      expect(reached, 'listed, yet a capture of the same exchanges fails it').toEqual([]);
      if (fault) expect(active.size, 'the fault is caught').toBeGreaterThan(0);
    },
    300_000,
  );
});
