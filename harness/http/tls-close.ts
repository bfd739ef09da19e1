import { readFileSync } from 'node:fs';
import type { TargetConfig } from '../config';
import { plainHttpToTls, probeTlsClose, speaksTls, tlsProblem } from './tls-errors';

/**
 * A TLS target that closed the connection without an answer: why, when TLS says so (a client
 * certificate required), probed once per origin (`probes`, the client's); undefined otherwise.
 */
export async function tlsCloseCause(
  config: TargetConfig,
  probes: Map<string, Promise<string | undefined>>,
  url: string,
  code: string,
): Promise<string | undefined> {
  if (url.startsWith('http:') && !config.http.proxyUrl && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET')) {
    const origin = `tls-of ${new URL(url).origin}`;
    const probe =
      probes.get(origin) ??
      speaksTls(url, Math.min(config.http.timeoutMs, 5_000)).then((tls) => (tls ? code : undefined));
    probes.set(origin, probe);
    return (await probe) ? plainHttpToTls(code) : undefined;
  }
  if (!url.startsWith('https:') || config.http.proxyUrl || (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET'))
    return undefined;
  const origin = new URL(url).origin;
  let probe = probes.get(origin);
  if (!probe) {
    const tls = config.http.tls;
    probe = probeTlsClose(
      url,
      {
        ca: tls.caFile ? readFileSync(tls.caFile) : undefined,
        cert: tls.certFile ? readFileSync(tls.certFile) : undefined,
        key: tls.keyFile ? readFileSync(tls.keyFile) : undefined,
        rejectUnauthorized: tls.rejectUnauthorized,
      },
      Math.min(config.http.timeoutMs, 5_000),
    );
    probes.set(origin, probe);
  }
  const tlsCode = await probe;
  return tlsCode ? tlsProblem(tlsCode) : undefined;
}
