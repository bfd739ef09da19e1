import { request, type Dispatcher } from 'undici';
import type { TargetConfig } from '../config';
import { carriesForbiddenToken, credentialsCarried } from '../credentials';
import type { Exchange, RecordedResponse } from '../model';
import type { Redactor } from '../redact';
import type { RunLog } from '../log/run-log';
import type { HttpResult } from '../log/entry';
import type { DeadTargetBreaker } from './breaker';
import { Deadline } from './deadline';
import type { Limiter } from './limiter';
import { BURST_WINDOW_MS, Pacer, type Pace } from './pacing';
import { shedVerdict, untilCalm } from './shedding';
import { LOWER_THE_PACE, retryAfterMs, throttledMessage, throttleNamed } from './throttling';
import type { CredentialWatch } from './credential-watch';
import { TransportError } from './errors';
import { FlightLog } from './flight-log';
import { exchangeRecord } from './exchange-record';
import { SAFE_METHODS } from './resolve';
import type { BaseKey, ClientEvents, SendOptions } from './send-options';
import { timeoutSignal } from './loop-bound';
import { classify, errorCode, flattenHeaders, parsedBody, readLimited, sleep } from './transport';

/** How often a read answered 5xx while the target sheds load is re-checked alone before it is given up. */
export const MAX_RECHECKS = 3;
/** The wait before the nth re-check: n seconds (a spike arrest counts the requests of the last second). */
const RECHECK_DELAY_MS = 1_000;
/** How much a clean-up request's priority is raised while the client is paced: the queue is long then. */
const PACED_CLEANUP_PRIORITY = 10;

/** What one request needs of the client that sends it (harness/http/client.ts). */
export interface FlightHost {
  config: TargetConfig;
  redactor: Redactor;
  dispatcher: Dispatcher;
  limiter: Limiter;
  pacer: Pacer;
  breaker: DeadTargetBreaker;
  credentialWatch: CredentialWatch;
  runLog: RunLog;
  interrupt: AbortSignal;
  maxRetryWaitMs: number;
  /** Why a connection closed without an answer may be TLS (probed once per origin). */
  tlsCloseCause(url: string, code: string): Promise<string | undefined>;
}

/** The request's answer, read whole (or cut at the size limit). */
interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  truncated: boolean;
  bytes: number;
  answeredAt: number;
}

/** Send the attempt again (a retry, a re-check alone). */
const AGAIN = Symbol('again');

/**
 * One request of the client, from its first attempt to its answer or its error: retries that are safe, re-checks
 * alone while the target sheds load, the record of the exchange (redacted) and the run log's entry (in clear).
 */
export class Flight {
  private readonly headers: Record<string, string> = {};
  private readonly body: string | undefined;
  private readonly retries: string[] = [];
  private readonly startedAt = new Date();
  private readonly t0 = performance.now();
  private readonly redactedReq: Exchange['request'];
  private readonly credentials: string[];
  /** Ordinary requests stop when the target is declared dead; clean-up requests do not. */
  private readonly ordinary: boolean;
  private readonly stop: AbortSignal;
  /** The pace the (last) attempt was sent at, and whether an answer of this request was counted in a burst. */
  private pacedTo: Pace | undefined;
  private shedLoad = false;
  /**
   * When the last attempt left the client's queue: the exchange's duration is the target's time from there; what
   * came before (the queue, the pace, earlier attempts and their back-off) is shown apart.
   */
  private sentAt: number | undefined;
  /** No attempt so far left the machine (an answered one, even a 429, did). */
  private sentNothing = true;
  /** A read answered 5xx while the target sheds load is sent again alone, once the pace allows. */
  private rechecks = 0;
  /** The request's part in the run log: in flight from its first attempt, then settled. */
  private readonly log: FlightLog;

  constructor(
    private readonly host: FlightHost,
    private readonly o: SendOptions,
    private readonly target: { method: string; url: string; baseKey: BaseKey },
    private readonly events: ClientEvents,
    signal: AbortSignal | undefined,
    private readonly seq: number,
  ) {
    for (const [k, v] of Object.entries(o.headers ?? {})) if (v !== undefined) this.headers[k] = v;
    if (o.body !== undefined) this.body = typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
    const { redactor } = host;
    this.redactedReq = {
      method: target.method,
      url: redactor.text(target.url),
      headers: redactor.headers(this.headers),
      body: redactor.body(this.body),
    };
    this.credentials = credentialsCarried(host.config, this.headers, o.operation);
    const { method, url } = target;
    const request = { method, url, headers: this.headers, body: this.body, startMs: this.startedAt.getTime() };
    this.log = new FlightLog(host.runLog, o, seq, request);
    this.ordinary = !o.cleanup;
    this.stop = AbortSignal.any([
      ...(signal ? [signal] : []),
      host.interrupt,
      ...(this.ordinary ? [host.breaker.signal] : []),
    ]);
  }

  /** Every attempt until an answer the client returns, or an error it throws. */
  async run(): Promise<HttpResult> {
    this.log.leave();
    try {
      // A credential served, then refused everywhere from one moment on: not sent with it any more.
      const expired = this.ordinary ? this.host.credentialWatch.expired(this.credentials) : undefined;
      if (expired)
        throw new TransportError(
          'target-stopped',
          expired,
          this.record(undefined, { kind: 'target-stopped', message: expired }, true),
        );
      for (let attempt = 0; ; attempt++) {
        const r = await this.attempt(attempt);
        if (r !== AGAIN) return r;
      }
    } finally {
      this.log.ended();
    }
  }

  /** The redacted record of the exchange, as every report shows it; also what the run log notes of a write. */
  private record(response?: RecordedResponse, error?: Exchange['error'], notSent?: boolean): Exchange {
    const { host } = this;
    const ex = exchangeRecord(host, {
      seq: this.seq,
      o: this.o,
      target: this.target,
      headers: this.headers,
      body: this.body,
      redactedReq: this.redactedReq,
      credentials: this.credentials,
      pacedTo: this.pacedTo,
      shedLoad: this.shedLoad,
      startedAt: this.startedAt,
      t0: this.t0,
      sentAt: this.sentAt,
      retries: this.retries,
      response,
      error,
      notSent,
    });
    host.credentialWatch.observe(ex);
    this.log.recorded(ex);
    events(this.events, ex);
    return ex;
  }

  /**
   * A request that left the machine and got no answer the client returns (a timeout, a reset, 502/503/504, a burst
   * of 429/5xx): recorded, and written to the run log apart (RunLog.unanswered), where only a fold that asks reads
   * it: the write may have landed.
   */
  private unanswered(response?: RecordedResponse, error?: Exchange['error'], notSent?: boolean): Exchange {
    const ex = this.record(response, error, notSent);
    this.log.unanswered(ex);
    return ex;
  }

  /** Stopped (the run interrupted, the target declared dead): before this attempt was sent, or while in flight. */
  private halt(notSent: boolean): TransportError {
    const { breaker } = this.host;
    const [kind, message] =
      this.ordinary && breaker.tripped
        ? (['target-stopped', breaker.message] as const)
        : (['interrupted', 'the run was interrupted'] as const);
    return new TransportError(
      kind,
      message,
      this.unanswered(undefined, { kind, message }, notSent && this.sentNothing),
    );
  }

  /** One attempt: waits for its turn, sends, reads the answer; AGAIN where it is to be sent again. */
  private async attempt(attempt: number): Promise<HttpResult | typeof AGAIN> {
    const { host, stop } = this;
    if (stop.aborted) throw this.halt(true);
    let res: Dispatcher.ResponseData | undefined;
    const priority = (this.o.priority ?? 0) + (this.o.cleanup && host.pacer.pacedTo ? PACED_CLEANUP_PRIORITY : 0);
    const alone = this.rechecks > 0;
    const release = await host.limiter
      .acquire(stop, priority, { alone, aloneMaxWaitMs: host.config.http.timeoutMs })
      .catch(() => undefined);
    if (!release) throw this.halt(true);
    this.sentAt = performance.now();
    const flight = host.pacer.begin();
    this.pacedTo = flight.pacedTo;
    let answeredAt: number | undefined;
    const timeout = timeoutSignal(host.config.http.timeoutMs);
    // The hard bound of this attempt, whatever undici does with the signal: the body is dropped when it passes.
    const deadline = new Deadline(host.config.http.timeoutMs, () => res?.body.destroy());
    try {
      res = await deadline.guard(
        request(this.target.url, {
          method: this.target.method as Dispatcher.HttpMethod,
          headers: this.headers,
          body: this.body,
          dispatcher: host.dispatcher,
          signal: AbortSignal.any([timeout, stop]),
        }),
      );
      const { text, truncated, bytes } = await deadline.guard(readLimited(res.body, host.config.http.maxBodyBytes));
      host.breaker.answered();
      const status = res.statusCode;
      answeredAt = host.pacer.end(flight, status, this.rechecks > 0);
      release();
      const answer: Answer = { status, headers: flattenHeaders(res.headers), text, truncated, bytes, answeredAt };
      return await this.answered(answer, attempt, release);
    } catch (e) {
      if (answeredAt === undefined) host.pacer.end(flight);
      const failed = await this.failed(e, attempt, timeout, release);
      if (failed === AGAIN) return AGAIN;
      throw failed;
    } finally {
      deadline.clear();
      release();
    }
  }

  /** An answer: re-checked alone or retried where that is safe, else thrown as unavailable, or returned. */
  private async answered(a: Answer, attempt: number, release: () => void): Promise<HttpResult | typeof AGAIN> {
    const { host, stop } = this;
    const { status } = a;
    const canRetry = attempt < host.config.http.retries && !stop.aborted;
    // A made-up credential's 429 (guard, rate limit): repeated while retries last, then it stands (docs/hold-out.md).
    const guessing = status === 429 && this.madeUpCredential();
    if (guessing && !(canRetry && a.headers['retry-after'])) return this.result(a, this.record(this.response(a)));
    if (status === 429 && !guessing) this.shedLoad ||= host.pacer.covers(a.answeredAt);
    const shed = guessing ? undefined : await this.whileShedding(a);
    if (shed) return shed;
    // 429 means "not processed": safe to repeat for every method, after Retry-After.
    // 503 on a GET: the read is repeated once; never for a request that may have changed something.
    // A Retry-After longer than the longest wait the run allows is not waited for: the answer stands.
    const wait = retryAfterMs(a.headers, 500);
    if (
      canRetry &&
      (status === 429 || (status === 503 && this.target.method === 'GET')) &&
      wait <= host.maxRetryWaitMs
    ) {
      this.retries.push(
        `${status} answered; repeated after ${Math.round(wait)} ` +
          `ms${a.headers['retry-after'] ? ' (Retry-After)' : ''}`,
      );
      this.sentNothing = false;
      release();
      await sleep(wait, stop);
      return AGAIN;
    }
    const response = this.response(a);
    if (status === 502 || status === 503 || status === 504) {
      throw new TransportError(
        'unavailable',
        `the target answered ${status} (unavailable), an answer the ` + `spec does not document for any operation`,
        this.unanswered(response),
      );
    }
    if (status === 429) {
      const exchange = this.record(response);
      const n = this.retries.length;
      const again = n ? ` again after ${n} retr${n === 1 ? 'y' : 'ies'}` : '';
      const after = a.headers['retry-after'] ? ` with Retry-After: ${a.headers['retry-after']}` : '';
      const message = `the target answered 429 (too many requests)${again}${after}; ${LOWER_THE_PACE}`;
      throw Object.assign(new TransportError('unavailable', message, exchange), { notProcessed: true as const });
    }
    return this.result(a, this.record(response));
  }

  private response(a: Answer): RecordedResponse {
    return { status: a.status, headers: a.headers, body: a.text, truncated: a.truncated, bytes: a.bytes };
  }

  /** An Authorization header that carries none of the configured credentials. */
  private madeUpCredential = () =>
    this.credentials.length === 0 && Object.keys(this.headers).some((k) => k.toLowerCase() === 'authorization');

  /** The answer the client returns, and its entry in the run log (in clear, never enumerated). */
  private result(a: Answer, exchange: Exchange): HttpResult {
    const { host } = this;
    const parsed = parsedBody(a.text, a.truncated, host.config.http.maxBodyBytes, exchange);
    const result: HttpResult = {
      status: a.status,
      headers: a.headers,
      text: a.text,
      truncated: a.truncated,
      ...parsed,
      exchange,
    };
    const logged = this.log.answered(result, carriesForbiddenToken(host.config, this.headers));
    return Object.defineProperty(result, 'logged', { value: logged, enumerable: false });
  }

  /**
   * An answer of a target shedding load (harness/http/pacing.ts): a read re-checked alone (AGAIN), a throttle or a
   * burst thrown as unavailable. Undefined: not such an answer.
   */
  private async whileShedding(a: Answer): Promise<typeof AGAIN | undefined> {
    const { host, stop } = this;
    const { status } = a;
    const throttle = throttleNamed(status, a.text);
    const shed = await shedVerdict(host, {
      status,
      at: a.answeredAt,
      throttled: throttle !== undefined,
      method: this.target.method,
      stop,
      rechecks: this.rechecks,
    });
    if (!shed) return undefined;
    this.shedLoad ||= shed.inBurst;
    if (shed.recheck && this.rechecks < MAX_RECHECKS && !stop.aborted) {
      this.rechecks++;
      const waited = await untilCalm(host, RECHECK_DELAY_MS * this.rechecks, stop);
      const shedding = shed.inBurst ? 'while the target was shedding load' : 'while the client was paced';
      const when = throttle !== undefined ? `naming a throttle ("${throttle}")` : shedding;
      const pace = Pacer.describe(host.pacer.limits);
      this.retries.push(`${status} answered ${when}; re-checked alone after ${waited} ms, at a calm moment (${pace})`);
      return AGAIN;
    }
    const response: RecordedResponse = {
      status,
      headers: a.headers,
      body: a.text,
      truncated: a.truncated,
      bytes: a.bytes,
    };
    if (throttle !== undefined) {
      const message = throttledMessage(status, throttle, this.rechecks, Pacer.describe(host.pacer.limits));
      throw Object.assign(new TransportError('unavailable', message, this.record(response)), { notProcessed: true });
    }
    if (!shed.inBurst) return undefined;
    const again = this.rechecks ? `, again after ${this.rechecks} re-check${this.rechecks === 1 ? '' : 's'} alone` : '';
    const unknown = this.o.cleanup
      ? '; whether it was processed is unknown: a clean-up request, tried again while its time lasts'
      : '; whether it was processed is unknown, so it is not sent again';
    const outcome = SAFE_METHODS.has(this.target.method) ? '' : unknown;
    const burst = `a burst of ${host.pacer.burstSize} answers 429/5xx within ${BURST_WINDOW_MS / 1000} s`;
    const message =
      `the target answered ${status} while it was shedding load (${burst})${again}${outcome}; ` +
      `the client slowed down to ${Pacer.describe(host.pacer.limits)}`;
    throw new TransportError('unavailable', message, this.unanswered(response));
  }

  /** The error of an attempt that got no answer: tried again where nothing was sent, else recorded and thrown. */
  private async failed(
    e: unknown,
    attempt: number,
    timeout: AbortSignal,
    release: () => void,
  ): Promise<TransportError | typeof AGAIN> {
    const { host, stop, o } = this;
    if (e instanceof TransportError) return e;
    // Declared dead meanwhile: this attempt sent nothing only if its own error says so (e.g. refused).
    if (this.ordinary && host.breaker.tripped && stop.aborted) {
      return this.halt(classify(e, { interrupted: false, timedOut: false }).notSent);
    }
    const c = classify(e, { interrupted: stop.aborted, timedOut: timeout.aborted });
    const tlsCause =
      c.kind === 'connection' && !stop.aborted ? await host.tlsCloseCause(this.target.url, errorCode(e)) : undefined;
    if (tlsCause) c.message = tlsCause;
    // Every request goes through the proxy: a connection or a timeout may be its (harness/setup/transport.ts).
    if (host.config.http.proxyUrl && (c.kind === 'connection' || c.kind === 'timeout'))
      c.message = `${c.message} (through http.proxyUrl)`;
    if (c.beforeSend && attempt < host.config.http.retries && !stop.aborted) {
      this.retries.push(`${c.message}; nothing was sent, so it was tried again`);
      release();
      await sleep(200 * (attempt + 1), stop);
      return AGAIN;
    }
    const exchange = this.unanswered(undefined, { kind: c.kind, message: c.message }, c.notSent && this.sentNothing);
    if (c.kind !== 'interrupted')
      host.breaker.failed(
        c.kind,
        o.operation === 'raw' ? `${this.target.method} ${o.path ?? ''}` : o.operation,
        c.message,
      );
    return new TransportError(c.kind, c.message, exchange);
  }
}

function events(e: ClientEvents, ex: Exchange): void {
  e.onExchange?.(ex);
}
