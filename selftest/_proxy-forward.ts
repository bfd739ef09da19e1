import { request, type IncomingHttpHeaders, type ServerResponse } from 'node:http';

/** The two halves every proxy of the self-tests shares (selftest/_flaky-proxy.ts, _safety-holdout-proxy.ts). */

/** A whole answer of the upstream target. */
export type Upstream = { status: number; headers: IncomingHttpHeaders; body: Buffer };

/** The request passed on to the upstream target (its body as given: replaced or not), and its whole answer. */
export function forward(
  upstream: URL,
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
): Promise<Upstream> {
  // The length of the body sent, where the request had one (a replaced body has another).
  const length = body.length || headers['content-length'] !== undefined ? { 'content-length': `${body.length}` } : {};
  return new Promise<Upstream>((resolve, reject) => {
    const up = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method,
        path,
        headers: { ...headers, host: upstream.host, connection: 'close', ...length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    up.on('error', reject);
    up.end(body);
  });
}

/** The upstream answer passed back as it came (its hop-by-hop headers left out). */
export function passBack(res: ServerResponse, a: Upstream): void {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(a.headers))
    if (typeof v === 'string' && !['connection', 'keep-alive', 'transfer-encoding'].includes(k)) headers[k] = v;
  headers['content-length'] = String(a.body.length);
  res.writeHead(a.status, headers);
  res.end(a.body);
}
