import type { Exchange } from '../model';
import type { SendOptions } from './send-options';
import {
  credentialOf,
  header,
  type Authority,
  type HttpResult,
  type Logged,
  type Observed,
  type Sent,
} from '../log/entry';
import type { Sending } from '../log/in-flight';

/**
 * A request of a documented operation as it leaves the client: what the run log knows of it before its answer
 * (RunLog.sending), the request half of the entry it becomes. Undefined for a raw request (no operation: no entry).
 */
export function sendingRequest(o: SendOptions, sent: Omit<Sent, 'endMs'>, index: number): Sending | undefined {
  if (o.operation === 'raw') return undefined;
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(o.query ?? {})) if (v !== undefined) query.append(k, v);
  const x = {
    index,
    startMs: sent.startMs,
    method: sent.method,
    url: sent.url,
    requestHeaders: sent.headers,
    requestBody: sent.body,
  };
  const mapped = { operation: o.operation, pathParams: { ...(o.pathParams ?? {}) }, query };
  return { x, mapped, ...(o.path ? { undocumentedPath: true } : {}) };
}

/**
 * An active run's exchange as the rules read a capture's: the client knows the operation and its
 * parameters, where a capture's are mapped from the URL (harness/traffic/operation-map.ts), and which
 * credentials it sent (`unauthorized`: the configured token that lacks authorization, harness/credentials.ts).
 */
export function loggedExchange(o: SendOptions, sent: Sent, res: HttpResult, unauthorized = false): Logged | undefined {
  const request = sendingRequest(o, sent, res.exchange.seq);
  if (!request) return undefined;
  const authorization = header(sent.headers, 'authorization');
  const x: Observed = {
    ...request.x,
    startPrecisionMs: 1,
    endMs: sent.endMs,
    startedAt: res.exchange.startedAt,
    durationMs: res.exchange.durationMs,
    status: res.status,
    responseHeaders: res.headers,
    responseBody: res.text,
    credential: authorization === undefined ? undefined : credentialOf(authorization),
  };
  const authority: Authority = res.exchange.credentials?.length
    ? 'configured'
    : unauthorized
      ? 'unauthorized'
      : authorization !== undefined
        ? 'made-up'
        : 'none';
  return { ...request, x, res, authority };
}

/**
 * A request that left the machine and got no answer the client returned (a timeout, a reset, 502/503/504, a burst
 * of 429/5xx): the same entry with status 0, "no answer", as a capture writes an aborted request. The run log keeps
 * it apart (RunLog.appendUnanswered): a fold that asks learns the write may have landed; nothing else reads it.
 */
export function unansweredExchange(o: SendOptions, sent: Sent, ex: Exchange): Logged | undefined {
  const res: HttpResult = { status: 0, headers: {}, text: '', truncated: false, json: undefined, exchange: ex };
  const logged = loggedExchange(o, sent, res);
  return logged && { ...logged, x: { ...logged.x, responseHeaders: {}, responseBody: '' } };
}
