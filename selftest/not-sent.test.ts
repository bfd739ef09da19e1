import { describe, expect, test } from 'vitest';
import { CaseContext, feature, type RunSettings } from '../harness/case';
import { resolveConfig, secretValues, type TargetConfig } from '../harness/config';
import { sendUntilAnswered } from '../harness/http/cleanup-retry';
import { DbsiClient, nothingSent, TransportError, type SendOptions } from '../harness/http/client';
import type { Exchange } from '../harness/model';
import { Redactor } from '../harness/redact';
import { createUserDisclosureRequest } from '../data-builders/disclosures';
import { caseKnows } from '../suites/disclosures/_known-records';
import { RUN_LOG } from '../harness/log/run-log';
import { entry } from './_state-entries';
import { configFor, startMisbehavingServer } from './_misbehaving-server';
import { runAreas } from './_reference';
import { closedPort } from './_closed-port';

/**
 * Issue 20: a request that never left the machine (connection refused, name not resolved, a TLS
 * handshake that failed before the request was written: selftest/tls-errors.test.ts) is marked
 * notSent, and nothing the run keeps about the target's state counts it as a change: no leftover is
 * claimed for an update whose every attempt was not sent.
 */

const ALL_ALLOWED = {
  moneyMovement: true,
  contactUpdate: true,
  tokenRevocation: true,
  institutionDisclosureWrites: true,
};
const UPDATE: SendOptions = { operation: 'updateContactInfo', pathParams: { customerId: 'c1' }, body: { phone: '1' } };

const configAt = (url: string, http: Record<string, unknown>) =>
  resolveConfig({ ...configFor(url, http), allow: ALL_ALLOWED }, {});

function clientFor(url: string, http: Record<string, unknown> = {}): DbsiClient {
  const config = configAt(url, { timeoutMs: 2_000, retries: 1, ...http });
  return new DbsiClient(config, new Redactor(secretValues(config)));
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('the request was answered');
    },
    (e: unknown) => e as TransportError,
  );

describe('a request that never left the machine is notSent', () => {
  test('a refused connection and a name that does not resolve: notSent; a reset and a timeout: not', async () => {
    const closed = clientFor(`http://127.0.0.1:${await closedPort()}`);
    const nowhere = clientFor('https://dbsi-nowhere.invalid', { retries: 0 });
    const refused = await failure(closed.send(UPDATE));
    const unresolved = await failure(nowhere.send(UPDATE));
    await Promise.all([closed.close(), nowhere.close()]);
    for (const e of [refused, unresolved]) {
      expect(e.exchange?.notSent, e.message).toBe(true);
      expect(nothingSent(e), e.message).toBe(true);
    }
    for (const kind of ['reset', 'silent'] as const) {
      const server = await startMisbehavingServer(kind);
      const client = clientFor(server.url, { timeoutMs: 300 });
      const e = await failure(client.send(UPDATE));
      await client.close();
      await server.close();
      expect(e.exchange?.notSent, kind).toBeUndefined();
      expect(nothingSent(e), kind).toBe(false);
    }
  });

  test('a clean-up request sent again until answered: never sent only if no try was sent', async () => {
    const request = { method: 'PUT', url: 'u', headers: {} };
    const ex = (notSent: boolean): Exchange => ({
      ...{ seq: 1, operation: 'updateContactInfo', request, startedAt: '', durationMs: 0, retries: [], curl: '' },
      ...(notSent ? { notSent } : {}),
    });
    const refused = () => new TransportError('connection', 'could not connect (ECONNREFUSED)', ex(true));
    const timedOut = () => new TransportError('timeout', 'no complete answer', ex(false));
    const run = (tries: Array<() => TransportError>) =>
      failure(
        sendUntilAnswered(
          async ({ n }) => {
            throw tries[Math.min(n, tries.length - 1)]!();
          },
          { deadline: () => Date.now() + 800, until: Date.now() },
        ),
      );
    expect(nothingSent(await run([refused]))).toBe(true);
    // The first try may have landed; the refused one after it does not undo that.
    expect(nothingSent(await run([timedOut, refused]))).toBe(false);
  });
});

describe('no leftover is claimed for an update that was never sent', () => {
  test('contact-info against a base URL nobody listens on: could not test, nothing left on the target', async () => {
    const port = await closedPort();
    const { cases, target } = await runAreas({
      areas: ['contact-info'],
      allow: { contactUpdate: true },
      http: { timeoutMs: 2_000, retries: 1 },
      configure: (cfg): TargetConfig => ({ ...cfg, baseUrl: `http://127.0.0.1:${port}/dbsi` }),
    });
    expect(target.received).toEqual([]);
    const judged = cases.filter((c) => c.outcome !== 'could-not-test' && c.outcome !== 'not-applicable');
    expect(judged.map((c) => `${c.outcome}: ${c.id}`)).toEqual([]);
    // Every request the cases tried was refused before it was sent, and none was taken as a change.
    const sent = cases.flatMap((c) => c.exchanges).filter((e) => !e.notSent);
    expect(sent.map((e) => `${e.request.method} ${e.error?.message}`)).toEqual([]);
    expect(cases.flatMap((c) => c.leftovers ?? [])).toEqual([]);
    const leftOrProblems = cases.filter((c) => /LEFT ON THE TARGET|clean-up problems/.test(c.reason ?? ''));
    expect(leftOrProblems.map((c) => c.reason)).toEqual([]);
  });

  test('a disclosure record: a create that was never sent leaves what the case knows as it was', async () => {
    const config = configAt(`http://127.0.0.1:${await closedPort()}`, { retries: 0 });
    const client = new DbsiClient(config, new Redactor(secretValues(config)));
    const settings: RunSettings = { config, seed: 1, strict: false, runId: 'rtst', specUrl: 'spec.md' };
    const f = feature('disclosures', 'createUserDisclosure', [{ title: 'x', requirements: [], run: async () => {} }]);
    const t = new CaseContext(settings, client, f, f.cases[0]!);
    const d = { institutionDisclosureId: 'd1', institutionDisclosureName: 'dbsi-test', institutionId: '1001' };
    // The run's log shows the user has no record of it (a list), before the create that never left the machine.
    const { keepsAuthorization: _k, ...listed } = entry(1, 'listUserDisclosures', {
      query: { InstitutionConsumerId: config.testData.institutionUserId },
      json: { institutionUserDisclosures: [] },
    });
    t.run.get(RUN_LOG).append(listed);
    expect(caseKnows(t, d)).toBe('absent');
    const create = createUserDisclosureRequest(t.faker, config, d);
    const e = await failure(t.send({ operation: 'createUserDisclosure', ...create }));
    await client.close();
    expect(nothingSent(e)).toBe(true);
    expect(caseKnows(t, d)).toBe('absent');
  });
});
