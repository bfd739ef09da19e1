import { setMaxListeners } from 'node:events';
import type { Dispatcher } from 'undici';
import type { TargetConfig } from '../config';
import type { Redactor } from '../redact';
import { RunState } from '../run-state';
import { RUN_LOG } from '../log/run-log';
import type { HttpResult } from '../log/entry';
import { DeadTargetBreaker } from './breaker';
import { timingsWith, type Timings } from './timings';
import { Limiter } from './limiter';
import { Pacer } from './pacing';
import { CredentialWatch } from './credential-watch';
import { NotAllowedError } from './errors';
import { countryCodeRefusal } from './country-code-guard';
import { Flight, type FlightHost } from './flight';
import { resolveRequest, type Resolved } from './resolve';
import type { ClientEvents, SendOptions } from './send-options';
import { tlsCloseCause } from './tls-close';
import { dispatcherFor } from './transport';

// What the drivers and the active source import with the client; the answer type lives below both the
// client and the rules (harness/log/entry.ts).
export type { HttpResult } from '../log/entry';
export { NotAllowedError, nothingSent, TransportError } from './errors';
export type { BaseKey, ClientEvents, SendOptions } from './send-options';
export { classify, dispatcherFor, fillPath, flattenHeaders, joinUrl, readLimited } from './transport';

/** How often a read answered 5xx while the target sheds load is re-checked alone before it is given up. */
export { MAX_RECHECKS } from './flight';

/**
 * The one HTTP client of the suite: undici underneath, every exchange recorded and redacted,
 * timeouts, a body size limit, concurrency and rate limits, TLS and proxy settings, safe retries
 * only, and the safety switches enforced before a request leaves the machine.
 */
export class DbsiClient {
  private readonly dispatcher: Dispatcher;
  private readonly limiter: Limiter;
  /** Slows the client down while the target sheds load (harness/http/pacing.ts). */
  readonly pacer: Pacer;
  private seq = 0;
  /** The configured credentials that expired during the run (harness/http/credential-watch.ts). */
  private readonly credentialWatch = new CredentialWatch();
  readonly interrupt = new AbortController();
  /**
   * The state of the run this client serves (harness/run-state.ts), handed to every case as `t.run`: what
   * the cases of one run remember about the target (lists asked once, the records' life, the budget). A dry
   * run's per-case views of the client (Object.create) share it.
   */
  readonly run = new RunState();
  /** The longest Retry-After (429, 503 on a read) the client waits for before repeating a request. */
  readonly maxRetryWaitMs: number;
  /** Stops ordinary requests once the target stopped answering. */
  readonly breaker: DeadTargetBreaker;
  /** Clean-up floors and the dead-target window (harness/http/timings.ts): the product's unless chosen. */
  readonly timings: Timings;

  constructor(
    readonly config: TargetConfig,
    readonly redactor: Redactor,
    opts: { concurrency?: number; rateLimitPerSecond?: number; timings?: Partial<Timings> } = {},
  ) {
    this.timings = timingsWith(opts.timings);
    this.dispatcher = dispatcherFor(config);
    this.maxRetryWaitMs = Math.max(config.http.timeoutMs, 10_000);
    this.breaker = new DeadTargetBreaker(config.http.timeoutMs, this.timings.deadTargetWindowMaxMs);
    // Every request in flight listens to the client's interrupt signal (no leak: one per request).
    setMaxListeners(10_000, this.interrupt.signal);
    this.pacer = new Pacer({
      concurrency: opts.concurrency ?? config.http.concurrency,
      ratePerSecond: opts.rateLimitPerSecond ?? config.http.rateLimitPerSecond,
    });
    this.limiter = new Limiter(() => this.pacer.limits);
    this.pacer.onChange(() => this.limiter.pump());
  }

  async close(): Promise<void> {
    // A connection that never completes (a proxy that accepts and never answers a CONNECT) would hold a
    // graceful close for ever: past the request timeout, the pool is destroyed.
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.config.http.timeoutMs);
    });
    const closed = await Promise.race([this.dispatcher.close().catch(() => undefined), bound]);
    clearTimeout(timer);
    if (closed === 'late') await this.dispatcher.destroy().catch(() => undefined);
  }

  /** Resolve method and URL of a request, and the safety switch it needs. */
  resolve(o: SendOptions): Resolved {
    return resolveRequest(this.config, o);
  }

  /**
   * Send one request. `signal` (the case's) stops it when the run is interrupted; the client's own
   * `interrupt` stops every request of this client. Its attempts, retries and records: harness/http/flight.ts.
   */
  async send(o: SendOptions, events: ClientEvents = {}, signal?: AbortSignal): Promise<HttpResult> {
    const { method, url, needs, baseKey } = this.resolve(o);
    if (needs && !this.config.allow[needs]) throw new NotAllowedError(needs, method, this.redactor.text(url));
    const unstated = needs === 'contactUpdate' ? countryCodeRefusal(this.config, o) : undefined;
    if (unstated) throw new NotAllowedError('contactUpdate', method, this.redactor.text(url), unstated);
    const host: FlightHost = {
      config: this.config,
      redactor: this.redactor,
      dispatcher: this.dispatcher,
      limiter: this.limiter,
      pacer: this.pacer,
      breaker: this.breaker,
      credentialWatch: this.credentialWatch,
      runLog: this.run.get(RUN_LOG),
      interrupt: this.interrupt.signal,
      maxRetryWaitMs: this.maxRetryWaitMs,
      tlsCloseCause: (u, code) => this.tlsCloseCause(u, code),
    };
    return new Flight(host, o, { method, url, baseKey }, events, signal, ++this.seq).run();
  }

  private readonly tlsCloseProbes = new Map<string, Promise<string | undefined>>();

  private tlsCloseCause(url: string, code: string): Promise<string | undefined> {
    return tlsCloseCause(this.config, this.tlsCloseProbes, url, code);
  }
}
