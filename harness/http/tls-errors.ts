import { connect, type ConnectionOptions } from 'node:tls';
import { afterIo } from './loop-bound';

/**
 * TLS failures named by their real cause, with what to do about it: the target's certificate
 * expired, is for another host, or comes from a CA this machine does not trust; or the target wants
 * a client certificate (mutual TLS) it did not get.
 */

/** A pattern that matches exactly one of the codes (each a pattern itself), after a prefix. */
const oneOf = (codes: string[], prefix = '') => new RegExp(`^${prefix}(${codes.join('|')})$`);

const UNTRUSTED = oneOf([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?',
  'UNABLE_TO_GET_CRL',
  'CERT_UNTRUSTED',
  'INVALID_CA',
]);
const CLIENT_CERT_REFUSED = oneOf(
  [
    'SSLV3_ALERT_BAD_CERTIFICATE',
    'SSLV3_ALERT_CERTIFICATE_UNKNOWN',
    'SSLV3_ALERT_UNSUPPORTED_CERTIFICATE',
    'SSLV3_ALERT_CERTIFICATE_EXPIRED',
    'SSLV3_ALERT_CERTIFICATE_REVOKED',
    'TLSV1_ALERT_UNKNOWN_CA',
    'TLSV1_ALERT_ACCESS_DENIED',
    'TLSV1_ALERT_DECRYPT_ERROR',
  ],
  'ERR_SSL_',
);

/** What a TLS error code means for the person running the suite, or undefined when the code is not a TLS one. */
export function tlsProblem(code: string, message = ''): string | undefined {
  if (code === 'CERT_HAS_EXPIRED')
    return `the target's TLS certificate has expired (${code}); the ` + `target must renew it (no CA file helps)`;
  if (code === 'CERT_NOT_YET_VALID')
    return (
      `the target's TLS certificate is not valid yet (${code}); check ` + `the clock of this machine and of the target`
    );
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return (
      `the target's TLS certificate is for another host name than the URL's (${code}: ` +
      `${message.replace(/\s+$/, '')}); use the host name the certificate names`
    );
  if (UNTRUSTED.test(code))
    return (
      `the target's TLS certificate is issued by a CA this machine does not ` +
      `trust (${code}); give that CA in http.tls.caFile`
    );
  if (/^CERT_/.test(code)) return `the target's TLS certificate is not valid (${code})`;
  if (code === 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED')
    return (
      `the target requires a client certificate (mutual TLS) and got none it accepts ` +
      `(${code}); set http.tls.certFile and http.tls.keyFile`
    );
  if (CLIENT_CERT_REFUSED.test(code))
    return (
      `the target refused the client certificate of http.tls.certFile (${code}); check ` +
      `that the target trusts its issuer and that it is still valid`
    );
  if (code === 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE')
    return (
      `the target ended the TLS handshake (${code}): it may require a client certificate (mutual TLS: ` +
      `http.tls.certFile and http.tls.keyFile), or share no TLS version or cipher with this machine`
    );
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER')
    return `the target does not speak TLS on this port (${code}); is ` + `the URL http:// rather than https://?`;
  if (/^ERR_SSL_|^ERR_TLS_/.test(code)) return `the TLS handshake with the target failed (${code})`;
  return undefined;
}

const HANDSHAKE_ALERTS = new Set([
  'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'ERR_SSL_UNSUPPORTED_PROTOCOL',
  'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION',
]);

/**
 * Whether a TLS failure with this code can only happen before the client wrote any byte of the
 * request: undici writes it once the handshake completed on its side ('secureConnect'). The
 * certificate checks of this machine (expired, another host, an untrusted CA) and the target's alerts
 * during the handshake (no shared version or cipher, not TLS at all) come before that. Not the alerts
 * about the client certificate (TLS 1.3 sends them after the client's side completed, when the
 * request may already be written), nor any other TLS error (it may come later in the connection).
 */
export function failsBeforeRequestWritten(code: string): boolean {
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || UNTRUSTED.test(code) || /^CERT_/.test(code)) return true;
  return HANDSHAKE_ALERTS.has(code);
}

/**
 * Why a TLS server closed a connection without an answer, when it was TLS: undici only reports
 * "other side closed", while a target that requires a client certificate (TLS 1.3) sent an alert
 * first. One bounded probe connection reads that alert; the TLS error code, or undefined.
 */
export function probeTlsClose(
  url: string,
  tls: Pick<ConnectionOptions, 'ca' | 'cert' | 'key' | 'rejectUnauthorized'>,
  timeoutMs: number,
): Promise<string | undefined> {
  const u = new URL(url);
  if (u.protocol !== 'https:') return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const host = u.hostname.replace(/^\[|\]$/g, '');
    const socket = connect({
      host,
      port: Number(u.port || 443),
      servername: /^[\d.]+$|:/.test(host) ? undefined : host,
      ALPNProtocols: ['http/1.1'],
      ...tls,
    });
    let settled = false;
    const done = (code: string | undefined) => {
      if (settled) return;
      settled = true;
      timer.clear();
      socket.destroy();
      resolve(code);
    };
    const timer = afterIo(timeoutMs, () => done(undefined));
    socket.on('secureConnect', () =>
      socket.write(`HEAD ${u.pathname || '/'} HTTP/1.1\r\nHost: ` + `${u.host}\r\nConnection: close\r\n\r\n`),
    );
    socket.on('data', () => done(undefined));
    socket.on('end', () => done(undefined));
    socket.on('error', (e: NodeJS.ErrnoException) => done(e.code && tlsProblem(e.code) ? e.code : undefined));
  });
}

/**
 * Whether the port of an http:// URL speaks TLS: one bounded TLS handshake (the certificate is not
 * judged). A target that closed a plain HTTP connection without an answer and completes a handshake
 * wants https://.
 */
export function speaksTls(url: string, timeoutMs: number): Promise<boolean> {
  const u = new URL(url);
  if (u.protocol !== 'http:') return Promise.resolve(false);
  return new Promise((resolve) => {
    const socket = connect({
      host: u.hostname.replace(/^\[|\]$/g, ''),
      port: Number(u.port || 80),
      rejectUnauthorized: false,
      ALPNProtocols: ['http/1.1'],
    });
    let settled = false;
    const done = (tls: boolean) => {
      if (settled) return;
      settled = true;
      timer.clear();
      socket.destroy();
      resolve(tls);
    };
    const timer = afterIo(timeoutMs, () => done(false));
    socket.once('secureConnect', () => done(true));
    // A TLS alert (a client certificate required …) is TLS all the same; a reset or a plain answer is not.
    socket.once('error', (e: NodeJS.ErrnoException) => done(/^ERR_SSL_.*ALERT/.test(e.code ?? '')));
  });
}

/** The message of a plain HTTP request closed without an answer by a port that speaks TLS. */
export function plainHttpToTls(code: string): string {
  return (
    `the connection was closed without an answer (${code}) and the port speaks TLS: ` +
    `is the URL https:// rather than http://?`
  );
}
