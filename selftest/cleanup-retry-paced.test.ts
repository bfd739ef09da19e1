import { describe, expect, test } from 'vitest';
import { CLEANUP_MIN_TRIES, CleanupDeadlineError, sendUntilAnswered } from '../harness/http/cleanup-retry';
import { TransportError, type HttpResult } from '../harness/http/client';

/**
 * Issue 34: a clean-up request answered 503 while the target sheds load is not given up when its own time
 * passes; it is tried again, at the paced rate, until it is answered or the clean-ups' deadline passes. The
 * deadline here is counted in tries (read before every try), not in time: nothing depends on the machine's speed.
 */

const unavailable = () => new TransportError('unavailable', 'the target answered 503 while it was shedding load');

/** Tries `attempts` fail (503), then the request is answered; the deadline passes before try `deadlineAt`. */
async function retried(o: { attempts: number; deadlineAt: number; paced: boolean }) {
  let tries = 0;
  const answered = { status: 204 } as HttpResult;
  const result = await sendUntilAnswered(
    async () => {
      tries++;
      if (tries <= o.attempts) throw unavailable();
      return answered;
    },
    {
      deadline: () => (tries < o.deadlineAt ? Date.now() + 60_000 : Date.now() - 1),
      until: Date.now() - 1, // the request's own time has passed from the start
      paced: () => o.paced,
      backoffMs: [1],
    },
  ).catch((e: unknown) => e);
  return { tries, result, answered };
}

describe('the clean-up retry while the client is paced', () => {
  test('unpaced, a request whose own time passed is tried CLEANUP_MIN_TRIES times', async () => {
    const r = await retried({ attempts: 100, deadlineAt: 40, paced: false });
    expect(r.tries).toBe(CLEANUP_MIN_TRIES);
    expect(r.result).toBeInstanceOf(CleanupDeadlineError);
  });

  test('paced, it is tried until the clean-ups deadline passes', async () => {
    const r = await retried({ attempts: 100, deadlineAt: 40, paced: true });
    expect(r.tries).toBe(40);
    expect(r.result).toBeInstanceOf(CleanupDeadlineError);
    expect((r.result as Error).message).toMatch(/the clean-up deadline passed \(tried 40 times\)/);
  });

  test('paced, it is tried until it is answered', async () => {
    const r = await retried({ attempts: 2 * CLEANUP_MIN_TRIES, deadlineAt: 40, paced: true });
    expect(r.tries).toBe(2 * CLEANUP_MIN_TRIES + 1);
    expect(r.result).toBe(r.answered);
  });
});
