import { NEAR_VARIANTS, NEAR_VARIANT_WORDS } from '../harness/credential-variants';
import { EXPLORE_INSTITUTION_TITLE } from '../suites/explore/explore-institution';
import { describe, expect, test } from 'vitest';
import { INITIAL_USER_DISCLOSURES, OTHER_USER_ID } from '../reference-target/fixtures';
import type { ReferenceTarget } from '../reference-target/server';
import { explain, runAreas } from './_reference';

/** The user disclosure records on the target are those it started with: the run's are deleted, the others never
 * touched. */
const recordsAsFound = (target: ReferenceTarget) =>
  [...target.state.userDisclosures.values()].sort((a, b) =>
    a.institutionUserDisclosureId.localeCompare(b.institutionUserDisclosureId),
  );
const INITIAL = [...INITIAL_USER_DISCLOSURES].sort((a, b) =>
  a.institutionUserDisclosureId.localeCompare(b.institutionUserDisclosureId),
);

/**
 * The disclosures suite on targets that make other (conformant) choices, and its clean-up:
 * never a failure where the spec leaves the choice open, "not applicable" with the reason where the
 * target does not expose what a check needs, and the user's records left as they were found.
 */
describe('disclosures on other conformant targets', () => {
  test(
    'a list without institutionUserDisclosureId: the /{id} forms are ' +
      'not applicable, with the reason; nothing fails',
    async () => {
      const { cases, failed, target } = await runAreas({
        areas: ['disclosures'],
        faults: ['op4-omits-user-disclosure-id'],
        strict: true,
      });
      expect([...failed]).toEqual([]);
      const na = cases.filter((c) => c.outcome === 'not-applicable');
      expect(na.map((c) => c.title).sort()).toEqual(
        [
          "changes the record's status to the one sent, NOT_ACCEPTED (/{institutionUserDisclosureId} form)",
          'Change a user disclosure: answers 204 with no body (/{institutionUserDisclosureId} form)',
          'Delete a user disclosure: answers 204 with no body (/{institutionUserDisclosureId} form)',
          "Change a user disclosure: leaves the user's other records as they " +
            'were (/{institutionUserDisclosureId} form)',
          "Delete a user disclosure: leaves the user's other records as they " +
            'were (/{institutionUserDisclosureId} form)',
          'removes the record (/{institutionUserDisclosureId} form)',
          'Change a user disclosure: is not served without credentials (/{institutionUserDisclosureId} form)',
          'Change a user disclosure: is not served with an invalid bearer token (/{institutionUserDisclosureId} form)',
          'Delete a user disclosure: is not served without credentials (/{institutionUserDisclosureId} form)',
          'Delete a user disclosure: is not served with an invalid bearer token (/{institutionUserDisclosureId} form)',
          ...['Change', 'Delete'].flatMap((op) =>
            NEAR_VARIANTS.map(
              (k) =>
                `${op} a user disclosure: is not served with ` +
                `${NEAR_VARIANT_WORDS[k].replace('credential', 'bearer token')} (/{institutionUserDisclosureId} form)`,
            ),
          ),
        ].sort(),
      );
      for (const c of na) expect(c.reason).toMatch(/does not expose institutionUserDisclosureId/);
      expect(explain(cases.filter((c) => c.outcome !== 'not-applicable'))).toBe('');
      expect(recordsAsFound(target), 'records the run created are deleted, the others untouched').toEqual(INITIAL);
    },
  );

  test('a target that refuses a list asked for another consumer: nothing fails, not even under --strict', async () => {
    const { cases } = await runAreas({ areas: ['disclosures'], faults: ['op4-refuses-other-consumer'], strict: true });
    expect(explain(cases)).toBe('');
    const other = cases.find((c) => c.requirements.includes('OP4-OTHER-CONSUMER'))!;
    expect(other.exchanges.at(-1)!.response!.status).toBe(403);
  });

  test(
    'a configured second user (testData.otherInstitutionUserId) is the ' +
      'other consumer asked for; its records are only read',
    async () => {
      const { cases, target } = await runAreas({
        areas: ['disclosures'],
        strict: true,
        configure: (cfg) => ({ ...cfg, testData: { ...cfg.testData, otherInstitutionUserId: OTHER_USER_ID } }),
      });
      expect(explain(cases)).toBe('');
      const other = cases.find((c) => c.requirements.includes('OP4-OTHER-CONSUMER'))!;
      const asked = other.exchanges.at(-1)!;
      expect(asked.request.url).toContain(`InstitutionConsumerId=${OTHER_USER_ID}`);
      expect(other.checks.at(-1)!.note).toMatch(/none of/);
      expect(recordsAsFound(target)).toEqual(INITIAL);
    },
  );

  test(
    'a target that requires every documented header (exact spelling), ' +
      'query parameter and body member: every case passes',
    async () => {
      const { cases } = await runAreas({ areas: ['disclosures'], faults: ['disc-strict-header-names'], strict: true });
      expect(explain(cases)).toBe('');
    },
  );

  test(
    'configured testData.disclosure, InstitutionCustomerId and ' + 'AccountType are used; every case passes',
    async () => {
      const { cases, target } = await runAreas({
        areas: ['disclosures'],
        strict: true,
        configure: (cfg) => ({
          ...cfg,
          testData: {
            ...cfg.testData,
            institutionCustomerId: 'consumer-42',
            accountType: 'CHECKING',
            disclosure: { institutionDisclosureId: 'disc-002', institutionDisclosureName: 'Privacy Notice' },
          },
        }),
      });
      expect(explain(cases)).toBe('');
      const urls = cases.flatMap((c) => c.exchanges.map((e) => `${e.request.method} ${e.request.url}`));
      expect(
        urls
          .filter((u) => u.startsWith('PUT') && u.includes('institution-user-disclosures'))
          .every((u) => u.includes('InstitutionCustomerId=consumer-42')),
      ).toBe(true);
      expect(urls.filter((u) => u.startsWith('DELETE')).every((u) => u.includes('AccountType=CHECKING'))).toBe(true);
      const created = cases
        .flatMap((c) => c.exchanges)
        .filter((e) => e.request.method === 'POST' && e.request.url.includes('institution-user-disclosures'));
      expect(created.length).toBeGreaterThan(0);
      expect(created.every((e) => e.request.headers['InstitutionDisclosureId'] === 'disc-002')).toBe(true);
      expect(recordsAsFound(target)).toEqual(INITIAL);
    },
  );

  test(
    'with institutionDisclosureWrites off, operations 2 and 3 are skipped ' +
      'as not allowed and never sent; nothing fails',
    async () => {
      const { cases, failed, target } = await runAreas({
        areas: ['disclosures'],
        allow: { institutionDisclosureWrites: false },
      });
      expect([...failed]).toEqual([]);
      // The explorer of institution disclosures (suites/explore/explore-institution.ts) sends nothing either.
      const writes = cases.filter((c) => /2\.|3\./.test(c.operation) && c.title !== EXPLORE_INSTITUTION_TITLE);
      // Operations 2 and 3, each: the case that writes, no credentials, a made-up token, three near variants.
      expect(writes.length).toBe(2 * (3 + NEAR_VARIANTS.length));
      const explorer = cases.find((c) => c.title === EXPLORE_INSTITUTION_TITLE);
      expect(explorer?.exchanges.filter((e) => e.request.method !== 'GET') ?? []).toEqual([]);
      expect(writes.every((c) => c.outcome === 'not-allowed')).toBe(true);
      expect(target.received.filter((r) => r.method !== 'GET' && /institution-disclosures/.test(r.path))).toEqual([]);
      expect(explain(cases.filter((c) => c.outcome !== 'not-allowed'))).toBe('');
    },
  );
});

describe('disclosures clean-up', () => {
  test('the faultless run leaves no user disclosure record behind', async () => {
    const { target } = await runAreas({ areas: ['disclosures'] });
    expect(recordsAsFound(target)).toEqual(INITIAL);
  });

  test('records a faulty target creates for an unauthenticated request are deleted too', async () => {
    for (const fault of ['disc-serves-without-credentials', 'disc-accepts-any-bearer-token']) {
      const { target, failed } = await runAreas({ areas: ['disclosures'], faults: [fault] });
      expect([...failed]).toEqual(['DISC-AUTH-REQUIRED']);
      expect(recordsAsFound(target), fault).toEqual(INITIAL);
    }
  });

  test(
    'a target that keeps deleted records: the failure is reported, later ' +
      'cases still run on the records the run left',
    async () => {
      const { cases } = await runAreas({ areas: ['disclosures'], faults: ['op7-keeps-record'] });
      const state = cases.filter((c) => c.title.startsWith('removes the record'));
      expect(state.map((c) => c.outcome)).toEqual(['failed', 'failed']);
      // Cases that need "(no record)" may run out of disclosures without a record; the others reuse the run's
      // leftovers.
      const na = cases.filter((c) => c.outcome === 'not-applicable');
      for (const c of na) expect(`${c.title}: ${c.reason}`).toMatch(/already has an acceptance record/);
      expect(na.filter((c) => !/^5\./.test(c.operation))).toEqual([]);
      expect(cases.some((c) => /clean-up problems: .*still listed after DELETE/.test(c.reason ?? ''))).toBe(true);
    },
  );
});
