import { RunState } from '../harness/run-state';
import { describe, expect, test } from 'vitest';
import type { CaseReport, Exchange } from '../harness/model';
import { INITIAL_USER_DISCLOSURES, OTHER_USER_ID } from '../reference-target/fixtures';
import type { ReferenceTarget } from '../reference-target/server';
import { CouldNotTestError, type CaseContext } from '../harness/case';
import type { HttpResult } from '../harness/http/client';
import { customerIdControl, customerIdDisproven } from '../suites/disclosures/_test-data';
import { disclosureMismatch, listedDisclosures } from '../suites/disclosures/_test-data';
import { explain, runAreas } from './_reference';
import { EXPLORE_TITLE } from '../suites/explore/explore-user-disclosures';

/**
 * Issue 20: a red verdict means the target broke the spec, not that the setup is wrong. The run
 * checks the configured test data against what the target shows before it writes with it: a value the
 * target disproves leaves the tests that depend on it "could not test", naming the configuration key
 * (CaseReport.setup), never failed and never "not applicable". The `retail` reference target refuses
 * what it does not know, as an independent conformant target did.
 */

const byId = (a: { institutionUserDisclosureId: string }, b: { institutionUserDisclosureId: string }) =>
  a.institutionUserDisclosureId.localeCompare(b.institutionUserDisclosureId);
const recordsAsFound = (target: ReferenceTarget) => [...target.state.userDisclosures.values()].sort(byId);
const INITIAL = [...INITIAL_USER_DISCLOSURES].sort(byId);

/** No requirement is recorded as passed by a case that could not test (a pass needs evidence). */
function noPassWithoutEvidence(cases: CaseReport[]): void {
  for (const c of cases.filter((x) => x.outcome === 'could-not-test'))
    expect(
      c.checks.filter((k) => k.outcome === 'passed'),
      c.id,
    ).toEqual([]);
}

/** The writes of user disclosures the run sent. */
const userWrites = (cases: CaseReport[]): Exchange[] =>
  cases
    .flatMap((c) => c.exchanges)
    .filter((e) => e.request.method !== 'GET' && e.request.url.includes('institution-user-disclosures'));

/** Nothing failed: no failed requirement, no failed or crashed case, no "not applicable". */
function nothingFailed(run: { cases: CaseReport[]; failed: Set<string> }): void {
  expect([...run.failed], explain(run.cases)).toEqual([]);
  expect(
    run.cases.filter((c) => c.outcome === 'failed' || c.outcome === 'error'),
    explain(run.cases),
  ).toEqual([]);
  expect(run.cases.filter((c) => c.outcome === 'not-applicable').map((c) => c.id)).toEqual([]);
}

describe('test data the target disproves: could not test, naming the key', () => {
  test('the retail target with test data it knows: every case passes', async () => {
    const { cases, target } = await runAreas({ areas: ['disclosures'], fixtures: 'retail', strict: true });
    expect(explain(cases)).toBe('');
    expect(recordsAsFound(target)).toEqual(INITIAL);
  });

  test.each(['default', 'retail'] as const)(
    'testData.disclosure that operation 1 does not list (%s fixtures): nothing is written for it; no test fails',
    async (fixtures) => {
      const configured = { institutionDisclosureId: 'disc-999', institutionDisclosureName: 'Loyalty Programme' };
      const run = await runAreas({
        areas: ['disclosures'],
        fixtures,
        configure: (cfg) => ({ ...cfg, testData: { ...cfg.testData, disclosure: configured } }),
      });
      nothingFailed(run);
      const blamed = run.cases.filter((c) => c.outcome === 'could-not-test');
      expect(blamed.length).toBeGreaterThan(10);
      for (const c of blamed) {
        expect(c.setup?.key, c.id).toBe('testData.disclosure');
        expect(c.reason).toMatch(/testData\.disclosure .*"disc-999".*"Loyalty Programme".* is not among the/);
        expect(c.reason).toMatch(/; nothing was written for it\. Operation 1 lists 24: /);
        expect(c.reason).toMatch(/"E-Sign Agreement" \(disc-001\), .*, … and \d+ more$/);
      }
      noPassWithoutEvidence(run.cases);
      expect(userWrites(run.cases), 'nothing is written for the unknown disclosure (nor any other)').toEqual([]);
      expect(recordsAsFound(run.target)).toEqual(INITIAL);
    },
  );

  test('testData.disclosure the user had accepted before the run: nothing is written; no test fails', async () => {
    const accepted = { institutionDisclosureId: 'disc-001', institutionDisclosureName: 'E-Sign Agreement' };
    const run = await runAreas({
      areas: ['disclosures'],
      configure: (cfg) => ({ ...cfg, testData: { ...cfg.testData, disclosure: accepted } }),
    });
    nothingFailed(run);
    const blamed = run.cases.filter((c) => c.outcome === 'could-not-test');
    expect(blamed.length).toBeGreaterThan(10);
    for (const c of blamed) {
      expect(c.setup?.key, c.id).toBe('testData.disclosure');
      expect(c.reason).toMatch(/already had an acceptance record for testData\.disclosure \(\w+ "disc-001"\)/);
    }
    noPassWithoutEvidence(run.cases);
    expect(userWrites(run.cases)).toEqual([]);
    expect(recordsAsFound(run.target)).toEqual(INITIAL);
  });

  test('testData.institutionCustomerId on a retail target: a control disproves it; nothing fails', async () => {
    const run = await runAreas({
      areas: ['disclosures'],
      fixtures: 'retail',
      configure: (cfg) => ({ ...cfg, testData: { ...cfg.testData, institutionCustomerId: 'biz-4711' } }),
    });
    nothingFailed(run);
    const blamed = run.cases.filter((c) => c.outcome === 'could-not-test');
    // The refusals without valid credentials in the /{institutionUserDisclosureId} form prove nothing: no request of
    // that form was served (none was sent with the configured credentials, as it would carry the same value), and
    // what kept the tests that send one from it is the key to check.
    const byIdRefusals = blamed.filter((c) => /is-not-served-.*-institutionuserdisclosureid-form$/.test(c.id));
    // Operations 6 and 7, each: no credentials, a made-up token, three near variants of the configured token.
    expect(byIdRefusals).toHaveLength(10);
    for (const c of byIdRefusals) {
      expect(c.setup?.key, c.id).toBe('testData.institutionCustomerId');
      expect(c.reason).toMatch(/proves nothing: .* could not test because of testData\.institutionCustomerId\)/);
    }
    for (const c of blamed.filter((x) => !byIdRefusals.includes(x))) {
      expect(c.setup?.key, c.id).toBe('testData.institutionCustomerId');
      // The explorer sends no control of its own: the setup proof re-grades its refusals (harness/setup/proof.ts).
      if (c.title === EXPLORE_TITLE) continue;
      expect(c.reason).toMatch(/"biz-4711" \(testData\.institutionCustomerId\) was refused \(status 404\)/);
    }
    const deleted = blamed.find((c) => c.requirements.includes('OP7-REQUEST'))!;
    expect(deleted.reason).toMatch(/^could not test: not sent, as its requests would carry the same value: the change/);
    const controls = userWrites(run.cases).filter((e) => e.label?.startsWith('control'));
    expect(controls.length, 'one control: the first refused change, sent again without InstitutionCustomerId').toBe(1);
    expect(controls[0]!.request.url).not.toContain('InstitutionCustomerId');
    expect(controls[0]!.response!.status).toBe(204);
    const blamedRules = new Set(blamed.flatMap((c) => c.requirements));
    const dependent = ['OP6-REQUEST', 'OP6-REQUEST-BY-ID', 'OP7-REQUEST', 'OP7-REQUEST-BY-ID'];
    dependent.push('STATE-UD-CHANGE', 'STATE-UD-DELETE');
    for (const id of dependent) expect([...blamedRules]).toContain(id);
    noPassWithoutEvidence(run.cases);
    expect(recordsAsFound(run.target), 'the records the run created are deleted').toEqual(INITIAL);
    expect(run.cases.flatMap((c) => c.leftovers ?? [])).toEqual([]);
  });

  test('testData.institutionUserId refused, a made-up consumer served: nothing written, nothing fails', async () => {
    const run = await runAreas({
      areas: ['disclosures'],
      fixtures: 'retail',
      configure: (cfg) => ({ ...cfg, testData: { ...cfg.testData, institutionUserId: OTHER_USER_ID } }),
    });
    nothingFailed(run);
    const op4 = run.cases.find((c) => c.requirements.includes('OP4-REQUEST'))!;
    expect(op4.outcome).toBe('could-not-test');
    expect(op4.reason).toMatch(
      /for InstitutionConsumerId "consumer-77" \(testData\.institutionUserId\) \(status 403\) while .* \(status 200\)/,
    );
    const blamed = run.cases.filter((c) => c.outcome === 'could-not-test');
    expect(blamed.length).toBeGreaterThan(10);
    for (const c of blamed) expect(c.setup?.key, c.id).toBe('testData.institutionUserId');
    noPassWithoutEvidence(run.cases);
    expect(userWrites(run.cases).filter((e) => e.response && e.response.status < 300)).toEqual([]);
    expect(recordsAsFound(run.target)).toEqual(INITIAL);
  });
});

describe('a failure that may still come from a configured value says so, naming the key', () => {
  const received = (c: CaseReport | undefined) => c?.checks.find((k) => k.outcome === 'failed')?.received ?? '';

  test('operation 4 refused for the user and a made-up consumer alike: OP4-REQUEST fails, naming the key', async () => {
    const { cases, failed } = await runAreas({ areas: ['disclosures'], faults: ['op4-requires-other-query-name'] });
    expect([...failed]).toContain('OP4-REQUEST');
    const op4 = cases.find((c) => c.requirements.includes('OP4-REQUEST') && c.outcome === 'failed');
    const text = received(op4);
    expect(text).toMatch(/setup: the list was asked for InstitutionConsumerId "consumer-42" \(testData\.institution/);
    expect(text).toMatch(/made-up consumer was refused too \(status 400\), .*: check testData\.institutionUserId$/);
  });

  test('a created record the list for the configured user lacks: STATE-UD-CREATE fails, naming the key', async () => {
    const { cases, failed } = await runAreas({
      areas: ['disclosures'],
      configure: (cfg) => ({ ...cfg, testData: { ...cfg.testData, institutionUserId: 'consumer-0' } }),
    });
    expect([...failed]).toEqual(['STATE-UD-CREATE']);
    const create = cases.find((c) => c.requirements.includes('STATE-UD-CREATE') && c.outcome === 'failed');
    // The records the run created went to the token's user, where the run cannot see them: left to check by hand.
    const left = cases.flatMap((c) => c.leftovers ?? []);
    expect(left.length).toBeGreaterThan(0);
    for (const l of left) expect(l.what).toMatch(/not listed for testData\.institutionUserId "consumer-0"/);
    expect(received(create)).toMatch(/setup: .*"consumer-0" \(testData\.institutionUserId\): where that is not/);
  });
});

describe('testData.disclosure against the list of operation 1', () => {
  const configured = { institutionDisclosureId: 'disc-2', institutionDisclosureName: 'Privacy Notice' };
  const element = (name: string) => ({ institutionDisclosureId: 'disc-2', institutionDisclosureName: name });

  test('listed by id under the configured name, or (elements without an id) by name: no mismatch', () => {
    expect(disclosureMismatch(configured, [element('Privacy Notice')])).toBeUndefined();
    expect(disclosureMismatch(configured, [{ institutionDisclosureId: 'disc-2' }])).toBeUndefined();
    expect(disclosureMismatch(configured, [{ institutionDisclosureName: 'Privacy Notice' }])).toBeUndefined();
  });

  test('listed by id under another name: the mismatch names both', () => {
    expect(disclosureMismatch(configured, [element('Privacy Policy')])).toBe(
      'testData.disclosure (institutionDisclosureId "disc-2", institutionDisclosureName "Privacy Notice") is listed ' +
        'by operation 1 under the name "Privacy Policy": set institutionDisclosureName to the listed name; ' +
        'nothing was written for it',
    );
  });

  test('not listed: what the list holds, cut to a reasonable length', () => {
    expect(disclosureMismatch(configured, [])).toMatch(/is not among .*\. Operation 1 lists 0: none$/);
    const many = Array.from({ length: 50 }, (_, i) => ({ ...element(`T ${i}`), institutionDisclosureId: `d-${i}` }));
    const shown = listedDisclosures(many);
    expect(shown.length).toBeLessThan(340);
    expect(shown).toMatch(/^"T 0" \(d-0\), "T 1" \(d-1\), .*, … and \d+ more$/);
    const odd = listedDisclosures([{ institutionDisclosureName: 'x'.repeat(500) }, {}]);
    expect(odd).toMatch(/^"x+…?" \(no id\), no name \(no id\)$/);
    expect(odd.length).toBeLessThan(80);
  });
});

describe('the control of a refused change or delete: the same request without InstitutionCustomerId', () => {
  const context = (institutionCustomerId?: string) =>
    ({ config: { testData: { institutionCustomerId } }, run: new RunState() }) as unknown as CaseContext;
  const answer = (status: number) => ({ status }) as HttpResult;

  test('served: the value is disproven, the case could not test naming the key, and the run remembers it', async () => {
    const t = context('biz-1');
    const e = await customerIdControl(t, 'delete', answer(404), async () => answer(204)).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CouldNotTestError);
    expect((e as CouldNotTestError).setupKey).toBe('testData.institutionCustomerId');
    expect((e as Error).message).toBe(
      'the delete carrying InstitutionCustomerId "biz-1" (testData.institutionCustomerId) was refused (status 404) ' +
        'while the same delete without it was served (status 204): the target knows no such business customer; ' +
        'leave testData.institutionCustomerId unset on a target without business banking, or set it to a customer ' +
        'the target knows',
    );
    expect(customerIdDisproven(t)).toBe(e);
  });

  test('refused too: the failure stands, and its text names the key', async () => {
    const t = context('biz-1');
    expect(await customerIdControl(t, 'change', answer(400), async () => answer(404))).toBe(
      'the request carried InstitutionCustomerId "biz-1" (testData.institutionCustomerId); the same change without ' +
        'it was refused too (status 404), so the control cannot tell whether the value is the cause: check ' +
        'testData.institutionCustomerId',
    );
    expect(customerIdDisproven(t)).toBeUndefined();
  });

  test('no control where nothing was refused for the data, nor where no InstitutionCustomerId is set', async () => {
    const never = async (): Promise<HttpResult> => {
      throw new Error('no control expected');
    };
    for (const status of [204, 401, 405, 429, 500])
      expect(await customerIdControl(context('biz-1'), 'change', answer(status), never)).toBeUndefined();
    expect(await customerIdControl(context(), 'change', answer(404), never)).toMatch(
      /carried no InstitutionCustomerId \(testData\.institutionCustomerId is not set\), .*: on a business banking/,
    );
  });
});
