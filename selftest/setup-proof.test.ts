import { describe, expect, test } from 'vitest';
import type { CaseReport, CheckResult, Exchange } from '../harness/model';
import { regradeCase, SetupProof } from '../harness/setup/proof';
import { diagnosisBlock, setupFindings } from '../harness/setup/diagnosis';
import { exitCodeFor, requirementRows } from '../harness/run/results';
import type { TargetConfig } from '../harness/config';
import type { Area } from '../harness/model';
import { runAreas } from './_reference';
import type { FixtureSetName } from '../reference-target/fixture-sets';

/**
 * Issue 20: a red verdict means the target broke the spec, not that the operator's setup is wrong.
 * The suite cannot tell a valid credential or a right base URL from a wrong one except by what the
 * target serves (harness/setup/proof.ts).
 */

let seq = 0;
function ex(o: {
  method?: string;
  url?: string;
  status: number;
  credentials?: string[];
  base?: Exchange['base'];
  operation?: string;
}): Exchange {
  return {
    seq: ++seq,
    operation: o.operation ?? 'listInstitutionDisclosures',
    base: o.base ?? 'baseUrl',
    ...(o.credentials ? { credentials: o.credentials } : {}),
    request: {
      method: o.method ?? 'GET',
      url: o.url ?? 'https://t.example/db-disclosures/v1/institution-disclosures',
      headers: {},
    },
    response: { status: o.status, headers: {}, body: '', truncated: false, bytes: 0 },
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
    retries: [],
    curl: 'curl …',
  };
}

function check(
  requirement: string,
  outcome: CheckResult['outcome'],
  e: Exchange,
  name = 'status_code_conformance',
): CheckResult {
  return {
    check: name,
    requirement,
    grade: 'MUST',
    section: '1. List institution disclosures',
    outcome,
    description: 'd',
    exchange: e.seq,
  };
}

function report(
  title: string,
  outcome: CaseReport['outcome'],
  exchanges: Exchange[],
  checks: CheckResult[],
): CaseReport {
  return {
    id: `disclosures/x/${title}`,
    area: 'disclosures',
    operation: 'op',
    title,
    requirements: [...new Set(checks.map((k) => k.requirement))],
    outcome,
    reason: 'MUST …',
    checks,
    exchanges,
    durationMs: 1,
    parameters: {},
  };
}

describe('what one run proves about the setup', () => {
  test('a refusal of a credential that was never served is could not test, naming the variable', () => {
    const refused = ex({ status: 403, credentials: ['bearer'] });
    const c = report('lists', 'failed', [refused], [check('OP1-REQUEST', 'failed', refused)]);
    const proof = new SetupProof([c]);
    const out = regradeCase(c, proof);
    expect(out.outcome).toBe('could-not-test');
    expect(out.setup?.key).toContain('DBSI_BEARER_TOKEN');
    expect(out.checks.every((k) => k.outcome !== 'failed')).toBe(true);
    expect(diagnosisBlock(setupFindings([out], proof)).join('\n')).toContain('DBSI_BEARER_TOKEN');
  });

  test('once the credential was served anywhere in the run, its refusal is judged as a failure', () => {
    const refused = ex({
      status: 401,
      credentials: ['bearer'],
      url: 'https://t.example/db-disclosures/v1/institution-user-disclosures',
    });
    const served = ex({ status: 200, credentials: ['bearer'] });
    const c = report('lists user records', 'failed', [refused], [check('OP4-REQUEST', 'failed', refused)]);
    const other = report('lists', 'passed', [served], [check('OP1-REQUEST', 'passed', served)]);
    const proof = new SetupProof([c, other]);
    expect(regradeCase(c, proof)).toBe(c);
    expect(regradeCase(other, proof)).toBe(other);
  });

  test('a 404 never proves an auth rule: a refusal passes only beside a control served at that path', () => {
    const refused = ex({ status: 404 });
    const c = report(
      'not served without credentials',
      'passed',
      [refused],
      [check('DISC-AUTH-REQUIRED', 'passed', refused, 'not_served')],
    );
    const elsewhere = ex({
      status: 200,
      credentials: ['bearer'],
      url: 'https://t.example/db-disclosures/v1/institution-user-disclosures',
    });
    const proof = new SetupProof([
      c,
      report('other', 'passed', [elsewhere], [check('OP4-REQUEST', 'passed', elsewhere)]),
    ]);
    const out = regradeCase(c, proof);
    expect(out.outcome).toBe('could-not-test');
    expect(out.checks[0]!.outcome).toBe('not-applicable');
    expect(out.reason).toMatch(/proves nothing/);

    const control = ex({ status: 200, credentials: ['bearer'] });
    const withControl = new SetupProof([
      c,
      report('lists', 'passed', [control], [check('OP1-REQUEST', 'passed', control)]),
    ]);
    expect(regradeCase(c, withControl)).toBe(c);
  });

  test('a refusal answered 401 has its control where the operation was served with a credential', () => {
    const refused = ex({
      method: 'PUT',
      status: 401,
      operation: 'changeInstitutionDisclosure',
      url: 'https://t.example/x/disc-001',
    });
    const control = ex({
      method: 'PUT',
      status: 200,
      credentials: ['bearer'],
      operation: 'changeInstitutionDisclosure',
      url: 'https://t.example/x/disc-777',
    });
    const c = report('not served', 'passed', [refused], [check('DISC-AUTH-REQUIRED', 'passed', refused, 'not_served')]);
    expect(
      regradeCase(
        c,
        new SetupProof([c, report('changes', 'passed', [control], [check('OP3-REQUEST', 'passed', control)])]),
      ),
    ).toBe(c);
  });

  test('nothing but 404s at a base URL: every verdict there is could not test, naming the key', () => {
    const a = ex({ status: 404, credentials: ['bearer'] });
    const b = ex({
      status: 404,
      base: 'transfersBaseUrl',
      operation: 'createTransfer',
      method: 'POST',
      credentials: ['transfers'],
    });
    const c1 = report('lists', 'failed', [a], [check('OP1-REQUEST', 'failed', a)]);
    const c2 = report(
      'transfers refuse a bad body',
      'passed',
      [b],
      [check('OP9-BODY-TYPES', 'passed', b, 'not_served')],
    );
    const proof = new SetupProof([c1, c2]);
    expect(regradeCase(c1, proof).setup?.key).toBe('baseUrl');
    expect(regradeCase(c2, proof).setup?.key).toBe('transfersBaseUrl');
    expect(exitCodeFor([c1, c2].map((c) => regradeCase(c, proof)))).toBe(3);
  });

  test('a failure on an answer the setup cannot explain stands', () => {
    const served = ex({ status: 200, credentials: ['bearer'] });
    const c = report('lists with the envelope', 'failed', [served], [check('OP1-RESPONSE-ENVELOPE', 'failed', served)]);
    expect(regradeCase(c, new SetupProof([c]))).toBe(c);
  });
});

/** The operator's mistakes of the issue, made against the reference target (a conformant implementation). */
const MISTAKES: Array<{
  fixtures?: FixtureSetName;
  name: string;
  areas: Area[];
  names: string;
  configure: (c: TargetConfig) => TargetConfig;
  unproven: string[];
}> = [
  {
    name: 'an expired or wrong bearer token',
    areas: ['disclosures', 'contact-info'],
    names: 'DBSI_BEARER_TOKEN',
    configure: (c) => ({ ...c, credentials: { ...c.credentials, bearerToken: 'expired-bearer-0000' } }),
    unproven: ['DISC-AUTH-REQUIRED', 'OP1-REQUEST', 'OP10-AUTH-EXPECTED', 'OP10-PATH'],
  },
  {
    name: 'a wrong transfers token',
    areas: ['money-movement'],
    names: 'DBSI_TRANSFERS_TOKEN',
    configure: (c) => ({ ...c, credentials: { ...c.credentials, transfersToken: 'expired-transfers-0000' } }),
    unproven: ['OP9-REQUEST', 'OP9-BODY-TYPES', 'OP9-INVALID-ANSWERS-400'],
  },
  {
    name: 'a wrong revocation secret',
    areas: ['authentication'],
    names: 'DBSI_REVOCATION_CLIENT_SECRET',
    configure: (c) => ({ ...c, credentials: { ...c.credentials, revocationClientSecret: 'wrong-secret-0000' } }),
    unproven: ['OP8-REQUEST', 'OP8-HEADER-REQUIRED-400', 'OP8-BODY-400', 'OP8-INSTITUTIONID-NUMERIC'],
  },
  {
    name: 'transfer accounts the target does not know (a re-seeded sandbox)',
    fixtures: 'retail',
    areas: ['money-movement'],
    names: 'testData.transfer',
    configure: (c) => ({
      ...c,
      testData: { ...c.testData, transfer: { ...c.testData.transfer, fromAccountId: 'acct-gone-1' } },
    }),
    unproven: ['OP9-REQUEST', 'OP9-BODY-TYPES', 'OP9-INVALID-ANSWERS-400', 'OP9-TRANSACTIONID-REQUIRED'],
  },
  {
    name: 'a refresh token already used by an earlier run',
    fixtures: 'retail',
    areas: ['authentication'],
    names: 'DBSI_REVOCATION_REFRESH_TOKEN',
    configure: (c) => ({
      ...c,
      testData: { ...c.testData, revocation: { ...c.testData.revocation, refresh_token: 'used-refresh-token-0000' } },
    }),
    unproven: ['OP8-REQUEST', 'OP8-RESPONSE-TOKEN-RECORD'],
  },
  {
    name: 'a wrong base path (every request answered 404)',
    areas: ['disclosures', 'authentication', 'money-movement', 'contact-info'],
    names: 'baseUrl',
    configure: (c) => ({
      ...c,
      baseUrl: `${c.baseUrl}/gw-v2`,
      authBaseUrl: `${c.authBaseUrl}/gw-v2`,
      transfersBaseUrl: `${c.transfersBaseUrl}/gw-v2`,
    }),
    unproven: ['*'],
  },
];

describe('the operator\'s mistakes read as "could not test", naming what to check', () => {
  test('the retail reference target with the configured test data: no setup finding, no failure', async () => {
    const { cases } = await runAreas({ areas: ['authentication', 'money-movement'], fixtures: 'retail' });
    expect(cases.filter((c) => c.outcome === 'failed' || c.outcome === 'could-not-test').map((c) => c.id)).toEqual([]);
    expect(setupFindings(cases, new SetupProof(cases))).toEqual([]);
  });

  test.each(MISTAKES.map((m) => [m.name, m] as const))('%s', async (_name, m) => {
    const { cases } = await runAreas({ areas: m.areas, configure: m.configure, fixtures: m.fixtures });
    expect(exitCodeFor(cases), 'a setup mistake is never non-conformance').not.toBe(1);
    expect(cases.filter((c) => c.outcome === 'failed').map((c) => c.id)).toEqual([]);
    const findings = setupFindings(cases, new SetupProof(cases));
    expect(findings.map((f) => f.key).join('\n')).toContain(m.names);
    const declared = new Map<string, string[]>();
    for (const c of cases) for (const r of c.requirements) declared.set(r, [...(declared.get(r) ?? []), c.id]);
    const passed = requirementRows(cases, declared, false)
      .filter((r) => r.verdict === 'passed')
      .map((r) => r.id);
    // No requirement is recorded as passed without its evidence.
    expect(passed.filter((id) => m.unproven.includes('*') || m.unproven.includes(id))).toEqual([]);
  });
});
