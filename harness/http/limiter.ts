/**
 * At most `concurrency` requests in flight and, when rateLimitPerSecond > 0, starts spaced at least
 * 1/rate seconds apart. acquire() resolves to a release function that may be called more than once.
 * A freed slot goes to the waiting request with the highest priority, the earliest among equals: a
 * case that others wait for (it holds a lock on a shared record) sends before cases nobody waits for.
 */
export class Limiter {
  private active = 0;
  private readonly waiting: Array<{ turn: () => void; priority: number }> = [];
  private nextStart = 0;

  constructor(private readonly concurrency: number, private readonly rateLimitPerSecond: number) {}

  /** Wait for a slot (higher `priority` first); when `signal` aborts first, stop waiting and reject with its reason. */
  async acquire(signal?: AbortSignal, priority = 0): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.active >= this.concurrency) {
      await new Promise<void>((resolve, reject) => {
        const turn = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const entry = { turn, priority };
        const onAbort = () => {
          const i = this.waiting.indexOf(entry);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(signal!.reason);
        };
        // After every waiter of the same or a higher priority.
        const at = this.waiting.findIndex((w) => w.priority < priority);
        this.waiting.splice(at < 0 ? this.waiting.length : at, 0, entry);
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
      this.waiting.shift()?.turn();
    };
  }
}
