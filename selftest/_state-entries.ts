import type { HttpResult, Seen } from '../harness/log/entry';

/** A log entry as the state folds read it (harness/state/): the operation, its parameters, the request and answer. */
export function entry(
  index: number,
  operation: Seen['mapped']['operation'],
  o: {
    status?: number;
    json?: unknown;
    body?: unknown;
    pathParams?: Record<string, string>;
    query?: Record<string, string>;
    label?: string;
  } = {},
): Seen {
  const text = o.json === undefined ? '' : JSON.stringify(o.json);
  return {
    x: {
      index,
      startMs: index,
      startPrecisionMs: 1,
      endMs: index,
      startedAt: '',
      durationMs: 0,
      method: 'GET',
      url: '',
      requestHeaders: {},
      requestBody: o.body === undefined ? undefined : JSON.stringify(o.body),
      status: o.status ?? 200,
      responseHeaders: {},
      responseBody: text,
      ...(o.label ? { credential: { label: o.label, scheme: 'bearer' } } : {}),
    },
    res: { status: o.status ?? 200, json: o.json, text } as unknown as HttpResult,
    mapped: { operation, pathParams: o.pathParams ?? {}, query: new URLSearchParams(o.query ?? {}) },
    keepsAuthorization: true,
  };
}
