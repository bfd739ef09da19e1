import { describe, expect, test } from 'vitest';
import { resolveConfig, secretValues, type TargetConfig } from '../harness/config';
import { DbsiClient, NotAllowedError, type SendOptions } from '../harness/http/client';
import { countryCodeRefusal } from '../harness/http/country-code-guard';
import { Redactor } from '../harness/redact';
import { referenceConfigFile } from '../reference-target/config';
import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { runMain } from './_main';
import { startMisbehavingServer } from './_misbehaving-server';

/**
 * Session 41's decision on the country code (docs/what-the-suite-changes.md): rule 2 proves a phone number, never its
 * country code, so on a target other than the suite's own no request carries a newCountryCode unless the operator
 * states the configured one is on record (countryCodeConfirmed). The client's last check, and the dry run's words.
 */
const URLS = {
  baseUrl: 'http://127.0.0.1:9/api',
  authBaseUrl: 'http://127.0.0.1:9/id',
  transfersBaseUrl: 'http://127.0.0.1:9/xfer',
};

function config(customer: Record<string, unknown>, own = false): TargetConfig {
  const td = { ...structuredClone(REFERENCE_TEST_DATA), moreCustomers: [] };
  Object.assign(td.customer, customer);
  const file = referenceConfigFile({ urls: URLS as never }, { testData: td });
  const cfg = resolveConfig({ ...file, name: 'a bank sandbox', credentials: { ...REFERENCE_CREDENTIALS } }, {});
  return { ...cfg, ownTarget: own };
}

const update = (phoneNumber: Record<string, string>): SendOptions => ({
  operation: 'updateContactInfo',
  pathParams: { customerId: REFERENCE_TEST_DATA.customer.customerId },
  body: { userIdType: 'CUSTOMER_ID', phoneNumber },
});
const WITH_CODE = { oldPhoneNumber: '5550100', newPhoneNumber: '5550100', newCountryCode: '1' };
const WITHOUT = { oldPhoneNumber: '5550100', newPhoneNumber: '5550100' };

describe('the country code the run cannot read back', { timeout: 120_000 }, () => {
  test('the client refuses a newCountryCode before it leaves the machine, naming the key', async () => {
    const cfg = config({ countryCodeConfirmed: false });
    const client = new DbsiClient(cfg, new Redactor(secretValues(cfg)));
    try {
      const refused = await client.send(update(WITH_CODE)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(NotAllowedError);
      expect((refused as Error).message).toContain('set testData.customer.countryCodeConfirmed to true');
    } finally {
      await client.close();
    }
  });

  test('it lets through a phone update without one, a stated one, and any on the suite’s own target', () => {
    expect(countryCodeRefusal(config({}), update(WITHOUT))).toBeUndefined();
    expect(countryCodeRefusal(config({ countryCodeConfirmed: true }), update(WITH_CODE))).toBeUndefined();
    expect(countryCodeRefusal(config({}, true), update(WITH_CODE))).toBeUndefined();
    // A request given as JSON text is read too; a customer the configuration does not name gets the main key.
    const text = { ...update(WITH_CODE), body: JSON.stringify(update(WITH_CODE).body) };
    expect(countryCodeRefusal(config({}), text)).toContain('testData.customer.countryCodeConfirmed');
    const other = { ...update(WITH_CODE), pathParams: { customerId: 'someone-else' } };
    expect(countryCodeRefusal(config({ countryCodeConfirmed: true }), other)).toContain('countryCodeConfirmed');
  });

  test('the dry run says it: the country-code test skipped naming the key, until it is stated', async () => {
    const server = await startMisbehavingServer('silent');
    try {
      const base = `${server.url}/bank`;
      const raw = (customer: Record<string, unknown>) => ({
        name: 'a bank sandbox',
        baseUrl: `${base}/api`,
        authBaseUrl: `${base}/id`,
        transfersBaseUrl: `${base}/xfer`,
        credentials: { ...REFERENCE_CREDENTIALS },
        testData: {
          ...REFERENCE_TEST_DATA,
          moreCustomers: [],
          customer: { ...REFERENCE_TEST_DATA.customer, ...customer },
        },
        allow: { contactUpdate: true },
      });
      const args = ['--dry-run', '--area', 'contact-info', '--grep', 'another country code'];
      const without = await runMain(args, { raw: raw({}) });
      expect(without.stdout).toMatch(/another country code\n {2}\(skipped: a country code change cannot be undone/);
      expect(without.stdout).toContain('set testData.customer.countryCodeConfirmed to true');
      const stated = await runMain(args, { raw: raw({ countryCodeConfirmed: true }) });
      expect(stated.stdout).toMatch(/^ {2}PUT .*:contact-info {2}\[/m);
      expect(stated.stdout).not.toContain('skipped: a country code change');
    } finally {
      await server.close();
    }
  });
});
