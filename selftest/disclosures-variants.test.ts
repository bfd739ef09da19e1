import { describe, expect, test } from 'vitest';
import { explain, runAreas } from './_reference';

/**
 * The disclosures suite on targets that make other (conformant) choices, and its clean-up:
 * never a failure where the spec leaves the choice open, "not applicable" with the reason where the
 * target does not expose what a check needs, and the user's records left as they were found.
 */
describe('disclosures on other conformant targets', () => {
  test('a list without institutionUserDisclosureId: the /{id} forms are not applicable, with the reason; nothing fails', async () => {
    const { cases, failed, target } = await runAreas({ areas: ['disclosures'], faults: ['op4-omits-user-disclosure-id'], strict: true });
    expect([...failed]).toEqual([]);
    const na = cases.filter((c) => c.outcome === 'not-applicable');
    expect(na.map((c) => c.title).sort()).toEqual([
      "changes the record's status to the one sent, NOT_ACCEPTED (/{institutionUserDisclosureId} form)",
      'answers 204 with no body (/{institutionUserDisclosureId} form)',
      'answers 204 with no body (/{institutionUserDisclosureId} form)',
      'removes the record (/{institutionUserDisclosureId} form)',
    ].sort());
    for (const c of na) expect(c.reason).toMatch(/does not expose institutionUserDisclosureId/);
    expect(explain(cases.filter((c) => c.outcome !== 'not-applicable'))).toBe('');
    expect(target.state.userDisclosures.size, 'records the run created are deleted').toBe(0);
  });

  test('a target that requires every documented header (exact spelling), query parameter and body member: every case passes', async () => {
    const { cases } = await runAreas({ areas: ['disclosures'], faults: ['disc-strict-header-names'], strict: true });
    expect(explain(cases)).toBe('');
  });

  test('configured testData.disclosure, InstitutionCustomerId and AccountType are used; every case passes', async () => {
    const { cases, target } = await runAreas({
      areas: ['disclosures'],
      strict: true,
      configure: (cfg) => ({ ...cfg, testData: { ...cfg.testData, institutionCustomerId: 'consumer-42', accountType: 'CHECKING', disclosure: { institutionDisclosureId: 'disc-002', institutionDisclosureName: 'Privacy Notice' } } }),
    });
    expect(explain(cases)).toBe('');
    const urls = cases.flatMap((c) => c.exchanges.map((e) => `${e.request.method} ${e.request.url}`));
    expect(urls.filter((u) => u.startsWith('PUT') && u.includes('institution-user-disclosures')).every((u) => u.includes('InstitutionCustomerId=consumer-42'))).toBe(true);
    expect(urls.filter((u) => u.startsWith('DELETE')).every((u) => u.includes('AccountType=CHECKING'))).toBe(true);
    const created = cases.flatMap((c) => c.exchanges).filter((e) => e.request.method === 'POST' && e.request.url.includes('institution-user-disclosures'));
    expect(created.length).toBeGreaterThan(0);
    expect(created.every((e) => e.request.headers['InstitutionDisclosureId'] === 'disc-002')).toBe(true);
    expect(target.state.userDisclosures.size).toBe(0);
  });

  test('with institutionDisclosureWrites off, operations 2 and 3 are skipped as not allowed and never sent; nothing fails', async () => {
    const { cases, failed, target } = await runAreas({ areas: ['disclosures'], allow: { institutionDisclosureWrites: false } });
    expect([...failed]).toEqual([]);
    const writes = cases.filter((c) => /2\.|3\./.test(c.operation));
    expect(writes.length).toBe(6);
    expect(writes.every((c) => c.outcome === 'not-allowed')).toBe(true);
    expect(target.received.filter((r) => r.method !== 'GET' && /institution-disclosures/.test(r.path))).toEqual([]);
    expect(explain(cases.filter((c) => c.outcome !== 'not-allowed'))).toBe('');
  });
});

describe('disclosures clean-up', () => {
  test('the faultless run leaves no user disclosure record behind', async () => {
    const { target } = await runAreas({ areas: ['disclosures'] });
    expect(target.state.userDisclosures.size).toBe(0);
  });

  test('records a faulty target creates for an unauthenticated request are deleted too', async () => {
    for (const fault of ['disc-serves-without-credentials', 'disc-accepts-any-bearer-token']) {
      const { target, failed } = await runAreas({ areas: ['disclosures'], faults: [fault] });
      expect([...failed]).toEqual(['DISC-AUTH-REQUIRED']);
      expect(target.state.userDisclosures.size, fault).toBe(0);
    }
  });

  test('a target that keeps deleted records: the failure is reported, later cases still run on the records the run left', async () => {
    const { cases } = await runAreas({ areas: ['disclosures'], faults: ['op7-keeps-record'] });
    const state = cases.filter((c) => c.title.startsWith('removes the record'));
    expect(state.map((c) => c.outcome)).toEqual(['failed', 'failed']);
    // Cases that need "(no record)" may run out of disclosures without a record; the others reuse the run's leftovers.
    const na = cases.filter((c) => c.outcome === 'not-applicable');
    for (const c of na) expect(`${c.title}: ${c.reason}`).toMatch(/already has an acceptance record/);
    expect(na.filter((c) => !/^5\./.test(c.operation))).toEqual([]);
    expect(cases.some((c) => /clean-up problems: .*still listed after DELETE/.test(c.reason ?? ''))).toBe(true);
  });
});
