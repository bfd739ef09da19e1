import { readFileSync } from 'node:fs';
import { createServer, type ServerOptions } from 'node:https';
import { beforeAll, describe, expect, test } from 'vitest';
import { resolveConfig, secretValues } from '../harness/config';
import { DbsiClient, nothingSent, TransportError } from '../harness/http/client';
import { tlsProblem } from '../harness/http/tls-errors';
import { Redactor } from '../harness/redact';
import { makeTlsFixture, type TlsFixture } from './_tls-files';

/** Issue 11: a TLS failure names its real cause (expired, wrong host, unknown CA, client certificate required). */

let tls: TlsFixture;
beforeAll(() => {
  tls = makeTlsFixture();
});

/** Send one request to an https server made with `server` options; the client error message. */
async function failureAgainst(server: ServerOptions, clientTls: Record<string, string> = {}): Promise<string> {
  return (await errorAgainst(server, clientTls)).message;
}

/** Send one request (a contact update: a write) to an https server made with `server` options; the client error. */
async function errorAgainst(server: ServerOptions, clientTls: Record<string, string> = {}): Promise<TransportError> {
  const srv = createServer({ key: readFileSync(tls.serverKey), cert: readFileSync(tls.server), ...server }, (_q, s) =>
    s.end('{}'),
  );
  srv.on('tlsClientError', () => undefined);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const url = `https://127.0.0.1:${(srv.address() as { port: number }).port}`;
  const config = resolveConfig(
    {
      baseUrl: `${url}/api`,
      authBaseUrl: `${url}/id`,
      transfersBaseUrl: `${url}/x`,
      credentials: { bearerToken: 'tls-token-1234' },
      http: { timeoutMs: 3_000, retries: 0, tls: { caFile: tls.ca, ...clientTls } },
    },
    {},
  );
  const client = new DbsiClient(config, new Redactor(secretValues(config)));
  try {
    const err = await client.send({ operation: 'listInstitutionDisclosures' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TransportError);
    return err as TransportError;
  } finally {
    await client.close();
    srv.closeAllConnections();
    await new Promise((r) => srv.close(r));
  }
}

describe('TLS errors name their real cause', () => {
  test('an expired certificate: expired, and no advice about a CA file', async () => {
    const m = await failureAgainst({ cert: readFileSync(tls.expired) });
    expect(m).toContain('certificate has expired (CERT_HAS_EXPIRED)');
    expect(m).not.toContain('caFile');
  });

  test('a certificate for another host: the host name', async () => {
    const m = await failureAgainst({ cert: readFileSync(tls.otherHost) });
    expect(m).toContain('is for another host name');
    expect(m).not.toContain('caFile');
  });

  test('an unknown CA: give it in http.tls.caFile', async () => {
    const m = await failureAgainst({ cert: readFileSync(tls.server) }, { caFile: tls.server });
    expect(m).toMatch(/issued by a CA this machine does not trust .*http\.tls\.caFile/);
  });

  test('a client certificate required (TLS 1.3) and none configured: mutual TLS named', async () => {
    const m = await failureAgainst({ requestCert: true, rejectUnauthorized: true, ca: readFileSync(tls.ca) });
    expect(m).toContain('requires a client certificate (mutual TLS)');
    expect(m).toContain('http.tls.certFile');
  });

  test('a client certificate required (TLS 1.2): the handshake failure says it may be mutual TLS', async () => {
    const m = await failureAgainst({
      requestCert: true,
      rejectUnauthorized: true,
      ca: readFileSync(tls.ca),
      maxVersion: 'TLSv1.2',
    });
    expect(m).toContain('may require a client certificate (mutual TLS');
  });

  test('with the client certificate configured, the request goes through', async () => {
    const srv = createServer(
      {
        key: readFileSync(tls.serverKey),
        cert: readFileSync(tls.server),
        requestCert: true,
        rejectUnauthorized: true,
        ca: readFileSync(tls.ca),
      },
      (_q, s) => s.end('{}'),
    );
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const url = `https://127.0.0.1:${(srv.address() as { port: number }).port}`;
    const config = resolveConfig(
      {
        baseUrl: `${url}/api`,
        authBaseUrl: `${url}/id`,
        transfersBaseUrl: `${url}/x`,
        http: { timeoutMs: 3_000, tls: { caFile: tls.ca, certFile: tls.client, keyFile: tls.clientKey } },
      },
      {},
    );
    const client = new DbsiClient(config, new Redactor([]));
    try {
      expect((await client.send({ operation: 'listInstitutionDisclosures' })).status).toBe(200);
    } finally {
      await client.close();
      srv.closeAllConnections();
      await new Promise((r) => srv.close(r));
    }
  });

  test(
    'a handshake that fails before the request is written sent ' + 'nothing; a client certificate alert may come after',
    async () => {
      const before = await Promise.all([
        errorAgainst({ cert: readFileSync(tls.expired) }),
        errorAgainst({ cert: readFileSync(tls.otherHost) }),
        errorAgainst({ cert: readFileSync(tls.server) }, { caFile: tls.server }),
        errorAgainst({ requestCert: true, rejectUnauthorized: true, ca: readFileSync(tls.ca), maxVersion: 'TLSv1.2' }),
      ]);
      for (const e of before) {
        expect(e.exchange?.notSent, e.message).toBe(true);
        expect(nothingSent(e), e.message).toBe(true);
      }
      // TLS 1.3: the client's side of the handshake is done and the request may be written when the alert comes.
      const after = await errorAgainst({ requestCert: true, rejectUnauthorized: true, ca: readFileSync(tls.ca) });
      expect(after.exchange?.notSent).toBeUndefined();
      expect(nothingSent(after)).toBe(false);
    },
  );

  test('codes that are not TLS are left to the other classifications', () => {
    expect(tlsProblem('ECONNRESET')).toBeUndefined();
    expect(tlsProblem('UND_ERR_SOCKET')).toBeUndefined();
  });
});
