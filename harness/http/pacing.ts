/**
 * Pacing: a target that sheds load is slowed down to, not failed. A burst of 429 or 5xx answers (500,
 * 502, 503, 504) across operations means the target is shedding load: the client halves the requests
 * in flight and the rate, then recovers gradually after a calm period (additive increase back to the
 * configured values). The anchor is Schemathesis's rate limiting (--rate-limit, and the automatic mode
 * proposed for it in schemathesis/schemathesis#1722); the decrease and recovery are TCP's AIMD.
 *
 * - A burst: at least BURST_MIN such answers within BURST_WINDOW_MS that are also most of the latest
 *   answers (BURST_SHARE of the last BURST_RECENT, in the order the requests were sent, of those sent
 *   before what is still in flight), while the target served something (any other answer) within
 *   BURST_WINDOW_MS: a target that fails one request in two or three whatever the pace, or that
 *   serves nothing at all (it is down, not shedding load), is not helped by slowing down, and is left to
 *   the rules it gets today.
 * - Requests sent side by side reach the target in any order among themselves (a busy machine starts
 *   many in one millisecond, and the connections deliver them as they will): where up to W requests were
 *   in flight beside one of the sample, the sample is the last 2 W answers at least (and then reaches
 *   back up to SAMPLE_LOOKBACK_MS), and no burst is judged on fewer. Of 2 W requests that the target
 *   refused one in three in the order they reached it, at most about two thirds can be refusals in the
 *   order they were sent, whatever the order they arrived in: a steady one-in-three is never a burst
 *   (issue 34).
 * - Only answers to requests sent after the last decrease count towards the next burst: the answers to
 *   what was sent at the old pace say nothing about the new one.
 * - Decrease: the requests in flight are halved (at least 1), the rate is halved (at least
 *   MIN_RATE_PER_SECOND) from the configured rate or, when none is configured or the target accepted
 *   less, from the rate the target accepted in the last second; no request starts for DECREASE_PAUSE_MS.
 * - Shedding goes on while 429/5xx answers keep coming within CALM_MS of each other; every such answer
 *   is counted in the burst.
 * - Recovery: after CALM_MS without a 429/5xx answer, and every CALM_MS from then on, one step up (+1 in
 *   flight, +10 % of the accepted rate, at least +1/s) while the rate stays within NEAR_SHARE of the rate
 *   the target accepted when it shed load; beyond that, one step per PROBE_CALM_MS of calm, back to the
 *   configured values (a rate of twice the accepted one where none is configured). A run of a minute or
 *   so never runs into the target's limit a second time; a longer one may, a little (see `settle`).
 * - Settling: a 500 no shedding period covers yet may be the first answer of a burst; the client waits
 *   (`settle`) before it judges it, and no request starts until what was in flight with it is answered.
 * - Slow start: a run begins with at most SLOW_START requests in flight, doubled each time as many
 *   answers came without a 429/5xx, up to the configured number (TCP's slow start): a target that sheds
 *   load from its first second gets a few requests too many, not the whole configured number at once.
 *
 * Time comes from an injected clock (the self-tests use a fake one); nothing here starts a request.
 */

export interface Pace {
  /** Requests in flight at most. */
  concurrency: number;
  /** Request starts per second at most; 0: no limit. */
  ratePerSecond: number;
}

/** The limits a Limiter (harness/http/limiter.ts) applies. */
export interface Limits extends Pace {
  /** No request starts before this time (epoch ms). */
  notBefore?: number;
  /** No request starts until the limits change. */
  hold?: boolean;
}

export const BURST_MIN = 3;
export const BURST_WINDOW_MS = 2_000;
export const BURST_RECENT = 8;
export const BURST_SHARE = 3 / 4;
/** How far back the sample of a burst may reach when BURST_WINDOW_MS holds fewer answers than it needs. */
export const SAMPLE_LOOKBACK_MS = 10_000;
/** The answers kept for the sample, at most. */
const KEPT_ANSWERS = 256;
export const CALM_MS = 2_000;
export const NEAR_SHARE = 0.8;
export const PROBE_CALM_MS = 30_000;
export const MIN_RATE_PER_SECOND = 1;
/** The requests in flight a run begins with (see the module's comment): the default http.concurrency. */
export const SLOW_START = 8;
/** After a decrease no request starts for this long: a spike arrest counts the requests of the last second. */
export const DECREASE_PAUSE_MS = 1_000;

const SHED_STATUSES = new Set([429, 500, 502, 503, 504]);

/** An answer a target that sheds load gives: 429, 500, 502, 503, 504. */
export function isShedStatus(status: number): boolean {
  return SHED_STATUSES.has(status);
}

interface Answer {
  at: number;
  suspect: boolean;
  sentAt: number;
  /** The order it was sent in (a Flight's id): many requests start in the same millisecond on a busy machine. */
  seq: number;
  /** How many requests were in flight when it was sent. */
  alongside: number;
}

/** Whether `a` was sent before `b`: by the clock, then (in the same millisecond) in the order of `begin`. */
const sentBefore = (a: { sentAt: number; seq: number }, b: { sentAt: number; seq: number }) =>
  a.sentAt < b.sentAt || (a.sentAt === b.sentAt && a.seq < b.seq);

/** One request in flight, from its start to its answer (or failure). */
export interface Flight {
  readonly id: number;
  readonly sentAt: number;
  /** How many requests were in flight when it was sent. */
  readonly alongside: number;
  /** The pace it was sent at, when the client was paced. */
  readonly pacedTo?: Pace;
}

interface Settler {
  at: number;
  before: Set<number>;
  answersAfter: number;
  done: () => void;
}

const round = (n: number) => Math.round(n * 10) / 10;

export class Pacer {
  private current: Pace | undefined;
  private answers: Answer[] = [];
  private lastDecreaseAt = -Infinity;
  private lastChangeAt = -Infinity;
  private lastSuspectAt = -Infinity;
  private pauseUntil = -Infinity;
  /** Slow start: the requests in flight allowed so far, and the answers without 429/5xx since it grew. */
  private window: number | undefined;
  private answeredSinceGrowth = 0;
  /** The shedding period: from (the burst window before it was noticed) to its last 429/5xx answer. */
  private period: { from: number; until: number; burst: number } | undefined;
  /** What the target accepted per second when it last shed load. */
  private acceptedRate = 0;
  private ceilingRate = 0;
  private readonly flights = new Map<number, Flight>();
  private readonly settlers = new Set<Settler>();
  private readonly listeners: Array<() => void> = [];
  private nextId = 0;
  /** How often the pace was decreased (for the self-tests and the reasons). */
  decreases = 0;

  constructor(
    readonly configured: Pace,
    private readonly now: () => number = Date.now,
  ) {
    if (configured.concurrency > SLOW_START) this.window = SLOW_START;
  }

  /**
   * The limits in force now, the time (epoch ms of the clock) before which no request starts, and
   * whether no request starts for now (`hold`: a 500 is being settled, see `settle`).
   */
  get limits(): Limits {
    this.recover(this.now());
    const paused = this.pauseUntil > this.now() ? { notBefore: this.pauseUntil } : {};
    const pace = this.current ?? this.configured;
    const concurrency = Math.min(pace.concurrency, this.window ?? Infinity);
    return { ...pace, concurrency, ...paused, ...(this.holding ? { hold: true } : {}) };
  }

  /** A 500 is being settled and what was in flight with it has not all been answered. */
  get holding(): boolean {
    for (const s of this.settlers) if (s.before.size > 0) return true;
    return false;
  }

  /** The pace the client is slowed down to, or undefined when it runs at the configured values. */
  get pacedTo(): Pace | undefined {
    this.recover(this.now());
    return this.current && { ...this.current };
  }

  /** Called whenever the limits rise or a hold ends (a waiting request may start). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Whether the target is shedding load now: a burst was noticed and 429/5xx answers keep coming. */
  get shedding(): boolean {
    return this.period !== undefined && this.now() - this.period.until < CALM_MS;
  }

  /** How long until a calm period (CALM_MS without a 429/5xx answer) will have passed; 0 or less: calm now. */
  get calmInMs(): number {
    return this.lastSuspectAt + CALM_MS - this.now();
  }

  /** Whether an answer received at `at` falls in a shedding period (the burst window before it included). */
  covers(at: number): boolean {
    return this.period !== undefined && this.period.from <= at && at <= this.period.until;
  }

  /** How many 429/5xx answers made up the burst that was noticed last. */
  get burstSize(): number {
    return this.period?.burst ?? 0;
  }

  /** A request is sent. */
  begin(): Flight {
    const f: Flight = {
      id: ++this.nextId,
      sentAt: this.now(),
      alongside: this.flights.size,
      ...(this.current ? { pacedTo: { ...this.current } } : {}),
    };
    this.flights.set(f.id, f);
    return f;
  }

  /**
   * A request ended (answered, failed or abandoned); `status` when it got an HTTP answer. A `recheck`
   * (a read sent again alone at a calm moment) answered 429/5xx is not counted: it tells about that
   * request, not about the load. Returns the answer time.
   */
  end(f: Flight, status?: number, recheck = false): number {
    const now = this.now();
    this.flights.delete(f.id);
    if (status !== undefined && !(recheck && isShedStatus(status))) this.observe(status, f.sentAt, now, f);
    this.wakeSettlers(now);
    return now;
  }

  /**
   * Wait until what was in flight when an answer came at `at` has been answered and BURST_RECENT
   * answers more have come, so that a burst this answer is the start of is noticed; at most `maxMs`.
   * Resolves at once when a shedding period already covers `at`, and as soon as one does. Until what
   * was in flight has been answered, no request starts (`hold`): a target that starts shedding load
   * gets no more requests than were in flight.
   */
  settle(at: number, maxMs: number = BURST_WINDOW_MS): Promise<void> {
    if (this.covers(at)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const s: Settler = {
        at,
        before: new Set([...this.flights.values()].filter((f) => f.sentAt <= at).map((f) => f.id)),
        answersAfter: 0,
        done: () => {
          clearTimeout(timer);
          this.settlers.delete(s);
          this.changed();
          resolve();
        },
      };
      const timer = setTimeout(s.done, maxMs);
      this.settlers.add(s);
    });
  }

  private wakeSettlers(now: number): void {
    const held = this.holding;
    for (const s of [...this.settlers]) {
      for (const id of s.before) if (!this.flights.has(id)) s.before.delete(id);
      if (now > s.at || s.before.size === 0) s.answersAfter++;
      if (this.covers(s.at) || (s.before.size === 0 && s.answersAfter >= BURST_RECENT)) s.done();
    }
    if (held && !this.holding) this.changed();
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }

  /** Count an answer (sent at `sentAt`, received at `at`); `sent`: its flight (else it was sent alone, just now). */
  observe(status: number, sentAt: number, at: number = this.now(), sent?: Pick<Flight, 'id' | 'alongside'>): void {
    const suspect = isShedStatus(status);
    this.recover(at);
    this.answers.push({ at, suspect, sentAt, seq: sent?.id ?? ++this.nextId, alongside: sent?.alongside ?? 0 });
    const kept = Math.max(BURST_WINDOW_MS, SAMPLE_LOOKBACK_MS);
    while (this.answers.length && (this.answers[0]!.at <= at - kept || this.answers.length > KEPT_ANSWERS))
      this.answers.shift();
    if (!suspect) {
      if (this.window !== undefined && ++this.answeredSinceGrowth >= this.window) this.grow();
      return;
    }
    const wasShedding = this.period !== undefined && at - this.period.until < CALM_MS;
    this.lastSuspectAt = at;
    if (wasShedding) this.period!.until = at;
    // The latest in the order they were sent, of those sent before what is still in flight (sent within
    // the window): refusals come back faster than answers that were served, and a target that refuses one
    // request in two would look like a burst in the order of the answers. The order is that of `begin`,
    // not only the clock's: many requests start within one millisecond on a busy machine.
    let pending: { sentAt: number; seq: number } | undefined;
    for (const f of this.flights.values()) {
      const p = { sentAt: f.sentAt, seq: f.id };
      if (f.sentAt > at - BURST_WINDOW_MS && (!pending || sentBefore(p, pending))) pending = p;
    }
    const candidates = this.answers
      .filter((a) => a.sentAt >= this.lastDecreaseAt && (!pending || sentBefore(a, pending)))
      .sort((a, b) => a.sentAt - b.sentAt || a.seq - b.seq);
    const inWindow = candidates.filter((a) => a.at > at - BURST_WINDOW_MS);
    // Side by side with W others, a request may have reached the target anywhere among them: 2 W answers at least.
    const alongside = Math.max(0, ...candidates.slice(-BURST_RECENT).map((a) => a.alongside));
    const size = Math.max(BURST_RECENT, 2 * alongside);
    const recent = (inWindow.length >= size || size === BURST_RECENT ? inWindow : candidates).slice(-size);
    const suspects = recent.filter((a) => a.suspect).length;
    const served = this.answers.some((a) => !a.suspect && a.at > at - BURST_WINDOW_MS);
    const enough = recent.length >= 2 * alongside;
    if (served && enough && suspects >= BURST_MIN && suspects >= BURST_SHARE * recent.length) {
      if (!wasShedding) this.period = { from: at - BURST_WINDOW_MS, until: at, burst: suspects };
      else this.period!.burst = suspects;
      this.decrease(at);
    }
  }

  private grow(): void {
    this.window = this.window! * 2;
    this.answeredSinceGrowth = 0;
    if (this.window >= this.configured.concurrency) this.window = undefined;
    this.changed();
  }

  private decrease(at: number): void {
    const pace = this.current ?? this.configured;
    const base = { ...pace, concurrency: Math.min(pace.concurrency, this.window ?? Infinity) };
    this.window = undefined;
    const accepted = Math.max(MIN_RATE_PER_SECOND, this.answers.filter((a) => !a.suspect && a.at > at - 1_000).length);
    const from = base.ratePerSecond > 0 ? Math.min(base.ratePerSecond, accepted) : accepted;
    this.acceptedRate = accepted;
    if (!this.current) this.ceilingRate = this.configured.ratePerSecond || 2 * accepted;
    this.current = {
      concurrency: Math.max(1, Math.floor(base.concurrency / 2)),
      ratePerSecond: round(Math.max(MIN_RATE_PER_SECOND, from / 2)),
    };
    this.decreases++;
    this.lastDecreaseAt = at;
    this.lastChangeAt = at;
    this.pauseUntil = at + DECREASE_PAUSE_MS;
  }

  /** One step up per calm period (see the module's comment). */
  private recover(now: number): void {
    let raised = false;
    while (this.current) {
      const c: Pace = this.current;
      const cap = NEAR_SHARE * this.acceptedRate;
      const step = Math.max(1, this.acceptedRate / 10);
      // Well below the rate the target accepted: a step per calm period; from there on, a probe now and then.
      const fast = c.ratePerSecond < cap;
      const due = Math.max(this.lastSuspectAt, this.lastChangeAt) + (fast ? CALM_MS : PROBE_CALM_MS);
      if (now < due) break;
      let rate = Math.min(this.ceilingRate, round(c.ratePerSecond + step));
      if (fast) rate = Math.max(c.ratePerSecond, Math.min(rate, round(cap)));
      const next: Pace = { concurrency: Math.min(this.configured.concurrency, c.concurrency + 1), ratePerSecond: rate };
      this.lastChangeAt = due;
      raised = true;
      this.current = next.concurrency >= this.configured.concurrency && rate >= this.ceilingRate ? undefined : next;
    }
    if (raised) this.changed();
  }

  /** The pace as a phrase: "4 requests in flight, 5 requests/s". */
  static describe(p: Pace): string {
    const rate = p.ratePerSecond > 0 ? `${p.ratePerSecond} requests/s` : 'no rate limit';
    return `${p.concurrency} request${p.concurrency === 1 ? '' : 's'} in flight, ${rate}`;
  }
}
