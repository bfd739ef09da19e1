import { describe, expect, test } from 'vitest';
import { EXIT } from '../harness/run/results';
import { everyNth, expectTargetAsFound, falseFailures, runFlaky } from './_flaky-proxy';
import { MILLISECOND_TIMINGS as timings } from './_timings';

/**
 * A conformant target that misbehaves at the transport level only (the reference target behind a
 * flaky proxy) gets an honest verdict, never a failure, and is left exactly as found: every
 * configured customer's phone number, country code, e-mail and postal address, and no user
 * disclosure record of the run. Each test is one observation of issue 10. The proxy answers in
 * milliseconds: clean-up floors and back-offs are the millisecond ones of _timings.ts, except for the
 * 429 test, which runs the clean-up retry at the product's defaults. Writes whose answer is lost:
 * flaky-target-lost-answers.test.ts.
 *
 * The seeds of the first test are FLAKY_FIRST_SEED (default 1) and the nine after it: run it over many
 * seeds with `for s in 1 11 21; do FLAKY_FIRST_SEED=$s npx vitest run --config selftest/vitest.config.ts
 * selftest/flaky-target.test.ts -t '10 runs'; done` (docs/benchmarks.md says how many were run).
 */
/**
 * The proxy answers every request here (503, 429 or the target's answer): the request time-out only stops a hang,
 * with room for a busy machine. At 5 s, under load 20 (npm run test:stress) a local answer took longer, three such
 * made the client declare the target dead, and the clean-ups' window closed on a restore (issue 34).
 */
const ANSWERED_WITHIN_MS = 60_000;
const FIRST_SEED = Number(process.env.FLAKY_FIRST_SEED ?? 1);
if (!Number.isInteger(FIRST_SEED)) throw new Error(`FLAKY_FIRST_SEED must be an integer (got ${FIRST_SEED})`);
describe.concurrent('a conformant target that answers 503 to every 3rd request (HTML body, not processed)', () => {
  test('10 runs: no false failure, nothing left behind, every customer and record as found', async () => {
    // Ten independent runs side by side (each its own target and proxy), so the test stays quick.
    const runs = await Promise.all(
      Array.from({ length: 10 }, (_, i) => FIRST_SEED + i).map((seed) =>
        runFlaky({
          plan: everyNth(3, { kind: '503', applied: false }),
          areas: ['disclosures', 'contact-info'],
          seed,
          http: { timeoutMs: ANSWERED_WITHIN_MS },
          timings,
        }),
      ),
    );
    for (const [i, r] of runs.entries()) {
      const seed = FIRST_SEED + i;
      expect(falseFailures(r.cases), `seed ${seed}`).toEqual([]);
      expect(
        r.leftovers.map((l) => `${l.what}: ${l.why}`),
        `seed ${seed}`,
      ).toEqual([]);
      expect([EXIT.CONFORMANT, EXIT.COULD_NOT_TEST]).toContain(r.exitCode);
      expectTargetAsFound(r);
      // A steady one in three is not a target shedding load (issue 34): the client was never slowed down.
      expect(r.decreases, `seed ${seed}`).toBe(0);
    }
  });
});

describe.concurrent('a conformant target that answers 503 to every 3rd write', () => {
  test.each([
    ['not applied', false],
    ['applied before the 503', true],
  ] as const)('%s: no false failure, nothing left behind, as found (3 runs)', async (_name, applied) => {
    const runs = await Promise.all(
      [1, 2, 3].map((seed) =>
        runFlaky({
          plan: everyNth(3, { kind: '503', applied }, 'writes'),
          areas: ['disclosures', 'contact-info'],
          seed,
          http: { timeoutMs: ANSWERED_WITHIN_MS },
          timings,
        }),
      ),
    );
    for (const [i, r] of runs.entries()) {
      const seed = i + 1;
      expect(falseFailures(r.cases), `seed ${seed}`).toEqual([]);
      expect(
        r.leftovers.map((l) => `${l.what}: ${l.why}`),
        `seed ${seed}`,
      ).toEqual([]);
      expectTargetAsFound(r);
    }
  });
});

describe.concurrent('a conformant target that answers 429 with Retry-After: 2 to every 2nd request', () => {
  test('the restores wait and try again until they are confirmed: no false failure, as found', async () => {
    const r = await runFlaky({
      plan: everyNth(2, { kind: '429', retryAfter: '2' }),
      areas: ['contact-info'],
      http: { timeoutMs: ANSWERED_WITHIN_MS },
    });
    expect(falseFailures(r.cases)).toEqual([]);
    expect(r.leftovers.map((l) => `${l.what}: ${l.why}`)).toEqual([]);
    expectTargetAsFound(r);
    // The clean-up retry did its part: some clean-up request was tried again after a 429.
    expect(r.cases.flatMap((c) => c.exchanges).some((e) => /clean-up retry/.test(e.label ?? ''))).toBe(true);
  });
});
