import type { Limits } from './pacing';

interface Waiter {
  grant: (alone: boolean) => void;
  priority: number;
  /** Waits until nothing else is in flight (until `alone` is cleared after its longest wait). */
  alone: boolean;
}

export interface AcquireOptions {
  /**
   * Start only when no other request is in flight (a read re-checked while the target sheds load), and
   * let none start until it is released: requests of the same or a lower priority that come later wait
   * behind it. After `aloneMaxWaitMs` (default 10 s) of waiting it no longer waits for the others to
   * finish, only for a slot, and is sent beside them.
   */
  alone?: boolean;
  aloneMaxWaitMs?: number;
}

/**
 * At most `concurrency` requests in flight and, when the rate is above 0, starts spaced at least
 * 1/rate seconds apart; none before `notBefore` and none while `hold` (a pause or a hold the pacer asks
 * for). The limits are read at every start: a Pacer (harness/http/pacing.ts) lowers and raises them
 * while the run goes on (call `pump` when they rise). acquire() resolves to a release function that
 * may be called more than once. A freed slot goes to the waiting request with the highest priority,
 * the earliest among equals: a case that others wait for (it holds a lock on a shared record) sends
 * before cases nobody waits for.
 */
export class Limiter {
  private active = 0;
  /** A request sent alone is in flight: nothing else starts. */
  private exclusive = false;
  private readonly waiting: Waiter[] = [];
  private nextStart = 0;
  private readonly limits: () => Limits;

  constructor(concurrency: number | (() => Limits), rateLimitPerSecond = 0) {
    this.limits =
      typeof concurrency === 'function' ? concurrency : () => ({ concurrency, ratePerSecond: rateLimitPerSecond });
  }

  /** Requests holding a slot now. */
  get inFlight(): number {
    return this.active;
  }

  /** Wait for a slot (higher `priority` first); when `signal` aborts first, stop waiting and reject with its reason. */
  async acquire(signal?: AbortSignal, priority = 0, opts: AcquireOptions = {}): Promise<() => void> {
    signal?.throwIfAborted();
    let alone = !!opts.alone;
    if (this.waiting.length > 0 || !this.free(alone)) {
      await new Promise<void>((resolve, reject) => {
        let timer: NodeJS.Timeout | undefined;
        const entry: Waiter = {
          grant: (exclusive) => {
            if (timer) clearTimeout(timer);
            signal?.removeEventListener('abort', onAbort);
            alone = exclusive;
            resolve();
          },
          priority,
          alone,
        };
        const onAbort = () => {
          if (timer) clearTimeout(timer);
          const i = this.waiting.indexOf(entry);
          if (i >= 0) this.waiting.splice(i, 1);
          this.pump();
          reject(signal!.reason);
        };
        // After every waiter of the same or a higher priority.
        const at = this.waiting.findIndex((w) => w.priority < priority);
        this.waiting.splice(at < 0 ? this.waiting.length : at, 0, entry);
        signal?.addEventListener('abort', onAbort, { once: true });
        if (alone) {
          timer = setTimeout(() => {
            entry.alone = false;
            this.pump();
          }, opts.aloneMaxWaitMs ?? 10_000);
        }
        this.pump();
      });
    } else {
      this.active++;
      this.exclusive = alone;
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.active--;
      if (alone) this.exclusive = false;
      this.pump();
    };
    const { ratePerSecond, notBefore = 0 } = this.limits();
    if (ratePerSecond > 0 || notBefore > Date.now()) {
      const now = Date.now();
      const at = Math.max(now, this.nextStart, notBefore);
      this.nextStart = ratePerSecond > 0 ? at + 1000 / ratePerSecond : 0;
      if (at > now) {
        const started = await new Promise<boolean>((resolve) => {
          const onAbort = () => (clearTimeout(t), resolve(false));
          const t = setTimeout(() => (signal?.removeEventListener('abort', onAbort), resolve(true)), at - now);
          signal?.addEventListener('abort', onAbort, { once: true });
        });
        if (!started) {
          release();
          throw signal!.reason;
        }
      }
    }
    return release;
  }

  private free(alone: boolean): boolean {
    const limits = this.limits();
    if (limits.hold || this.exclusive) return false;
    return alone ? this.active === 0 : this.active < limits.concurrency;
  }

  /** Start the waiting requests the limits allow now, in order; one waiting to be alone holds back those behind it. */
  pump(): void {
    while (this.waiting.length > 0 && this.free(this.waiting[0]!.alone)) {
      const next = this.waiting.shift()!;
      this.active++;
      this.exclusive = next.alone;
      next.grant(next.alone);
    }
  }
}
