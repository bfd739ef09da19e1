import { describe, expect, test } from 'vitest';
import { type Flight, Pacer } from '../harness/http/pacing';

/**
 * Issue 34: a target that fails one request in three, whatever the pace, is not shedding load, however its
 * answers cluster under concurrency. On a busy machine many requests start within the same millisecond and
 * the refusals come back first; the pacing counts them in the order the requests were sent (`begin`), so
 * no order of the answers turns a steady one-in-three into a burst. A spike arrest still is one.
 */

/** A small seeded generator (mulberry32): the same orders on every machine. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('pacing: a steady failure rate is not a burst', () => {
  test('one in three refused, a round started in one millisecond, the refusals answered last', () => {
    let t = 1_000_000;
    const p = new Pacer({ concurrency: 32, ratePerSecond: 0 }, () => t);
    let n = 0;
    for (let round = 0; round < 20; round++) {
      // 18 requests start within one millisecond (6 of them refused), one more a millisecond later.
      const sent = Array.from({ length: 18 }, () => ({ f: p.begin(), refused: ++n % 3 === 0 }));
      t += 1;
      const straggler = p.begin();
      ++n;
      t += 1;
      for (const s of sent) if (!s.refused) p.end(s.f, 200);
      t += 1;
      // In the order of the answers the last eight of the round hold six refusals: not a burst in the order sent.
      for (const s of sent) if (s.refused) p.end(s.f, 503);
      t += 1;
      p.end(straggler, 200);
    }
    expect(p.decreases).toBe(0);
    expect(p.pacedTo).toBeUndefined();
  });

  test('the target refuses every third request to reach it, in 200 seeded orders of arrival and answer', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const next = random(seed);
      let t = 1_000_000;
      const p = new Pacer({ concurrency: 16, ratePerSecond: 0 }, () => t);
      let arrived = 0;
      const inFlight: Array<{ f: Flight; refused?: boolean }> = [];
      for (let step = 0; step < 400; step++) {
        // Start what the pace allows (often several in one millisecond); requests in flight reach the target in
        // any order among themselves, and it refuses every third to arrive; the refusals tend to answer first.
        while (inFlight.length < p.limits.concurrency && next() < 0.8) inFlight.push({ f: p.begin() });
        if (next() < 0.5) t += 1;
        for (const r of shuffled(inFlight, next).slice(0, 1 + Math.floor(next() * 4)))
          if (r.refused === undefined) r.refused = ++arrived % 3 === 0;
        const reached = inFlight.filter((r) => r.refused !== undefined);
        const answered = shuffled(reached, next)
          .sort((a, b) => Number(b.refused) - Number(a.refused))
          .slice(0, Math.floor(next() * 4));
        for (const a of answered) {
          inFlight.splice(inFlight.indexOf(a), 1);
          p.end(a.f, a.refused ? 503 : 200);
        }
      }
      expect(p.decreases, `seed ${seed}`).toBe(0);
    }
  });

  test('a spike arrest, 16 requests started in one millisecond at a time, is still a burst', () => {
    let t = 1_000_000;
    const p = new Pacer({ concurrency: 16, ratePerSecond: 0 }, () => t);
    const round = (served: number) => {
      const sent = Array.from({ length: 16 }, () => p.begin());
      t += 1;
      // Above its limit the target refuses at once; the requests it admitted answer later.
      for (const f of sent.slice(served)) p.end(f, 500);
      t += 30;
      for (const f of sent.slice(0, served)) p.end(f, 200);
      t += 1;
    };
    round(4);
    // 16 side by side: a burst needs 32 answers in the order sent, three quarters of them refusals.
    expect(p.decreases).toBe(0);
    round(0);
    round(0);
    expect(p.decreases).toBe(1);
    expect(p.shedding).toBe(true);
  });
});
