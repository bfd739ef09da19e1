import { setMaxListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { Agent, ProxyAgent, request, type Dispatcher } from 'undici';
import { baseKeyOf, baseUrlOf, bodySecrets, type TargetConfig } from '../config';
import type { Exchange, RecordedResponse, SafetySwitch, TransportErrorKind } from '../model';
import { OPERATIONS, switchForRequest, type OperationKey } from '../operations';
import { curlLine, type Redactor } from '../redact';
import { nearVariantAuthorization } from '../credential-variants';
import { carriesForbiddenToken, credentialsCarried } from '../credentials';
import { RunState } from '../run-state';
import { loggedExchange, type Logged } from '../rules/exchange';
import { RUN_LOG } from '../log/run-log';
import { DeadTargetBreaker } from './breaker';
import { timingsWith, type Timings } from './timings';
import { Deadline, DeadlineExceeded } from './deadline';
import { Limiter } from './limiter';
import { BURST_WINDOW_MS, isShedStatus, Pacer, type Pace } from './pacing';
import { LOWER_THE_PACE, retryAfterMs, throttledMessage, throttleNamed } from './throttling';
import { CredentialWatch } from './credential-watch';
import { failsBeforeRequestWritten, plainHttpToTls, probeTlsClose, speaksTls, tlsProblem } from './tls-errors';

/** The request never got an HTTP answer that can be judged: the case is "could not test". */
export class TransportError extends Error {
  override name = 'TransportError';
  /**
   * No attempt behind this error left the machine (its exchange is notSent, and so was every earlier
   * attempt of a clean-up retry): the request cannot have changed anything on the target.
   */
  neverSent: boolean;
  /** The target said it did not process the request (429, or a 500 that names a throttle: ./throttling.ts). */
  notProcessed?: true;
  constructor(
    public kind: TransportErrorKind,
    message: string,
    public exchange?: Exchange,
  ) {
    super(message);
    this.neverSent = exchange?.notSent === true;
  }
}

/** Whether e is a request failure that certainly sent nothing (see TransportError.neverSent). */
export function nothingSent(e: unknown): boolean {
  return e instanceof TransportError && e.neverSent;
}

/** The target's configuration does not allow this request: it was refused before leaving the machine. */
export class NotAllowedError extends Error {
  override name = 'NotAllowedError';
  constructor(
    public safetySwitch: SafetySwitch,
    public method: string,
    public url: string,
    /** Why, where the switch is on but a limit stops the request (harness/transfer-budget.ts). */
    public why?: string,
  ) {
    super(
      why ??
        `not allowed on this target: ${method} ${url} needs ` +
          `allow.${safetySwitch} = true in the target's configuration`,
    );
  }
}

export type BaseKey = 'baseUrl' | 'authBaseUrl' | 'transfersBaseUrl' | 'contactInfoBaseUrl';

export interface SendOptions {
  /** The documented operation this request exercises; 'raw' for a deliberately odd request. */
  operation: OperationKey | 'raw';
  /** For 'raw': the method and the path after the base URL. */
  method?: string;
  path?: string;
  base?: BaseKey;
  pathParams?: Record<string, string>;
  query?: Record<string, string | undefined>;
  headers?: Record<string, string | undefined>;
  /** An object is sent as JSON; a string is sent as it is. */
  body?: unknown;
  label?: string;
  /** Which environment variable the curl line names for a Bearer credential. */
  bearerEnv?: string;
  /** When every connection slot is busy, sent before requests of a lower priority (default 0). */
  priority?: number;
  /** A clean-up request: still sent after the target was declared dead (harness/http/breaker.ts). */
  cleanup?: boolean;
  /**
   * The configured test data whose values this request relies on being right (e.g.
   * "testData.customer.phoneNumber"): served, it proves them; refused while none of them was ever
   * served, the refusal may be the configuration's (harness/setup/proof.ts).
   */
  relies?: string[];
}

export interface HttpResult {
  status: number;
  headers: Record<string, string>;
  text: string;
  truncated: boolean;
  /** The parsed JSON body, or undefined when the body is empty or not JSON (see jsonError). */
  json: unknown;
  jsonError?: string;
  /** The redacted record of the exchange, as reports show it. */
  exchange: Exchange;
  /**
   * The exchange as the rules read it (harness/rules/exchange.ts): the request in clear, in memory only,
   * never enumerated (so never written). Set by the client for every answered request.
   */
  readonly logged?: Logged;
}

/** Join a base URL that may carry a path prefix with a path: the prefix is kept. */
export function joinUrl(base: string, path: string, query?: Record<string, string | undefined>): string {
  let url = base.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);
  const q = Object.entries(query ?? {}).filter((e): e is [string, string] => e[1] !== undefined);
  if (q.length) url += '?' + q.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return url;
}

export function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`path parameter ${name} is missing for ${template}`);
    return encodeURIComponent(v);
  });
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function errorCode(e: unknown): string {
  const err = e as { code?: string; cause?: { code?: string } };
  return err?.code ?? err?.cause?.code ?? '';
}

/**
 * What went wrong, whether the request certainly never left the machine (notSent: no connection, or
 * a TLS handshake that failed before a byte of the request was written), and whether it may be tried
 * again (beforeSend: whatever its method; not after a TLS failure, which a second try repeats). The
 * signals say for certain whether the run was interrupted or the request timed out; the error's code
 * says the rest.
 */
export function classify(
  e: unknown,
  why: { interrupted: boolean; timedOut: boolean },
): { kind: TransportErrorKind; message: string; beforeSend: boolean; notSent: boolean } {
  const code = errorCode(e);
  const msg = (e as Error)?.message ?? String(e);
  if (why.interrupted) {
    return { kind: 'interrupted', message: 'the run was interrupted', beforeSend: false, notSent: false };
  }
  if (CONNECT_CODES.has(code)) {
    return { kind: 'connection', message: `could not connect (${code})`, beforeSend: true, notSent: true };
  }
  const tls = tlsProblem(code, msg);
  if (tls) return { kind: 'connection', message: tls, beforeSend: false, notSent: failsBeforeRequestWritten(code) };
  const c = classifyAfterConnect(e, code, msg, why.timedOut);
  return { ...c, beforeSend: false, notSent: false };
}

/** What went wrong once a connection was made (or may have been): the request may have been sent. */
function classifyAfterConnect(
  e: unknown,
  code: string,
  msg: string,
  timedOut: boolean,
): { kind: TransportErrorKind; message: string } {
  const timeoutCode = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
  if (timedOut || e instanceof DeadlineExceeded || timeoutCode || (e as Error)?.name === 'TimeoutError')
    return { kind: 'timeout', message: 'no complete answer within the request timeout (http.timeoutMs)' };
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
    return { kind: 'connection', message: `connection reset by the target (${code})` };
  }
  if (/HPE_|parse/i.test(code + msg) || (e as Error)?.name === 'HTTPParserError') {
    return { kind: 'protocol', message: `the answer is not HTTP (${code ? code + ': ' : ''}${msg})` };
  }
  if ((e as Error)?.name === 'AbortError') return { kind: 'interrupted', message: 'the run was interrupted' };
  return { kind: 'connection', message: `${code || (e as Error)?.name || 'error'}: ${msg}` };
}

/** How often a read answered 5xx while the target sheds load is re-checked alone before it is given up. */
export const MAX_RECHECKS = 3;
/** The wait before the nth re-check: n seconds (a spike arrest counts the requests of the last second). */
const RECHECK_DELAY_MS = 1_000;
/** How much a clean-up request's priority is raised while the client is paced: the queue is long then. */
const PACED_CLEANUP_PRIORITY = 10;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

export interface ClientEvents {
  /** Called for every exchange, after redaction. */
  onExchange?(ex: Exchange): void;
}

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
  resolve(o: SendOptions): {
    method: string;
    url: string;
    pathAfterBase: string;
    baseKey: BaseKey;
    needs?: SafetySwitch;
  } {
    const op = o.operation === 'raw' ? undefined : OPERATIONS[o.operation];
    const method = (o.method ?? op?.method ?? 'GET').toUpperCase();
    const base = baseUrlOf(this.config, o.base ?? op?.base ?? 'baseUrl');
    // A declared deviation (paths in the configuration): the operation is sent where this target serves it.
    const template = o.operation === 'raw' ? undefined : (this.config.paths?.[o.operation] ?? op!.path);
    const pathAfterBase = o.path ?? fillPath(template!, o.pathParams);
    const url = joinUrl(base, pathAfterBase, o.query);
    const baseKey = o.base ?? op?.base ?? 'baseUrl';
    // Last line of defence: the operation's own switch, else what method and path say, else any
    // change sent to the transfers or token base URL.
    const needs =
      (op && 'mutates' in op && (op.method === method || !SAFE_METHODS.has(method)) ? op.mutates : undefined) ??
      // A documented operation is judged by its path template (a vendor's id may contain any word);
      // anything else by the path it sends.
      switchForRequest(method, op && op.method === method && !o.path ? op.path : pathAfterBase) ??
      (SAFE_METHODS.has(method)
        ? undefined
        : baseKey === 'transfersBaseUrl'
          ? 'moneyMovement'
          : baseKey === 'authBaseUrl'
            ? 'tokenRevocation'
            : undefined);
    return { method, url, pathAfterBase, baseKey, needs };
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
        let json: unknown;
        let jsonError: string | undefined;
        if (truncated)
          jsonError =
            `the body is larger than http.maxBodyBytes ` +
            `(${this.config.http.maxBodyBytes} bytes) and was cut off after that many bytes`;
        else if (text.trim() !== '') {
          try {
            json = JSON.parse(text);
          } catch (e) {
            jsonError =
              `the body is not JSON (${(e as Error).message}); it starts: ` +
              `${JSON.stringify(exchange.response!.body.slice(0, 80))}`;
          }
        }
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

  /**
   * A TLS target that closed the connection without an answer: why, when TLS says so (a client
   * certificate required), probed once per origin; undefined otherwise.
   */
  private async tlsCloseCause(url: string, code: string): Promise<string | undefined> {
    if (url.startsWith('http:') && !this.config.http.proxyUrl && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET')) {
      const origin = `tls-of ${new URL(url).origin}`;
      const probe =
        this.tlsCloseProbes.get(origin) ??
        speaksTls(url, Math.min(this.config.http.timeoutMs, 5_000)).then((tls) => (tls ? code : undefined));
      this.tlsCloseProbes.set(origin, probe);
      return (await probe) ? plainHttpToTls(code) : undefined;
    }
    if (!url.startsWith('https:') || this.config.http.proxyUrl || (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET'))
      return undefined;
    const origin = new URL(url).origin;
    let probe = this.tlsCloseProbes.get(origin);
    if (!probe) {
      const tls = this.config.http.tls;
      probe = probeTlsClose(
        url,
        {
          ca: tls.caFile ? readFileSync(tls.caFile) : undefined,
          cert: tls.certFile ? readFileSync(tls.certFile) : undefined,
          key: tls.keyFile ? readFileSync(tls.keyFile) : undefined,
          rejectUnauthorized: tls.rejectUnauthorized,
        },
        Math.min(this.config.http.timeoutMs, 5_000),
      );
      this.tlsCloseProbes.set(origin, probe);
    }
    const tlsCode = await probe;
    return tlsCode ? tlsProblem(tlsCode) : undefined;
  }
}

/** The connection pool of a target: its TLS (CA, mutual TLS), proxy and timeouts. The recorder forwards through the
 * same. */
export function dispatcherFor(config: TargetConfig): Dispatcher {
  const tls = config.http.tls;
  const connect = {
    ca: tls.caFile ? readFileSync(tls.caFile) : undefined,
    cert: tls.certFile ? readFileSync(tls.certFile) : undefined,
    key: tls.keyFile ? readFileSync(tls.keyFile) : undefined,
    rejectUnauthorized: tls.rejectUnauthorized,
    timeout: config.http.timeoutMs,
  };
  const common = {
    headersTimeout: config.http.timeoutMs,
    bodyTimeout: config.http.timeoutMs,
    connect,
    connections: Math.max(8, config.http.concurrency),
    keepAliveTimeout: 4_000,
  };
  return config.http.proxyUrl
    ? new ProxyAgent({ uri: config.http.proxyUrl, requestTls: connect, ...common })
    : new Agent(common);
}

export function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** Read a body up to a limit; past it, stop reading and drop the connection rather than buffer it whole. */
export async function readLimited(
  body: Dispatcher.ResponseData['body'],
  limit: number,
): Promise<{ text: string; truncated: boolean; bytes: number }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body) {
    const b = chunk as Buffer;
    if (bytes + b.length > limit) {
      chunks.push(b.subarray(0, limit - bytes));
      bytes = limit;
      body.destroy();
      return { text: Buffer.concat(chunks).toString('utf8'), truncated: true, bytes };
    }
    chunks.push(b);
    bytes += b.length;
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated: false, bytes };
}
