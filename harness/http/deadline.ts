/**
 * A hard deadline for one request: whatever the HTTP library does with its own timeouts and abort
 * signals (undici has been seen to hold a request past both, after it refused an invalid header
 * value), the request settles within the deadline.
 */

export class DeadlineExceeded extends Error {
  override name = 'DeadlineExceeded';
  constructor(readonly ms: number) {
    super(`no complete answer within ${ms} ms`);
  }
}

import { afterIo, type Bound } from './loop-bound';

export class Deadline {
  private readonly timer: Bound;
  private expired = false;
  private readonly waiting = new Set<(e: Error) => void>();

  /** Starts now; `onExpire` releases what the request holds (its socket, its body). */
  constructor(
    readonly ms: number,
    private readonly onExpire?: () => void,
  ) {
    // After the I/O received by then (loop-bound.ts): an answer that came in time is not lost to a starved loop.
    this.timer = afterIo(ms, () => {
      this.expired = true;
      try {
        this.onExpire?.();
      } finally {
        for (const reject of this.waiting) reject(new DeadlineExceeded(ms));
      }
    });
  }

  /** `work`, or DeadlineExceeded when the deadline passes first. */
  guard<T>(work: Promise<T>): Promise<T> {
    if (this.expired) {
      work.catch(() => undefined);
      return Promise.reject(new DeadlineExceeded(this.ms));
    }
    return new Promise<T>((resolve, reject) => {
      this.waiting.add(reject);
      work.then(
        (v) => {
          this.waiting.delete(reject);
          resolve(v);
        },
        (e) => {
          this.waiting.delete(reject);
          reject(e);
        },
      );
    });
  }

  /** The request is over: the timer stops. */
  clear(): void {
    this.timer.clear();
    this.waiting.clear();
  }
}
