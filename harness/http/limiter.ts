/**
 * At most `concurrency` requests in flight and, when rateLimitPerSecond > 0, starts spaced at least
 * 1/rate seconds apart. acquire() resolves to a release function that may be called more than once.
 */
export class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private nextStart = 0;

  constructor(private readonly concurrency: number, private readonly rateLimitPerSecond: number) {}

  async acquire(): Promise<() => void> {
    if (this.active >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
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
