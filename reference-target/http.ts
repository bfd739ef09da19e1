import type { IncomingMessage, ServerResponse } from 'node:http';

/** A request as the reference target's handlers see it: headers lower-cased, body parsed when JSON. */
export interface Req {
  method: string;
  /** The path after the mount prefix, without the query. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  /** Header names exactly as the client sent them (to check documented spellings). */
  rawHeaderNames: string[];
  text: string;
  /** Parsed JSON body; undefined when empty; the symbol INVALID_JSON when not JSON. */
  body: unknown;
  params: Record<string, string>;
}

export const INVALID_JSON = Symbol('invalid-json');

export interface Res {
  status: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as it is; undefined: no body. */
  body?: unknown;
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Res => ({
  status,
  body,
  headers,
});
export const noContent = (): Res => ({ status: 204 });

/**
 * The refusals of the disclosures and contact-info areas: the reference target's own (400 and 401 with a JSON
 * body), or with `other` (the variants disc-refusals-other-shapes, op10-refusals-other-shapes: the errors of those
 * operations are "not shown") a 422 problem+json and a 403 in plain text.
 */
export function refusals(other: boolean): { badRequest(message: string): Res; unauthorized(): Res } {
  return {
    badRequest: (message) =>
      other
        ? json(
            422,
            { type: 'about:blank', title: 'Unprocessable Entity', status: 422, detail: message },
            { 'content-type': 'application/problem+json' },
          )
        : json(400, { error: 'bad_request', message }),
    unauthorized: () =>
      other
        ? { status: 403, headers: { 'content-type': 'text/plain' }, body: 'Forbidden' }
        : json(401, { error: 'unauthorized' }),
  };
}

/**
 * Variants: a JSON answer that says "application/json;charset=UTF-8", with its header names capitalised
 * (Content-Type, X-Correlation-Id) and the members of its object in reverse order when `reorder` is set.
 */
export function dressed(r: Res, extra: Record<string, string> = {}, reorder = false): Res {
  const capital = (k: string) => k.replace(/(^|-)([a-z])/g, (_m, d: string, c: string) => d + c.toUpperCase());
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.headers ?? {})) headers[capital(k)] = v;
  for (const [k, v] of Object.entries(extra)) headers[capital(k)] = v;
  let body = r.body;
  if (body !== undefined && typeof body === 'object' && body !== null) {
    if (reorder && !Array.isArray(body)) body = Object.fromEntries(Object.entries(body).reverse());
    if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type'))
      headers['Content-Type'] = 'application/json;charset=UTF-8';
  }
  return { ...r, headers, body };
}

export type Handler = (req: Req) => Res | Promise<Res>;

export interface Route {
  method: string;
  /** Path template after the mount prefix, {name} segments capture (decoded). */
  path: string;
  handler: Handler;
}

export function compile(route: Route): (method: string, path: string) => Record<string, string> | undefined {
  const names: string[] = [];
  const re = new RegExp(
    '^' +
      route.path
        .split(/(\{\w+\})/)
        .map((part) => {
          const m = /^\{(\w+)\}$/.exec(part);
          if (m) {
            names.push(m[1]!);
            return '([^/]+?)';
          }
          return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        })
        .join('') +
      '$',
  );
  return (method, path) => {
    if (method !== route.method) return undefined;
    const m = re.exec(path);
    if (!m) return undefined;
    const params: Record<string, string> = {};
    names.forEach((n, i) => {
      params[n] = decodeURIComponent(m[i + 1]!);
    });
    return params;
  };
}

export async function readRequest(req: IncomingMessage, prefixLength: number): Promise<Req> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 1_000_000) break;
    chunks.push(c as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  let body: unknown;
  if (text.trim() !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = INVALID_JSON;
    }
  }
  const url = new URL(req.url ?? '/', 'http://reference.invalid');
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers))
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  const rawHeaderNames: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) rawHeaderNames.push(req.rawHeaders[i]!);
  // The raw path keeps percent-encoding so that "/customers/a%2Fb:contact-info" is one segment.
  const rawPath = (req.url ?? '/').split('?')[0]!;
  return {
    method: req.method ?? 'GET',
    path: rawPath.slice(prefixLength) || '/',
    query: url.searchParams,
    headers,
    rawHeaderNames,
    text,
    body,
    params: {},
  };
}

export function writeResponse(res: ServerResponse, r: Res): void {
  const headers: Record<string, string> = { ...(r.headers ?? {}) };
  let payload: string | undefined;
  if (r.body !== undefined) {
    if (typeof r.body === 'string') payload = r.body;
    else {
      payload = JSON.stringify(r.body);
      if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type'))
        headers['content-type'] = 'application/json';
    }
  }
  res.writeHead(r.status, headers);
  res.end(payload);
}
