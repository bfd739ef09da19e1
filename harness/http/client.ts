import { setMaxListeners } from 'node:events';
import { request, type Dispatcher } from 'undici';
import { baseKeyOf, bodySecrets, type TargetConfig } from '../config';
import { nearVariantAuthorization } from '../credential-variants';
import { carriesForbiddenToken, credentialsCarried } from '../credentials';
import type { Exchange, RecordedResponse } from '../model';
import { curlLine, type Redactor } from '../redact';
import { RunState } from '../run-state';
import { RUN_LOG } from '../log/run-log';
import type { HttpResult } from '../log/entry';
import { DeadTargetBreaker } from './breaker';
import { timingsWith, type Timings } from './timings';
import { Deadline } from './deadline';
import { Limiter } from './limiter';
import { BURST_WINDOW_MS, isShedStatus, Pacer, type Pace } from './pacing';
import { LOWER_THE_PACE, retryAfterMs, throttledMessage, throttleNamed } from './throttling';
import { CredentialWatch } from './credential-watch';
import { NotAllowedError, TransportError } from './errors';
import { loggedExchange } from './logged';
import { resolveRequest, SAFE_METHODS, type Resolved } from './resolve';
import type { ClientEvents, SendOptions } from './send-options';
import { tlsCloseCause } from './tls-close';
import { classify, dispatcherFor, errorCode, flattenHeaders, parsedBody, readLimited, sleep } from './transport';

// What the drivers and the active source import with the client; the answer type lives below both the
// client and the rules (harness/log/entry.ts).
export type { HttpResult } from '../log/entry';
export { NotAllowedError, nothingSent, TransportError } from './errors';
export type { BaseKey, ClientEvents, SendOptions } from './send-options';
export { classify, dispatcherFor, fillPath, flattenHeaders, joinUrl, readLimited } from './transport';

/** How often a read answered 5xx while the target sheds load is re-checked alone before it is given up. */
export const MAX_RECHECKS = 3;
/** The wait before the nth re-check: n seconds (a spike arrest counts the requests of the last second). */
const RECHECK_DELAY_MS = 1_000;
/** How much a clean-up request's priority is raised while the client is paced: the queue is long then. */
const PACED_CLEANUP_PRIORITY = 10;

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
   * `interrupt` stops every request of this client.
   */
  async send(o: SendOptions, events: ClientEvents = {}, signal?: AbortSignal): Promise<HttpResult> {
    const { method, url, needs, baseKey } = this.resolve(o);
    if (needs && !this.config.allow[needs]) throw new NotAllowedError(needs, method, this.redactor.text(url));

    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(o.headers ?? {})) if (v !== undefined) headers[k] = v;
    let body: string | undefined;
    if (o.body !== undefined) body = typeof o.body === 'string' ? o.body : JSON.stringify(o.body);

    const retries: string[] = [];
    const maxRetries = this.config.http.retries;
    const startedAt = new Date();
    const t0 = performance.now();
    const seq = ++this.seq;
    const redactedReq = {
      method,
      url: this.redactor.text(url),
      headers: this.redactor.headers(headers),
      body: this.redactor.body(body),
    };
    const credentials = credentialsCarried(this.config, headers);
    // The pace the (last) attempt was sent at, and whether an answer of this request was counted in a burst.
    let pacedTo: Pace | undefined;
    let shedLoad = false;
    // When the last attempt left the client's queue: the exchange's duration is the target's time from
    // there; what came before (the queue, the pace, earlier attempts and their back-off) is shown apart.
    let sentAt: number | undefined;
    const record = (response?: RecordedResponse, error?: Exchange['error'], notSent?: boolean): Exchange => {
      const ex: Exchange = {
        seq,
        // contactInfoBaseUrl left at its default is baseUrl: proven (harness/setup/proof.ts) as one.
        base: baseKeyOf(this.config, baseKey),
        ...(credentials.length ? { credentials } : {}),
        ...(notSent ? { notSent } : {}),
        ...(o.relies?.length ? { relies: o.relies } : {}),
        ...(pacedTo ? { pacedTo } : {}),
        ...(shedLoad ? { shedLoad } : {}),
        operation: o.operation,
        label: o.label,
        request: redactedReq,
        response: response && {
          ...response,
          headers: this.redactor.headers(response.headers),
          body: this.redactor.body(response.body) ?? '',
        },
        error,
        startedAt: startedAt.toISOString(),
        durationMs: Math.round((performance.now() - (sentAt ?? t0)) * 10) / 10,
        ...(sentAt !== undefined && sentAt - t0 >= 1 ? { waitedMs: Math.round((sentAt - t0) * 10) / 10 } : {}),
        retries,
        curl: curlLine(
          { method, url, headers, body },
          this.redactor,
          o.bearerEnv,
          this.config.credentials.contactInfoHeaders,
          bodySecrets(this.config),
          nearVariantAuthorization(this.config, headers),
        ),
      };
      this.credentialWatch.observe(ex);
      this.run.get(RUN_LOG).recorded(ex);
      events.onExchange?.(ex);
      return ex;
    };

    // Ordinary requests stop when the target is declared dead; clean-up requests do not.
    const ordinary = !o.cleanup;
    const stop = AbortSignal.any([
      ...(signal ? [signal] : []),
      this.interrupt.signal,
      ...(ordinary ? [this.breaker.signal] : []),
    ]);
    // Stopped (the run interrupted, the target declared dead): before this attempt was sent
    // (notSent), or while it was in flight.
    const halt = (notSent: boolean) => {
      const [kind, message] =
        ordinary && this.breaker.tripped
          ? (['target-stopped', this.breaker.message] as const)
          : (['interrupted', 'the run was interrupted'] as const);
      return new TransportError(kind, message, record(undefined, { kind, message }, notSent && sentNothing));
    };
    // A credential served, then refused everywhere from one moment on: not sent with it any more.
    const expired = ordinary ? this.credentialWatch.expired(credentials) : undefined;
    if (expired)
      throw new TransportError(
        'target-stopped',
        expired,
        record(undefined, { kind: 'target-stopped', message: expired }, true),
      );
    // No attempt so far left the machine (an answered one, even a 429, did).
    let sentNothing = true;
    // A read answered 5xx while the target sheds load is sent again alone, once the pace allows.
    let rechecks = 0;
    for (let attempt = 0; ; attempt++) {
      if (stop.aborted) throw halt(true);
      let res: Awaited<ReturnType<typeof request>> | undefined;
      const priority = (o.priority ?? 0) + (o.cleanup && this.pacer.pacedTo ? PACED_CLEANUP_PRIORITY : 0);
      const alone = rechecks > 0;
      const release = await this.limiter
        .acquire(stop, priority, { alone, aloneMaxWaitMs: this.config.http.timeoutMs })
        .catch(() => undefined);
      if (!release) throw halt(true);
      sentAt = performance.now();
      const flight = this.pacer.begin();
      pacedTo = flight.pacedTo;
      let answeredAt: number | undefined;
      const timeout = AbortSignal.timeout(this.config.http.timeoutMs);
      // The hard bound of this attempt, whatever undici does with the signal: the body is dropped when it passes.
      const deadline = new Deadline(this.config.http.timeoutMs, () => res?.body.destroy());
      try {
        res = await deadline.guard(
          request(url, {
            method: method as Dispatcher.HttpMethod,
            headers,
            body,
            dispatcher: this.dispatcher,
            signal: AbortSignal.any([timeout, stop]),
          }),
        );
        const { text, truncated, bytes } = await deadline.guard(readLimited(res.body, this.config.http.maxBodyBytes));
        this.breaker.answered();
        const resHeaders = flattenHeaders(res.headers);
        const status = res.statusCode;
        answeredAt = this.pacer.end(flight, status, rechecks > 0);
        release();
        if (status === 429) shedLoad ||= this.pacer.covers(answeredAt);
        const throttle = throttleNamed(status, text);
        const shed = await this.shedVerdict(status, method, answeredAt, stop, rechecks, throttle !== undefined);
        if (shed) {
          shedLoad ||= shed.inBurst;
          if (shed.recheck && rechecks < MAX_RECHECKS && !stop.aborted) {
            rechecks++;
            const waited = await this.untilCalm(RECHECK_DELAY_MS * rechecks, stop);
            const shedding = shed.inBurst ? 'while the target was shedding load' : 'while the client was paced';
            const when = throttle !== undefined ? `naming a throttle ("${throttle}")` : shedding;
            const pace = Pacer.describe(this.pacer.limits);
            retries.push(`${status} answered ${when}; re-checked alone after ${waited} ms, at a calm moment (${pace})`);
            continue;
          }
          if (throttle !== undefined) {
            const message = throttledMessage(status, throttle, rechecks, Pacer.describe(this.pacer.limits));
            const response: RecordedResponse = { status, headers: resHeaders, body: text, truncated, bytes };
            throw Object.assign(new TransportError('unavailable', message, record(response)), { notProcessed: true });
          }
          if (shed.inBurst) {
            const response: RecordedResponse = { status, headers: resHeaders, body: text, truncated, bytes };
            const again = rechecks ? `, again after ${rechecks} re-check${rechecks === 1 ? '' : 's'} alone` : '';
            const unknown = o.cleanup
              ? '; whether it was processed is unknown: a clean-up request, tried again while its time lasts'
              : '; whether it was processed is unknown, so it is not sent again';
            const outcome = SAFE_METHODS.has(method) ? '' : unknown;
            const burst = `a burst of ${this.pacer.burstSize} answers 429/5xx within ${BURST_WINDOW_MS / 1000} s`;
            const message =
              `the target answered ${status} while it was shedding load (${burst})${again}${outcome}; ` +
              `the client slowed down to ${Pacer.describe(this.pacer.limits)}`;
            throw new TransportError('unavailable', message, record(response));
          }
        }
        const canRetry = attempt < maxRetries && !stop.aborted;
        // 429 means "not processed": safe to repeat for every method, after Retry-After.
        // 503 on a GET: the read is repeated once; never for a request that may have changed something.
        // A Retry-After longer than the longest wait the run allows is not waited for: the answer stands.
        const wait = retryAfterMs(resHeaders, 500);
        if (canRetry && (status === 429 || (status === 503 && method === 'GET')) && wait <= this.maxRetryWaitMs) {
          retries.push(
            `${status} answered; repeated after ${Math.round(wait)} ` +
              `ms${resHeaders['retry-after'] ? ' (Retry-After)' : ''}`,
          );
          sentNothing = false;
          release();
          await sleep(wait, stop);
          continue;
        }
        const response: RecordedResponse = { status, headers: resHeaders, body: text, truncated, bytes };
        const exchange = record(response);
        if (status === 502 || status === 503 || status === 504) {
          throw new TransportError(
            'unavailable',
            `the target answered ${status} (unavailable), an answer the ` + `spec does not document for any operation`,
            exchange,
          );
        }
        if (status === 429) {
          const again = retries.length
            ? ` again after ${retries.length} retr${retries.length === 1 ? 'y' : 'ies'}`
            : '';
          const after = resHeaders['retry-after'] ? ` with Retry-After: ${resHeaders['retry-after']}` : '';
          const message = `the target answered 429 (too many requests)${again}${after}; ${LOWER_THE_PACE}`;
          throw Object.assign(new TransportError('unavailable', message, exchange), { notProcessed: true as const });
        }
        const { json, jsonError } = parsedBody(text, truncated, this.config.http.maxBodyBytes, exchange);
        const result: HttpResult = { status, headers: resHeaders, text, truncated, json, jsonError, exchange };
        const sent = { method, url, headers, body, startMs: startedAt.getTime(), endMs: Date.now() };
        const logged = loggedExchange(o, sent, result, carriesForbiddenToken(this.config, headers));
        this.run.get(RUN_LOG).append(logged);
        return Object.defineProperty(result, 'logged', { value: logged, enumerable: false });
      } catch (e) {
        if (answeredAt === undefined) this.pacer.end(flight);
        if (e instanceof TransportError) throw e;
        // Declared dead meanwhile: this attempt sent nothing only if its own error says so (e.g. refused).
        if (ordinary && this.breaker.tripped && stop.aborted) {
          throw halt(classify(e, { interrupted: false, timedOut: false }).notSent);
        }
        const c = classify(e, { interrupted: stop.aborted, timedOut: timeout.aborted });
        const tlsCause =
          c.kind === 'connection' && !stop.aborted ? await this.tlsCloseCause(url, errorCode(e)) : undefined;
        if (tlsCause) c.message = tlsCause;
        // Every request goes through the proxy: a connection or a timeout may be its (harness/setup/transport.ts).
        if (this.config.http.proxyUrl && (c.kind === 'connection' || c.kind === 'timeout'))
          c.message = `${c.message} (through http.proxyUrl)`;
        if (c.beforeSend && attempt < maxRetries && !stop.aborted) {
          retries.push(`${c.message}; nothing was sent, so it was tried again`);
          release();
          await sleep(200 * (attempt + 1), stop);
          continue;
        }
        const exchange = record(undefined, { kind: c.kind, message: c.message }, c.notSent && sentNothing);
        if (c.kind !== 'interrupted')
          this.breaker.failed(c.kind, o.operation === 'raw' ? `${method} ${o.path ?? ''}` : o.operation, c.message);
        throw new TransportError(c.kind, c.message, exchange);
      } finally {
        deadline.clear();
        release();
      }
    }
  }

  /**
   * Whether an answer is one of a target shedding load (harness/http/pacing.ts): counted in a burst
   * (`inBurst`), and whether the request is re-checked alone (a read). A 500 no burst covers yet waits
   * until what was in flight with it has been answered: it may be the first answer of a burst. A 429 is
   * left to the retry after its Retry-After. Undefined: not such an answer, judged as it is.
   */
  private async shedVerdict(
    status: number,
    method: string,
    at: number,
    stop: AbortSignal,
    rechecks: number,
    throttled = false,
  ): Promise<{ inBurst: boolean; recheck: boolean } | undefined> {
    if (!isShedStatus(status) || status === 429) return undefined;
    // A 500 that names a throttle was not processed (./throttling.ts): re-checked alone like a read, any method.
    if (throttled) return { inBurst: this.pacer.covers(at) || this.pacer.shedding, recheck: true };
    // A re-check was sent alone at a calm moment: nothing was in flight with it.
    if (status === 500 && !this.pacer.covers(at) && !stop.aborted && rechecks === 0) {
      await this.pacer.settle(at, Math.min(BURST_WINDOW_MS, this.config.http.timeoutMs));
    }
    // A re-check's own answer is not counted (harness/http/pacing.ts): the others' show whether the
    // target still sheds load.
    const inBurst = this.pacer.covers(at) || (rechecks > 0 && this.pacer.shedding);
    const read = SAFE_METHODS.has(method);
    // A read answered 500 while the client is paced (its limit is near) is re-checked once, also without a burst.
    if (!inBurst && !(read && status === 500 && this.pacer.pacedTo && rechecks === 0)) return undefined;
    return { inBurst, recheck: read };
  }

  /**
   * Wait at least `ms`, then until no 429/5xx answer came for a calm period (CALM_MS), at most the
   * longest wait the run allows (maxRetryWaitMs) in all. Returns how long it waited.
   */
  private async untilCalm(ms: number, stop: AbortSignal): Promise<number> {
    const t0 = Date.now();
    await sleep(ms, stop);
    for (;;) {
      const left = t0 + this.maxRetryWaitMs - Date.now();
      const calmIn = this.pacer.calmInMs;
      if (calmIn <= 0 || left <= 0 || stop.aborted) break;
      await sleep(Math.min(calmIn, left), stop);
    }
    return Date.now() - t0;
  }

  private readonly tlsCloseProbes = new Map<string, Promise<string | undefined>>();

  private tlsCloseCause(url: string, code: string): Promise<string | undefined> {
    return tlsCloseCause(this.config, this.tlsCloseProbes, url, code);
  }
}
