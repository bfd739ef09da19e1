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

/**
 * An active run's exchange as the rules read a capture's: the client knows the operation and its
 * parameters, where a capture's are mapped from the URL (harness/traffic/operation-map.ts), and which
 * credentials it sent (`unauthorized`: the configured token that lacks authorization, harness/credentials.ts).
 */
export function loggedExchange(o: SendOptions, sent: Sent, res: HttpResult, unauthorized = false): Logged | undefined {
  if (o.operation === 'raw') return undefined;
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(o.query ?? {})) if (v !== undefined) query.append(k, v);
  const authorization = header(sent.headers, 'authorization');
  const x: Observed = {
    index: res.exchange.seq,
    startMs: sent.startMs,
    startPrecisionMs: 1,
    endMs: sent.endMs,
    startedAt: res.exchange.startedAt,
    durationMs: res.exchange.durationMs,
    method: sent.method,
    url: sent.url,
    requestHeaders: sent.headers,
    requestBody: sent.body,
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
  const mapped = { operation: o.operation, pathParams: { ...(o.pathParams ?? {}) }, query };
  return { x, res, mapped, authority, ...(o.path ? { undocumentedPath: true } : {}) };
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
