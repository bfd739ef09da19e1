import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, test } from 'vitest';
import type { TargetConfig } from '../harness/config';
import type { Area } from '../harness/model';
import { exitCodeFor } from '../harness/run/results';
import { diagnosisBlock, setupFindings } from '../harness/setup/diagnosis';
import { SetupProof } from '../harness/setup/proof';
import type { FixtureSetName } from '../reference-target/fixture-sets';
import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { startFront, throughFront, type Front, type FrontRule } from './_front';
import { explain, runAreas } from './_reference';
import { makeTlsFixture } from './_tls-files';

/**
 * Issue 31: the diagnosis by evidence, as a table. Each row makes one mistake of an operator, or one
 * fault of a target, against the reference target (with a named fault, a configuration, or a front on
 * 127.0.0.1 that makes it an independent target: _front.ts), and states the verdict the run must give
 * (exit 1: the target failed; exit 3: could not test) and the exact key the DIAGNOSIS block names, or
 * must not name. The rows of issue 20 (expired token, wrong base path, stale disclosure, business id on
 * retail, closed port, wrong phone, throttling) stay in setup-proof, setup-test-data, reachability,
 * contact-info and throttled-target self-tests. The evidence each row rests on: docs/diagnosis.md.
 */
interface Row {
  /** The mistake or fault made against the reference target. */
  name: string;
  areas: Area[];
  fixtures?: FixtureSetName;
  faults?: string[];
  configure?: (c: TargetConfig) => TargetConfig;
  /** A server of the row's own (a TLS port, a silent proxy), started before the run and closed after it. */
  server?: () => Promise<{ configure: (c: TargetConfig) => TargetConfig; close: () => Promise<void> }>;
  /** Judged as a --reference run (the embedded target: the setup cannot be wrong). */
  embedded?: boolean;
  /** The target behind a front that follows this rule. */
  front?: FrontRule;
  /** 1: the target failed (a verdict); 3: could not test. */
  exit: 1 | 3;
  /** Requirements that must be failed. */
  failed?: string[];
  /** The key the DIAGNOSIS block names (exactly this text, in a finding's key). */
  names?: string;
  /** What the named finding says (its problem line). */
  says?: RegExp;
  /** The `setup:` note a failure that stands carries (the configured values it rests on). */
  noted?: RegExp;
  /** Exactly the keys the DIAGNOSIS block names, in this order (one root cause first, what follows folded). */
  keys?: string[];
  /** The run stopped sending with a credential that expired: requests not sent, saying so. */
  stopsSending?: boolean;
  /** Keys the DIAGNOSIS block must not name. */
  notNamed?: string[];
}

/** A front that serves a configured token n times, then answers 401 to every request carrying it. */
function expiresAfter(n: number, token: string = REFERENCE_CREDENTIALS.bearerToken): FrontRule {
  let served = 0;
  return (r) => {
    if (r.headers.authorization !== `Bearer ${token}`) return { kind: 'forward' };
    return ++served <= n ? { kind: 'forward' } : { kind: 'answer', status: 401, body: { error: 'token expired' } };
  };
}

/**
 * A front that loses the configured number on record after the first update it served: every later update
 * naming it as oldPhoneNumber is answered 409 (the target's fault, after a write of its own).
 */
function losesThePhoneAfterItsFirstWrite(): FrontRule {
  const contact = (m: string, p: string) => m === 'PUT' && p.includes(':contact-info');
  const { customer, moreCustomers } = REFERENCE_TEST_DATA;
  const named = [customer, ...moreCustomers].map((c) => `"oldPhoneNumber":"${c.phoneNumber}"`);
  return (r) =>
    contact(r.method, r.path) &&
    named.some((n) => r.body.includes(n)) &&
    r.history.some((h) => h.method === 'PUT' && h.path === r.path && h.status >= 200 && h.status < 300)
      ? { kind: 'answer', status: 409, body: { message: 'oldPhoneNumber does not match the phone number on record' } }
      : { kind: 'forward' };
}

const ROWS: Row[] = [
  {
    name: 'the target answers 405 to the documented DELETE of token revocation (it takes POST)',
    areas: ['authentication'],
    faults: ['op8-revoke-post-only'],
    exit: 1,
    failed: ['OP8-REQUEST'],
    notNamed: ['authBaseUrl', 'testData.revocation'],
  },
  {
    name: "the target serves the disclosures at v2 only (404 at the spec's v1 path)",
    areas: ['disclosures'],
    front: (r) =>
      r.path.includes('/db-disclosures/v1/')
        ? { kind: 'answer', status: 404 }
        : { kind: 'forward', path: r.path.replace('/db-disclosures/v2/', '/db-disclosures/v1/') },
    exit: 1,
    failed: ['OP1-REQUEST'],
    notNamed: ['baseUrl'],
  },
  {
    name: 'a wrong base path: 404 at v1 and at every neighbouring version (the base URL stays unproven)',
    areas: ['disclosures'],
    configure: (c) => ({ ...c, baseUrl: `${c.baseUrl}/gw-v2` }),
    exit: 3,
    names: 'baseUrl',
    says: /nothing sent to baseUrl was answered other than 404/,
  },
  {
    name: 'a wrong base path: the contact-info tests that name a customer id fold under baseUrl (one entry)',
    areas: ['disclosures', 'contact-info'],
    configure: (c) => ({ ...c, baseUrl: `${c.baseUrl}/gw-v2` }),
    exit: 3,
    keys: ['baseUrl'],
  },
  {
    name: 'a bearer token that expires during the run (served 15 times, then refused everywhere)',
    areas: ['disclosures'],
    front: expiresAfter(15),
    exit: 3,
    names: 'DBSI_BEARER_TOKEN',
    says: /then refused it on every request .* expired or was revoked during the run; check its lifetime/,
    stopsSending: true,
    notNamed: ['testData', 'baseUrl'],
  },
  {
    name: 'a transfers token that expires during the run (one operation, served 4 times, then refused)',
    areas: ['money-movement'],
    front: expiresAfter(4, REFERENCE_CREDENTIALS.transfersToken),
    exit: 3,
    names: 'DBSI_TRANSFERS_TOKEN',
    says: /expired or was revoked during the run; check its lifetime/,
    stopsSending: true,
    notNamed: ['testData', 'transfersBaseUrl'],
  },
  {
    name: "the target refuses the spec's JSON revocation body with 400 UNSUPPORTED_MEDIA_TYPE",
    areas: ['authentication'],
    fixtures: 'retail',
    faults: ['op8-refuses-json-media-type'],
    exit: 1,
    failed: ['OP8-REQUEST'],
    notNamed: ['DBSI_REVOCATION_REFRESH_TOKEN', 'DBSI_REVOCATION_CLIENT'],
    noted: /setup: .*rests on testData\.revocation .*DBSI_REVOCATION_CLIENT_ID.*authBaseUrl/,
  },
  {
    name: "a refresh token already used: the target's error names the grant, shown first, and the key",
    areas: ['authentication'],
    fixtures: 'retail',
    configure: (c) => ({
      ...c,
      testData: { ...c.testData, revocation: { ...c.testData.revocation, refresh_token: 'used-refresh-token-0000' } },
    }),
    exit: 3,
    names: 'DBSI_REVOCATION_REFRESH_TOKEN',
    says: /its error: .*INVALID_GRANT.*the refresh token is not valid.*: check that testData\.revocation/,
  },
  {
    name: 'https:// configured for a port that speaks plain HTTP',
    areas: ['disclosures'],
    configure: (c) => ({ ...c, baseUrl: c.baseUrl.replace(/^http:/, 'https:') }),
    exit: 3,
    names: 'baseUrl',
    says: /baseUrl is https:\/\/ but its port answers plain HTTP .*http:\/\/ rather than https:\/\//,
  },
  {
    name: 'http:// configured for a port that speaks TLS',
    areas: ['disclosures'],
    server: tlsPort,
    exit: 3,
    names: 'baseUrl',
    says: /baseUrl is http:\/\/ but its port speaks TLS .*https:\/\/ rather than http:\/\//,
  },
  {
    name: 'a proxy that accepts connections and never answers',
    areas: ['authentication'],
    server: silentProxy,
    exit: 3,
    names: 'http.proxyUrl',
    says: /nothing sent through the proxy was answered in this run .*check http\.proxyUrl/,
  },
  {
    name: 'the target loses the number on record after its first served update (409 to the configured number)',
    areas: ['contact-info'],
    front: losesThePhoneAfterItsFirstWrite(),
    exit: 1,
    notNamed: ['testData.customer.phoneNumber'],
  },
  {
    name: 'the target clears the number proven on record on an update that supplies only the e-mail',
    areas: ['contact-info'],
    faults: ['ho-op10-email-alone-clears-phone'],
    exit: 1,
    failed: ['OP10-RULE1-UNSUPPLIED-KEPT'],
    notNamed: ['phoneNumber'],
  },
  {
    name: "the embedded target refuses the suite's own bearer token everywhere (never the setup's)",
    areas: ['disclosures'],
    embedded: true,
    configure: (c) => ({ ...c, credentials: { ...c.credentials, bearerToken: 'refused-by-the-target' } }),
    exit: 1,
    failed: ['OP1-REQUEST'],
    notNamed: ['DBSI_BEARER_TOKEN', 'baseUrl'],
  },
];

/** A TLS port (the self-tests' CA): plain HTTP sent there is closed without an answer. */
async function tlsPort() {
  const tls = makeTlsFixture();
  const server = createHttpsServer({ key: readFileSync(tls.serverKey), cert: readFileSync(tls.server) }, (_q, a) =>
    a.end('{}'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    configure: (c: TargetConfig) => ({ ...c, baseUrl: `http://127.0.0.1:${port}/dbsi` }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A proxy that accepts every connection and never answers (the sockets are closed with it). */
async function silentProxy() {
  const sockets = new Set<Socket>();
  const server = createNetServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    configure: (c: TargetConfig) => ({
      ...c,
      http: { ...c.http, proxyUrl: `http://127.0.0.1:${port}`, timeoutMs: 800, retries: 0 },
    }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

async function runRow(r: Row) {
  let front: Front | undefined;
  const own = await r.server?.();
  try {
    return await runAreas({
      areas: r.areas,
      faults: r.faults,
      fixtures: r.fixtures,
      embedded: r.embedded,
      configure: async (c) => {
        let cfg = r.configure ? r.configure(c) : c;
        if (own) cfg = own.configure(cfg);
        if (!r.front) return cfg;
        front = await startFront(cfg.baseUrl, r.front);
        return throughFront(cfg, front);
      },
    });
  } finally {
    await front?.close();
    await own?.close();
  }
}

describe('the diagnosis by evidence (issue 31): one row per mistake or fault', () => {
  test.each(ROWS.map((r) => [r.name, r] as const))('%s', async (_name, r) => {
    const { cases, failed } = await runRow(r);
    const findings = setupFindings(cases, new SetupProof(cases, { embedded: r.embedded }));
    const block = diagnosisBlock(findings).join('\n');
    const why = `${explain(cases)}\n${block}`;
    expect(exitCodeFor(cases), why).toBe(r.exit);
    for (const id of r.failed ?? []) expect([...failed], why).toContain(id);
    if (r.exit === 3) expect([...failed], why).toEqual([]);
    if (r.names) {
      const named = findings.find((f) => f.key.includes(r.names!));
      expect(named, why).toBeDefined();
      if (r.says) expect(named!.problem, why).toMatch(r.says);
    }
    if (r.stopsSending) {
      const held = cases.flatMap((c) => c.exchanges).filter((e) => e.notSent && e.error?.kind === 'target-stopped');
      expect(held.length, why).toBeGreaterThan(0);
      expect(held[0]!.error!.message).toMatch(/expired or was revoked during the run, so the run stopped sending/);
    }
    if (r.keys)
      expect(
        findings.map((f) => f.key),
        why,
      ).toEqual(r.keys);
    if (r.noted) expect(cases.map((c) => c.reason ?? '').join('\n'), why).toMatch(r.noted);
    for (const key of r.notNamed ?? []) expect(findings.map((f) => f.key).join('\n'), why).not.toContain(key);
  });
});

describe('what the proofs cost a conformant run', () => {
  test('the reference target: no finding, no version probe, one proof of a number per customer', async () => {
    const { cases } = await runAreas({ areas: ['disclosures', 'authentication', 'money-movement', 'contact-info'] });
    expect(explain(cases)).not.toMatch(/^(failed|could-not-test)/m);
    expect(setupFindings(cases, new SetupProof(cases))).toEqual([]);
    const labels = cases.flatMap((c) => c.exchanges.map((e) => e.label ?? ''));
    expect(labels.filter((l) => /^list institution disclosures at \//.test(l))).toEqual([]);
    const proofs = cases
      .flatMap((c) => c.exchanges)
      .filter((e) => /^prove before the first write/.test(e.label ?? ''))
      .map((e) => e.request.url);
    // Once per customer: never twice the same customer.
    expect(new Set(proofs).size).toBe(proofs.length);
    const { customer, moreCustomers } = REFERENCE_TEST_DATA;
    const byId = [customer, ...moreCustomers].filter((c) => c.userIdType === 'CUSTOMER_ID');
    expect(proofs.length).toBeLessThanOrEqual(byId.length);
  });
});
