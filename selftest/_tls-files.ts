import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** TLS files made with the system's openssl for the self-tests: a CA and what it signs, valid and broken. */
export interface TlsFixture {
  dir: string;
  /** The test CA (trusted by the clients that are given it). */
  ca: string;
  caKey: string;
  /** Server key and certificates for 127.0.0.1, signed by the CA: valid, expired, for another host. */
  serverKey: string;
  server: string;
  expired: string;
  otherHost: string;
  /** A client certificate signed by the CA, its key, its key encrypted, and an unrelated key. */
  client: string;
  clientKey: string;
  clientKeyEncrypted: string;
  otherKey: string;
}

const ssl = (dir: string, args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });

/** A new RSA key and a request for a certificate of `cn`. */
const keyAndRequest = (dir: string, key: string, csr: string, cn: string) =>
  ssl(dir, ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', csr, '-subj', `/CN=${cn}`]);

/** The request signed by the test CA, valid for `days` (-1: expired), with the extensions of `ext`. */
const signedByCa = (dir: string, csr: string, out: string, days: string, ext?: string) =>
  ssl(dir, [
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    out,
    '-days',
    days,
    ...(ext ? ['-extfile', ext] : []),
  ]);

export function makeTlsFixture(): TlsFixture {
  const dir = mkdtempSync(join(tmpdir(), 'dbsi-tls-'));
  const p = (f: string) => join(dir, f);
  writeFileSync(p('ip.ext'), 'subjectAltName=IP:127.0.0.1\n');
  writeFileSync(p('other.ext'), 'subjectAltName=DNS:other.example\n');
  ssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=dbsi test CA',
  ]);
  keyAndRequest(dir, 'server.key', 'server.csr', '127.0.0.1');
  signedByCa(dir, 'server.csr', 'server.pem', '2', 'ip.ext');
  signedByCa(dir, 'server.csr', 'expired.pem', '-1', 'ip.ext');
  signedByCa(dir, 'server.csr', 'other-host.pem', '2', 'other.ext');
  keyAndRequest(dir, 'client.key', 'client.csr', 'dbsi client');
  signedByCa(dir, 'client.csr', 'client.pem', '2');
  ssl(dir, ['pkey', '-in', 'client.key', '-out', 'client-encrypted.key', '-aes256', '-passout', 'pass:dbsi-test-pass']);
  ssl(dir, ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'other.key']);
  return {
    dir,
    ca: p('ca.pem'),
    caKey: p('ca.key'),
    serverKey: p('server.key'),
    server: p('server.pem'),
    expired: p('expired.pem'),
    otherHost: p('other-host.pem'),
    client: p('client.pem'),
    clientKey: p('client.key'),
    clientKeyEncrypted: p('client-encrypted.key'),
    otherKey: p('other.key'),
  };
}
