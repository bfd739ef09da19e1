import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfigError, configWarnings, resolveConfig, secretValues } from '../harness/config';
import { DbsiClient, NotAllowedError, TransportError, type SendOptions } from '../harness/http/client';
import { AREAS } from '../harness/model';
import { operation, OPERATIONS, switchForRequest, type OperationKey } from '../harness/operations';
import { Redactor } from '../harness/redact';
import { referenceConfig } from '../reference-target/config';
import { PREFIXES } from '../reference-target/fixtures';
import { startReferenceTarget, type ReferenceTarget } from '../reference-target/server';
import { explain, runAreas } from './_reference';
import { configFor } from './_misbehaving-server';

/**
 * The safety switches are enforced by the harness itself: with every switch off, no request that
 * changes real things leaves the machine, whatever operation or odd path a test builds.
 */

const ALL_OFF = {
  moneyMovement: false,
  contactUpdate: false,
  tokenRevocation: false,
  institutionDisclosureWrites: false,
};

let target: ReferenceTarget;
let client: DbsiClient;
beforeAll(async () => {
  target = await startReferenceTarget();
  const config = referenceConfig(target, { allow: ALL_OFF });
  client = new DbsiClient(config, new Redactor(secretValues(config)));
});
afterAll(async () => {
  await client.close();
  await target.close();
});

const MUTATING = (Object.keys(OPERATIONS) as OperationKey[]).filter((k) => 'mutates' in OPERATIONS[k]);
const PARAMS = { institutionDisclosureId: 'disc-001', customerId: 'cust-1', institutionUserDisclosureId: 'x' };

/** Deliberately odd requests a test might build: wrong version segments, case, encoding, methods. */
const ODD: Array<[string, SendOptions]> = [
  [
    'transfer, wrong version and singular',
    { operation: 'raw', method: 'POST', base: 'transfersBaseUrl', path: '/db-transfers/v2/transfer' },
  ],
  [
    'transfer, upper case',
    { operation: 'raw', method: 'POST', base: 'transfersBaseUrl', path: '/DB-TRANSFERS/V1/TRANSFERS' },
  ],
  [
    'transfer, percent-encoded',
    { operation: 'raw', method: 'POST', base: 'transfersBaseUrl', path: '/db-%74ransfers/v1/%74ransfers' },
  ],
  [
    'anything written to the transfers base URL',
    { operation: 'raw', method: 'PUT', base: 'transfersBaseUrl', path: '/x' },
  ],
  ['revocation, wrong version', { operation: 'raw', method: 'DELETE', base: 'authBaseUrl', path: '/oauth2/v2/revoke' }],
  ['revocation with POST', { operation: 'raw', method: 'POST', base: 'authBaseUrl', path: '/oauth2/v1/revoke' }],
  ['anything written to the token base URL', { operation: 'raw', method: 'PATCH', base: 'authBaseUrl', path: '/y' }],
  ['contact update, encoded colon', { operation: 'raw', method: 'PUT', path: '/customers/c1%3Acontact-info' }],
  ['contact update, slash instead of colon', { operation: 'raw', method: 'PATCH', path: '/customers/c1/contact-info' }],
  [
    'institution disclosure write, wrong version',
    { operation: 'raw', method: 'POST', path: '/db-disclosures/v2/institution-disclosures' },
  ],
  [
    'institution disclosure delete (not an operation)',
    { operation: 'raw', method: 'DELETE', path: '/db-disclosures/v1/institution-disclosures/disc-001' },
  ],
  ['the list operation sent with POST', { operation: 'listInstitutionDisclosures', method: 'POST' }],
  ['a create sent to the wrong base URL', { operation: 'createTransfer', base: 'baseUrl' }],
];

describe('with every safety switch off, nothing that changes real things leaves the machine', () => {
  test.each(MUTATING.map((k) => [k] as const))('%s is refused before sending', async (key) => {
    const before = target.received.length;
    const err = await client.send({ operation: key, pathParams: PARAMS, body: { a: 1 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotAllowedError);
    expect((err as NotAllowedError).safetySwitch).toBe(operation(key).mutates);
    expect(target.received.length).toBe(before);
  });

  test.each(ODD)('odd request: %s is refused before sending', async (_name, o) => {
    const before = target.received.length;
    const err = await client.send({ pathParams: PARAMS, ...o }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotAllowedError);
    expect(target.received.length).toBe(before);
  });

  test(
    'an id that happens to contain "transfer" or "customer" does not ' + 'make a user-disclosure delete look like one',
    () => {
      expect(
        client.resolve({
          operation: 'deleteUserDisclosureById',
          pathParams: { institutionUserDisclosureId: 'customer-transfer-contact-1' },
        }).needs,
      ).toBeUndefined();
    },
  );

  test('reads are not refused', async () => {
    const res = await client.send({ operation: 'listInstitutionDisclosures' });
    expect(res.status).toBeGreaterThan(0);
  });

  test(
    'a whole run of every area: no mutating request reaches the target; ' +
      'those cases are "not allowed", none crashes',
    async () => {
      const run = await runAreas({ areas: [...AREAS], allow: ALL_OFF });
      const reached = run.target.received.filter((r) => {
        const mount = (Object.entries(PREFIXES) as Array<[string, string]>).find(([, p]) => r.path.startsWith(p + '/'));
        const after = mount ? r.path.slice(mount[1].length) : r.path;
        const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(r.method);
        return (
          unsafe &&
          (switchForRequest(r.method, after) !== undefined ||
            mount?.[0] === 'transfersBaseUrl' ||
            mount?.[0] === 'authBaseUrl')
        );
      });
      expect(reached).toEqual([]);
      expect(
        run.cases.filter((c) => c.outcome === 'error'),
        explain(run.cases),
      ).toEqual([]);
      for (const c of run.cases.filter((c) => c.outcome === 'not-allowed'))
        expect(c.reason).toMatch(/^skipped: not allowed on this target \(allow\.\w+ is off\)/);
    },
  );
});

describe('the configuration refuses what is unsafe, and says what it allows', () => {
  const raw = (url: string, http: Record<string, unknown> = {}) => configFor(url, http);

  test('plain http:// to a non-loopback host is refused', () => {
    expect(() => resolveConfig(raw('http://bank.example.com'), {})).toThrow(ConfigError);
    expect(() => resolveConfig(raw('http://10.0.0.7:8080'), {})).toThrow(/plain http:\/\/ to a non-loopback host/);
  });

  test('…unless explicitly allowed, and then a warning says so', () => {
    const cfg = resolveConfig(raw('http://bank.example.com', { allowInsecureHttp: true }), {});
    expect(configWarnings(cfg).join('\n')).toMatch(/plain http:\/\/ to a non-loopback host/);
  });

  test('https:// and loopback http:// are accepted without a warning', () => {
    expect(configWarnings(resolveConfig(raw('https://bank.example.com'), {}))).toEqual([]);
    expect(configWarnings(resolveConfig(raw('http://127.0.0.1:9'), {}))).toEqual([]);
    expect(configWarnings(resolveConfig(raw('http://localhost:9'), {}))).toEqual([]);
  });

  test('TLS verification is on by default, and turning it off is never silent', () => {
    expect(resolveConfig(raw('https://bank.example.com'), {}).http.tls.rejectUnauthorized).toBe(true);
    const off = resolveConfig(raw('https://bank.example.com', { tls: { rejectUnauthorized: false } }), {});
    expect(configWarnings(off).join('\n')).toMatch(/TLS certificate verification is OFF/);
  });
});

describe('TLS verification is really on', () => {
  let https: ReturnType<typeof createServer> | undefined;
  let url = '';
  let certFile = '';
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbsi-tls-'));
    certFile = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        certFile,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    https = createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(certFile) }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    await new Promise<void>((r) => https!.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${(https.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => (https ? https.close(() => r()) : r())));

  const send = async (http: Record<string, unknown>) => {
    const cfg = resolveConfig(configFor(url, { timeoutMs: 2_000, ...http }), {});
    const c = new DbsiClient(cfg, new Redactor([]));
    try {
      return await c.send({ operation: 'listInstitutionDisclosures' });
    } finally {
      await c.close();
    }
  };

  test('a self-signed certificate is not trusted by default: could not test, saying why', async () => {
    const err = (await send({}).catch((e: unknown) => e)) as TransportError;
    expect(err).toBeInstanceOf(TransportError);
    expect(err.message).toMatch(/TLS certificate is issued by a CA this machine does not trust .*http\.tls\.caFile/);
  });

  test('it is trusted when its CA is configured (http.tls.caFile)', async () => {
    expect((await send({ tls: { caFile: certFile } })).status).toBe(200);
  });
});
