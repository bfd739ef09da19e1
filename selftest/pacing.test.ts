import { afterEach, describe, expect, test, vi } from 'vitest';
import { Limiter } from '../harness/http/limiter';
import { CALM_MS, DECREASE_PAUSE_MS, Pacer, PROBE_CALM_MS, SLOW_START } from '../harness/http/pacing';

/**
 * Issue 20, the pace a throttled target is sent at (harness/http/pacing.ts) and the limiter that keeps to it, on a
 * fake clock or fake timers: no assertion looks at wall time. The client and the throttled reference target are
 * selftest/throttled-target.test.ts.
 */

afterEach(() => {
  vi.useRealTimers();
});

/** A clock the test moves by hand. */
function fakeClock(start = 1_000_000) {
  let t = start;
  return { now: () => t, tick: (ms: number) => (t += ms) };
}

describe('pacing (harness/http/pacing.ts), on a fake clock', () => {
  const answer = (p: Pacer, clock: { now: () => number; tick: (ms: number) => number }, status: number, n = 1) => {
    for (let i = 0; i < n; i++) {
      p.observe(status, clock.now() - 5, clock.now());
      clock.tick(5);
    }
  };

  test('a burst of 500s halves the requests in flight and the rate the target accepted, then pauses', () => {
    const clock = fakeClock();
    const p = new Pacer({ concurrency: 8, ratePerSecond: 0 }, clock.now);
    answer(p, clock, 200, 10);
    answer(p, clock, 500, 2);
    expect(p.pacedTo).toBeUndefined(); // two 500s are no burst
    answer(p, clock, 500, 4); // six of the last eight answers
    expect(p.pacedTo).toEqual({ concurrency: 4, ratePerSecond: 5 }); // it accepted 10 in the last second
    expect(p.shedding).toBe(true);
    expect(p.limits.notBefore).toBe(clock.now() - 5 + DECREASE_PAUSE_MS);
    expect(p.decreases).toBe(1);
  });

  test('429, 502, 503 and 504 count as 500 does; other answers do not', () => {
    for (const status of [429, 502, 503, 504]) {
      const clock = fakeClock();
      const p = new Pacer({ concurrency: 8, ratePerSecond: 20 }, clock.now);
      answer(p, clock, 200);
      answer(p, clock, status, 3);
      // 8 in flight halved; the rate from what the target accepted (1 in the last second) to the floor.
      expect(p.pacedTo, String(status)).toEqual({ concurrency: 4, ratePerSecond: 1 });
    }
    const clock = fakeClock();
    const p = new Pacer({ concurrency: 8, ratePerSecond: 0 }, clock.now);
    for (const status of [400, 401, 403, 404, 409, 422, 501]) answer(p, clock, status, 3);
    expect(p.pacedTo).toBeUndefined();
  });

  test('a target that serves nothing is down, not shedding load: it is not paced', () => {
    const clock = fakeClock();
    const p = new Pacer({ concurrency: 8, ratePerSecond: 0 }, clock.now);
    answer(p, clock, 503, 20);
    expect(p.pacedTo).toBeUndefined();
    expect(p.shedding).toBe(false);
    clock.tick(3_000);
    answer(p, clock, 200);
    answer(p, clock, 503, 3); // it served something: now the 503s are a burst
    expect(p.pacedTo).toEqual({ concurrency: 4, ratePerSecond: 1 });
  });

  test('a configured rate is halved when the target accepted at least as much', () => {
    const clock = fakeClock();
    const p = new Pacer({ concurrency: 3, ratePerSecond: 6 }, clock.now);
    answer(p, clock, 200, 8);
    answer(p, clock, 500, 6);
    expect(p.pacedTo).toEqual({ concurrency: 1, ratePerSecond: 3 });
  });

  test('a target that fails one request in three whatever the pace is not a burst', () => {
    const clock = fakeClock();
    const p = new Pacer({ concurrency: 16, ratePerSecond: 0 }, clock.now);
    for (let i = 0; i < 60; i++) answer(p, clock, i % 3 === 2 ? 503 : 200);
    expect(p.pacedTo).toBeUndefined();
    for (let i = 0; i < 60; i++) answer(p, clock, i % 2 ? 429 : 200); // nor one in two
    expect(p.pacedTo).toBeUndefined();
  });

  test('answers to requests sent before a decrease do not decrease it again; new ones do, down to the floors', () => {
    const clock = fakeClock();
    const p = new Pacer({ concurrency: 8, ratePerSecond: 8 }, clock.now);
    answer(p, clock, 200, 4);
    answer(p, clock, 500, 6);
    expect(p.pacedTo).toEqual({ concurrency: 4, ratePerSecond: 2 });
    const before = clock.now() - 10;
    for (let i = 0; i < 10; i++) p.observe(500, before, clock.tick(5));
    expect(p.decreases).toBe(1);
    expect(p.shedding).toBe(true);
    answer(p, clock, 500, 3); // sent after the decrease
    expect(p.pacedTo).toEqual({ concurrency: 2, ratePerSecond: 1 });
    answer(p, clock, 500, 3);
    answer(p, clock, 500, 3);
    expect(p.pacedTo).toEqual({ concurrency: 1, ratePerSecond: 1 });
  });

  test('recovers after calm periods, one step at a time, up to near the rate the target accepted, then slowly', () => {
    const clock = fakeClock();
    const p = new Pacer({ concurrency: 8, ratePerSecond: 0 }, clock.now);
    answer(p, clock, 200, 10);
    answer(p, clock, 500, 6);
    expect(p.pacedTo).toEqual({ concurrency: 4, ratePerSecond: 5 });
    clock.tick(CALM_MS - 100);
    expect(p.pacedTo).toEqual({ concurrency: 4, ratePerSecond: 5 }); // not calm for long enough yet
    clock.tick(100);
    expect(p.pacedTo).toEqual({ concurrency: 5, ratePerSecond: 6 });
    expect(p.shedding).toBe(false);
    clock.tick(CALM_MS);
    answer(p, clock, 500); // a lone 500 is no burst, but the calm period starts again
    expect(p.pacedTo).toEqual({ concurrency: 6, ratePerSecond: 7 });
    clock.tick(CALM_MS - 10);
    expect(p.pacedTo).toEqual({ concurrency: 6, ratePerSecond: 7 });
    clock.tick(10 + CALM_MS);
    expect(p.pacedTo).toEqual({ concurrency: 7, ratePerSecond: 8 }); // 80 % of the 10/s the target accepted
    clock.tick(10 * CALM_MS);
    expect(p.pacedTo).toEqual({ concurrency: 7, ratePerSecond: 8 }); // from there on, a step per PROBE_CALM_MS
    clock.tick(PROBE_CALM_MS);
    expect(p.pacedTo).toEqual({ concurrency: 8, ratePerSecond: 9 });
    clock.tick(11 * PROBE_CALM_MS);
    expect(p.pacedTo).toBeUndefined(); // back to the configured values (no rate limit: twice the accepted rate)
    expect(p.limits).toEqual({ concurrency: 8, ratePerSecond: 0 });
  });

  test('a run starts slowly: SLOW_START in flight, doubled each time as many answers came without 429/5xx', () => {
    const clock = fakeClock();
    const p = new Pacer({ concurrency: 50, ratePerSecond: 0 }, clock.now);
    expect(p.limits.concurrency).toBe(SLOW_START);
    answer(p, clock, 200, SLOW_START - 1);
    answer(p, clock, 503);
    expect(p.limits.concurrency).toBe(SLOW_START); // a 503 does not count
    answer(p, clock, 200);
    expect(p.limits.concurrency).toBe(2 * SLOW_START);
    answer(p, clock, 404, 2 * SLOW_START); // any answer but 429/5xx counts
    expect(p.limits.concurrency).toBe(4 * SLOW_START);
    answer(p, clock, 200, 4 * SLOW_START);
    expect(p.limits.concurrency).toBe(50);
    expect(p.pacedTo).toBeUndefined(); // starting slowly is not being paced
    expect(new Pacer({ concurrency: SLOW_START, ratePerSecond: 0 }, clock.now).limits.concurrency).toBe(SLOW_START);
  });

  test('a 500 is settled: nothing starts until what was in flight with it is answered; a burst covers it', async () => {
    vi.useFakeTimers({ now: 0 });
    const p = new Pacer({ concurrency: 8, ratePerSecond: 0 });
    p.end(p.begin(), 200); // the target serves
    const flights = [p.begin(), p.begin(), p.begin()];
    await vi.advanceTimersByTimeAsync(1);
    const later = p.begin();
    const at = p.end(flights[0]!, 500);
    let settled = false;
    const settling = p.settle(at).then(() => (settled = true));
    expect(p.limits.hold).toBe(true);
    p.end(flights[1]!, 500); // no burst yet: a request sent with these is still in flight
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(false);
    p.end(flights[2]!, 500); // the third: a burst, which covers the first answer
    await settling;
    expect(p.covers(at)).toBe(true);
    expect(p.limits.hold).toBeUndefined();
    p.end(later);
  });

  test('the share of refusals is counted in the order the requests were sent, not answered', () => {
    const clock = fakeClock();
    const p = new Pacer({ concurrency: 16, ratePerSecond: 0 }, clock.now);
    // One request in two is refused at once; the served ones answer later: in the order of the
    // answers, refusals come in a row.
    for (let round = 0; round < 5; round++) {
      const sent = Array.from({ length: 16 }, () => (clock.tick(1), p.begin()));
      clock.tick(1);
      sent.filter((_, i) => i % 2).forEach((f) => p.end(f, 429));
      clock.tick(30);
      sent.filter((_, i) => i % 2 === 0).forEach((f) => p.end(f, 200));
    }
    expect(p.decreases).toBe(0);
  });

  test('a lone 500 is settled after the answers in flight with it and a few more, or its longest wait', async () => {
    vi.useFakeTimers({ now: 0 });
    const p = new Pacer({ concurrency: 8, ratePerSecond: 0 });
    const a = p.begin();
    const b = p.begin();
    const at = p.end(a, 500);
    let settled = false;
    void p.settle(at, 2_000).then(() => (settled = true));
    p.end(b, 200);
    expect(p.limits.hold).toBeUndefined(); // what was in flight with it is answered
    await vi.advanceTimersByTimeAsync(1_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
    expect(p.covers(at)).toBe(false);
  });
});

describe('the limiter follows the pace', () => {
  test('a request sent alone waits until nothing is in flight, and holds back later ones of its priority', async () => {
    const l = new Limiter(4, 0);
    const first = await l.acquire();
    const second = await l.acquire();
    const order: string[] = [];
    const alone = l.acquire(undefined, 0, { alone: true }).then((r) => (order.push('alone'), r));
    const later = l.acquire(undefined, 0).then((r) => (order.push('later'), r));
    const urgent = l.acquire(undefined, 1).then((r) => (order.push('urgent'), r));
    const tick = () => new Promise((r) => setTimeout(r, 5));
    await tick();
    // A higher priority goes first; the one to be sent alone waits for the three in flight, the later one behind it.
    expect(order).toEqual(['urgent']);
    first();
    (await urgent)();
    await tick();
    expect(order).toEqual(['urgent']);
    second();
    const release = await alone;
    expect(l.inFlight).toBe(1);
    await tick();
    expect(order).toEqual(['urgent', 'alone']); // nothing starts beside it
    release();
    (await later)();
    expect(order).toEqual(['urgent', 'alone', 'later']);
  });

  test('lowered limits hold new starts; raised ones start the waiting requests (pump)', async () => {
    let pace = { concurrency: 2, ratePerSecond: 0 };
    const l = new Limiter(() => pace);
    const a = await l.acquire();
    await l.acquire();
    pace = { concurrency: 1, ratePerSecond: 0 };
    a();
    let started = false;
    const waiting = l.acquire().then((r) => ((started = true), r));
    await new Promise((r) => setTimeout(r, 5));
    expect(started).toBe(false); // one in flight, the limit is 1
    pace = { concurrency: 3, ratePerSecond: 0 };
    l.pump();
    await waiting;
    expect(started).toBe(true);
  });
});
