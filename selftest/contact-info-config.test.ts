import { describe, expect, test } from 'vitest';
import { REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { CaseContext, runCase, type RunSettings } from '../harness/case';
import { secretValues, type TargetConfig } from '../harness/config';
import { DbsiClient } from '../harness/http/client';
import { Redactor } from '../harness/redact';
import { referenceConfig } from '../reference-target/config';
import { startReferenceTarget } from '../reference-target/server';
import { FEATURES_BY_AREA } from '../suites';
import { explain, runAreas } from './_reference';
import { joined } from './_regex';

const REFUSAL = 'refuses a phone number update whose oldPhoneNumber is not the number on record';
/** The configured customer alone, with a phone number the target does not have on record. */
const notOnRecord = (cfg: TargetConfig): TargetConfig => ({
  ...cfg,
  testData: { ...cfg.testData, customer: { ...cfg.testData.customer, phoneNumber: '5559999' }, moreCustomers: [] },
});

const c = REFERENCE_TEST_DATA.customer;

describe('contact-info follows what the configuration gives', () => {
  test(
    'without an e-mail address or postal address to restore, the cases that would ' +
      'change them are not applicable and nothing else changes',
    async () => {
      const { cases, target } = await runAreas({
        areas: ['contact-info'],
        strict: true,
        configure: (cfg) => ({
          ...cfg,
          testData: {
            ...cfg.testData,
            customer: { ...cfg.testData.customer, emailAddress: undefined, postalAddress: undefined },
            moreCustomers: [],
          },
        }),
      });
      // No more customers: none is addressed by its login id either.
      const loginId = cases.filter((k) => k.requirements.includes('OP10-USERIDTYPE-LOGIN-ID'));
      expect(loginId.map((k) => `${k.outcome}: ${k.reason}`)).toEqual([
        expect.stringMatching(/^not-applicable: .*no configured customer is addressed by its login id/),
      ]);
      const na = cases.filter((k) => k.outcome === 'not-applicable' && !loginId.includes(k));
      expect(na.map((k) => k.title).sort()).toEqual([
        'answers 204 with no content to a phone number, e-mail address and postal address update together',
        'answers 204 with no content to a postal address update alone',
        'answers 204 with no content to an e-mail address update alone',
        'keeps the phone number when only the e-mail and postal address are supplied',
        'refuses an oldPhoneNumber that is not on record whatever else the body carries',
        'stores a phone number sent together with an e-mail and a postal address',
      ]);
      for (const k of na)
        expect(k.reason).toMatch(/testData\.customer\.(emailAddress|postalAddress) is not configured/);
      expect(explain(cases.filter((k) => k.outcome !== 'not-applicable' && !loginId.includes(k)))).toBe('');
      expect(target.received.filter((r) => r.method === 'PUT').length).toBeGreaterThan(0);
      expect(target.state.customers.get(c.customerId)).toEqual({
        phoneNumber: c.phoneNumber,
        countryCode: c.countryCode,
        emailAddress: c.emailAddress,
        postalAddress: c.postalAddress,
      });
    },
  );

  test(
    'a customerId the target does not know: a 404 at the documented path is could not ' +
      'test naming it, never an OP10-PATH failure, and nothing changes',
    async () => {
      const { cases, failed, target } = await runAreas({
        areas: ['contact-info'],
        strict: true,
        configure: (cfg) => ({
          ...cfg,
          testData: {
            ...cfg.testData,
            customer: { ...cfg.testData.customer, customerId: 'no-such-customer' },
            moreCustomers: [],
          },
        }),
      });
      expect([...failed]).toEqual([]);
      expect(cases.filter((k) => k.outcome === 'failed' || k.outcome === 'error').map((k) => k.id)).toEqual([]);
      // The cases that check the path say why, and name the customer id to check.
      const path = cases.filter((k) => k.requirements.includes('OP10-PATH'));
      expect(path.length).toBeGreaterThan(0);
      for (const k of path) {
        expect(k.outcome, k.id).toBe('could-not-test');
        expect(k.reason, k.id).toMatch(
          joined(
            's',
            /answered 404 .*no customer "no-such-customer" \(userIdType CUSTOMER_ID\) is on record; check /,
            /testData\.customer\.customerId/,
          ),
        );
        // …and name the key for the run's diagnosis block.
        const problem = expect.stringContaining('"no-such-customer"');
        expect(k.setup, k.id).toEqual({ key: 'testData.customer.customerId', problem });
      }
      // The cases that needed the update served: the target's 404 names the customer ("no customer with CUSTOMER_ID
      // no-such-customer"), so the run's setup proofs name the customer id, never baseUrl (docs/diagnosis.md, O9).
      const needed = cases.filter((k) => !k.requirements.includes('OP10-PATH') && k.outcome !== 'not-applicable');
      expect(needed.length).toBeGreaterThan(0);
      for (const k of needed) expect(k.outcome, k.id).toBe('could-not-test');
      for (const k of needed) expect(k.setup?.key, k.id).toBe('testData.customer.customerId');
      for (const k of needed) expect(k.reason, k.id).toMatch(/no-such-customer/);
      // The same update with a v1 segment changed nothing: every customer is as found.
      for (const x of [c, ...REFERENCE_TEST_DATA.moreCustomers])
        expect(target.state.customers.get(x.customerId), x.customerId).toEqual({
          phoneNumber: x.phoneNumber,
          countryCode: x.countryCode,
          emailAddress: x.emailAddress,
          postalAddress: x.postalAddress,
        });
    },
  );

  test(
    'a login id the target does not know: the LOGIN_ID test is ' + 'could not test naming it, never a failure',
    async () => {
      const loginCustomer = REFERENCE_TEST_DATA.moreCustomers.find((x) => x.userIdType === 'LOGIN_ID')!;
      const { cases, failed } = await runAreas({
        areas: ['contact-info'],
        strict: true,
        configure: (cfg) => ({
          ...cfg,
          testData: { ...cfg.testData, moreCustomers: [{ ...loginCustomer, customerId: 'nobody@fi.example' }] },
        }),
      });
      expect([...failed]).toEqual([]);
      const loginId = cases.find((k) => k.requirements.includes('OP10-USERIDTYPE-LOGIN-ID'))!;
      expect(loginId.outcome).toBe('could-not-test');
      expect(loginId.reason).toMatch(/"nobody@fi\.example" \(userIdType LOGIN_ID\) is on record/);
      const named = /check testData\.moreCustomers\[0\]\.customerId/;
      expect(loginId.reason).toMatch(named);
      expect(loginId.setup?.key).toBe('testData.moreCustomers[0].customerId');
    },
  );

  test('a phoneNumber that is not on record: the tests that cannot go on say so, naming its key', async () => {
    const { cases } = await runAreas({ areas: ['contact-info'], strict: true, configure: notOnRecord });
    const named = cases.filter((k) => k.outcome === 'could-not-test');
    expect(named.length).toBeGreaterThan(0);
    for (const k of named) {
      expect(k.setup?.key, `${k.id}: ${k.reason}`).toBe('testData.customer.phoneNumber');
      // Said by the case itself, or by the run's setup proofs (harness/setup/proof.ts) on a refusal that relied on it.
      expect(k.reason, k.id).toMatch(
        joined(
          's',
          /may not be the one on record.*check testData\.customer\.phoneNumber|refused every request that /,
          /relied on testData\.customer\.phoneNumber/,
        ),
      );
    }
  });

  test('a phoneNumber that is not on record: a refusals test whose control is refused names its key', async () => {
    const target = await startReferenceTarget({ faults: [] });
    try {
      const config = notOnRecord(referenceConfig(target));
      const settings: RunSettings = { config, seed: 1, strict: true, runId: 'rtst', specUrl: 'spec.md' };
      const client = new DbsiClient(config, new Redactor(secretValues(config)));
      const f = FEATURES_BY_AREA['contact-info'].find((x) => x.cases.some((k) => k.title === REFUSAL))!;
      const report = await runCase(new CaseContext(settings, client, f, f.cases.find((k) => k.title === REFUSAL)!));
      await client.close();
      expect(report.outcome, report.reason).toBe('could-not-test');
      expect(report.reason).toMatch(/configured "5559999" .* as old and new number was refused \(status 409\)/s);
      expect(report.setup?.key).toBe('testData.customer.phoneNumber');
    } finally {
      await target.close();
    }
  });

  test(
    'configured contact-info headers are sent instead of the bearer token, and ' +
      'their absence is what the credentials case probes',
    async () => {
      const { cases } = await runAreas({
        areas: ['contact-info'],
        strict: true,
        configure: (cfg) => ({
          ...cfg,
          credentials: {
            ...cfg.credentials,
            contactInfoHeaders: { Authorization: `Bearer ${cfg.credentials.bearerToken}` },
          },
        }),
      });
      expect(explain(cases)).toBe('');
      const noCreds = cases.find((k) => k.title === 'is not served without the configured credentials')!;
      const sent = noCreds.exchanges.find((e) => e.label === 'phone number without credentials')!;
      expect(sent.request.headers).not.toHaveProperty('Authorization');
      expect(
        noCreds.exchanges
          .filter((e) => e !== sent)
          .every((e) => e.request.headers.Authorization === 'Bearer [REDACTED]'),
      ).toBe(true);
      const withCreds = cases.find((k) => k.title === 'answers 204 with no content to a phone number update alone')!;
      expect(withCreds.exchanges[0]!.request.headers.Authorization).toBe('Bearer [REDACTED]');
    },
  );

  test('with no contact-info credentials configured, the credentials case is not applicable', async () => {
    const { cases } = await runAreas({
      areas: ['contact-info'],
      faults: ['op10-serves-without-credentials'],
      strict: true,
      configure: (cfg) => ({ ...cfg, credentials: { ...cfg.credentials, contactInfoHeaders: {} } }),
    });
    const noCreds = cases.find((k) => k.title === 'is not served without the configured credentials')!;
    expect(noCreds.outcome).toBe('not-applicable');
    expect(noCreds.exchanges).toEqual([]);
  });
});
