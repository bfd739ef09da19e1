import { describe, expect, test } from 'vitest';
import { CaseContext, feature, runCase, type RunSettings } from '../harness/case';
import { fail, pass, type CheckVerdict } from '../harness/checks';
import { resolveConfig } from '../harness/config';
import { DbsiClient } from '../harness/http/client';
import { Redactor } from '../harness/redact';
import { gradePlan } from '../harness/verdict/grade';

/**
 * Issue 32, one grader: a capture's exchange (gradePlan, harness/traffic/judge.ts) and an active case
 * (CaseContext.verify, runCase) grade the same verdicts the same way: the catalog's grade, the first failure that
 * ends the test, a failed SHOULD a warning, --strict, the reason and its redaction.
 */
const MUST = 'OP1-REQUEST';
const SHOULD = 'OP8-INSTITUTIONID-NUMERIC';
const INFO = 'RES-DISCLOSURE-DATATYPE-VALUES';
const SECRET = 's3cr3t-value-9';
const config = resolveConfig(
  { baseUrl: 'http://127.0.0.1:9/a', authBaseUrl: 'http://127.0.0.1:9/b', transfersBaseUrl: 'http://127.0.0.1:9/c' },
  {},
);
const ok: CheckVerdict = pass('some_check', 'holds');
const bad: CheckVerdict = fail('some_check', 'holds', 'this', `that ${SECRET}`);

type Plan = Array<{ requirement: string; verdict: CheckVerdict }>;

/** The same plan verified by an active case: its outcome, reason and checks. */
async function active(plan: Plan, strict: boolean) {
  const settings: RunSettings = { config, seed: 1, strict, runId: 'rtst', specUrl: 'spec.md' };
  const f = feature('disclosures', 'listInstitutionDisclosures', []);
  const client = new DbsiClient(config, new Redactor([SECRET]));
  const requirements = [...new Set(plan.map((p) => p.requirement))];
  const r = await runCase(
    new CaseContext(settings, client, f, {
      title: 't',
      requirements,
      async run(t) {
        for (const p of plan) t.verify(p.requirement, p.verdict);
      },
    }),
  );
  await client.close();
  return { outcome: r.outcome, reason: r.reason, checks: r.checks };
}

const PLANS: Record<string, Plan> = {
  'a failed MUST ends the test': [
    { requirement: MUST, verdict: bad },
    { requirement: INFO, verdict: ok },
  ],
  'a failed SHOULD is a warning': [
    { requirement: SHOULD, verdict: bad },
    { requirement: MUST, verdict: ok },
  ],
  'a failed INFO is an observation': [
    { requirement: INFO, verdict: bad },
    { requirement: MUST, verdict: ok },
  ],
  'every check passes': [
    { requirement: MUST, verdict: ok },
    { requirement: SHOULD, verdict: ok },
  ],
};

describe('one grader for both sources', () => {
  for (const [name, plan] of Object.entries(PLANS)) {
    for (const strict of [false, true]) {
      test(`${name}${strict ? ' (--strict)' : ''}: the same outcome, reason and checks`, async () => {
        const recorded = gradePlan(plan, new Redactor([SECRET]), strict);
        expect(recorded).toEqual(await active(plan, strict));
        expect(JSON.stringify(recorded)).not.toContain(SECRET);
      });
    }
  }

  test('the grades differ as the catalog says', () => {
    const r = new Redactor([]);
    expect(gradePlan(PLANS['a failed MUST ends the test']!, r, false).outcome).toBe('failed');
    expect(gradePlan(PLANS['a failed MUST ends the test']!, r, false).checks).toHaveLength(1);
    expect(gradePlan(PLANS['a failed SHOULD is a warning']!, r, false).outcome).toBe('warning');
    expect(gradePlan(PLANS['a failed SHOULD is a warning']!, r, true).outcome).toBe('failed');
    expect(gradePlan(PLANS['a failed INFO is an observation']!, r, false).outcome).toBe('passed');
    expect(gradePlan([], r, false).outcome).toBe('error');
  });
});
