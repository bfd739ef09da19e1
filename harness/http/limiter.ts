/**
 * At most `concurrency` requests in flight and, when rateLimitPerSecond > 0, starts spaced at least
 * 1/rate seconds apart. acquire() resolves to a release function that may be called more than once.
 */
export class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private nextStart = 0;

  constructor(private readonly concurrency: number, private readonly rateLimitPerSecond: number) {}

  /** Wait for a slot; when `signal` aborts first, stop waiting and reject with its reason. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.active >= this.concurrency) {
      await new Promise<void>((resolve, reject) => {
        const turn = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          const i = this.waiting.indexOf(turn);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(signal!.reason);
        };
        this.waiting.push(turn);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
    this.active++;
    if (this.rateLimitPerSecond > 0) {
      const now = Date.now();
      const at = Math.max(now, this.nextStart);
      this.nextStart = at + 1000 / this.rateLimitPerSecond;
      if (at > now) await new Promise((r) => setTimeout(r, at - now));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.waiting.shift()?.();
    };
  }
}
