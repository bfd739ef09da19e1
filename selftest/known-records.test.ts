import { describe, expect, test } from 'vitest';
import { CaseContext, feature, type RunSettings } from '../harness/case';
import { resolveConfig, secretValues } from '../harness/config';
import { DbsiClient } from '../harness/http/client';
import { RUN_LOG } from '../harness/log/run-log';
import { Redactor } from '../harness/redact';
import { caseKnows, isNotOurs, knownNoRecord } from '../suites/disclosures/_known-records';
import { configFor } from './_misbehaving-server';
import { entry } from './_state-entries';

/**
 * What the user-disclosure drivers ask of the run (suites/disclosures/_known-records.ts): queries on the run's log,
 * with no memory of their own; a create the run sent that is still in flight in the log (RunLog.sending) keeps a
 * record a list showed from being taken for one the run did not create.
 */

function caseOnItsOwn() {
  const config = resolveConfig(configFor('http://127.0.0.1:9'), {});
  const client = new DbsiClient(config, new Redactor(secretValues(config)));
  const settings: RunSettings = { config, seed: 1, strict: false, runId: 'rtst', specUrl: 'spec.md' };
  const f = feature('disclosures', 'createUserDisclosure', [{ title: 'x', requirements: [], run: async () => {} }]);
  return { t: new CaseContext(settings, client, f, f.cases[0]!), client, user: config.testData.institutionUserId };
}

const d = { institutionDisclosureId: 'd1', institutionDisclosureName: 'Esign', institutionId: '1001' };

describe("the drivers' questions are the run log's answers", () => {
  test('no record, a record the run did not create, and a create still in flight', async () => {
    const { t, client, user } = caseOnItsOwn();
    const log = t.run.get(RUN_LOG);
    const listed = (i: number, ...names: string[]) => {
      const { keepsAuthorization: _k, ...e } = entry(i, 'listUserDisclosures', {
        query: { InstitutionConsumerId: user },
        json: {
          institutionUserDisclosures: names.map((n) => ({
            institutionDisclosureName: n,
            institutionUserDisclosureStatus: 'ACCEPTED',
          })),
        },
      });
      log.append(e);
    };
    expect([knownNoRecord(t, d), isNotOurs(t, d), caseKnows(t, d)]).toEqual([false, false, undefined]);
    listed(1);
    expect([knownNoRecord(t, d), isNotOurs(t, d), caseKnows(t, d)]).toEqual([true, false, 'absent']);
    // A create of the run is in flight, and a list shows the record before its answer is in the log.
    const create = entry(2, 'createUserDisclosure', { status: 409, body: { institutionDisclosureName: 'Esign' } });
    log.sending({ x: create.x, mapped: create.mapped });
    listed(3, 'Esign');
    expect([knownNoRecord(t, d), isNotOurs(t, d)]).toEqual([false, false]);
    // Refused: the run created no record, so the one listed is not the run's.
    const { keepsAuthorization: _k, ...refused } = create;
    log.append(refused);
    expect([knownNoRecord(t, d), isNotOurs(t, d)]).toEqual([false, true]);
    await client.close();
  });
});
