import { describe, expect, test } from 'vitest';
import { CaseContext, feature, runCase } from '../harness/case';
import { resolveConfig, secretValues } from '../harness/config';
import { DbsiClient } from '../harness/http/client';
import { Redactor } from '../harness/redact';
import { configFor, startMisbehavingServer } from './_misbehaving-server';
import { within } from './_within';

/** A case of an interrupted run, in-process: its request stops, its clean-up still runs (interrupt.test.ts: the CLI).
 * */
describe('an interrupted case', () => {
  test('stops its request at once, is "could not test: interrupted", and still runs its clean-up', async () => {
    // The list is never answered; the run is interrupted once the target has it; the clean-up's delete is answered.
    const stop = new AbortController();
    const server = await startMisbehavingServer((req, res) => {
      if (req.method === 'GET') stop.abort(new Error('the run was cancelled'));
      if (req.method === 'DELETE') {
        res.writeHead(204);
        res.end();
      }
    });
    try {
      const config = resolveConfig(configFor(server.url, { timeoutMs: 10_000 }), {});
      const client = new DbsiClient(config, new Redactor(secretValues(config)));
      const f = feature('disclosures', 'listInstitutionDisclosures', [
        {
          title: 'creates, then waits',
          requirements: ['OP1-REQUEST'],
          async run(t) {
            t.cleanup('delete what was created', () =>
              t.send({
                operation: 'deleteUserDisclosureById',
                pathParams: { institutionUserDisclosureId: 'made-by-this-case' },
              }),
            );
            await t.send({ operation: 'listInstitutionDisclosures' });
          },
        },
      ]);
      const settings = { config, seed: 1, strict: false, runId: 'rint', specUrl: 'spec.md' };
      // At once: well before the 10 s request timeout (a bound on the work, not a measurement).
      const running = runCase(new CaseContext(settings, client, f, f.cases[0]!, undefined, stop.signal));
      const report = await within(3_000, running, 'the interrupted case');
      await client.close();
      expect(report.outcome).toBe('could-not-test');
      expect(report.reason).toMatch(/^could not test: the run was interrupted/);
      expect(server.received.map((r) => r.method)).toEqual(['GET', 'DELETE']);
      expect(report.exchanges.at(-1)!.response?.status).toBe(204);
    } finally {
      await server.close();
    }
  });
});
