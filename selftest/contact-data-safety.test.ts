import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REFERENCE_CREDENTIALS as C } from '../reference-target/fixtures';
import { startReferenceTarget, type ReferenceTarget } from '../reference-target/server';
import { reportVerdict } from '../harness/evidence/evidence';
import { verdictBanner } from '../harness/evidence/report';
import { runMain } from './_main';
import { shippedExample } from './_example';

/**
 * Issue 30: contact data the interface cannot read back (e-mail, postal address) is never overwritten on a guess.
 * A target like a real one: the example's customer is on record with its own e-mail and postal address, which
 * differ from anything the configuration says. The example is copied as a new user would: the URLs, the
 * credentials (environment) and the phone number filled in, the contact-info switch on.
 */
const ENV = { DBSI_BEARER_TOKEN: C.bearerToken };
const REAL = {
  phoneNumber: '5550188',
  countryCode: '1',
  emailAddress: 'the.real.one@bank.example',
  postalAddress: { address1: '9 Real Road', city: 'Realtown', postalCode: '10001', country: 'US' },
};
const CONFIGURED = {
  emailAddress: 'not.the.real.one@example.com',
  postalAddress: { address1: '1 Guessed Way', city: 'Guessville', postalCode: '62701', country: 'US' },
};
const LONG = 200_000;

async function targetWithExampleCustomer(): Promise<{ target: ReferenceTarget; customerId: string }> {
  const target = await startReferenceTarget();
  const customerId = shippedExample().testData.customer.customerId as string;
  target.state.customers.set(customerId, structuredClone(REAL));
  return { target, customerId };
}

/** The example as copied: URLs, phone number and the contact-info switch edited; `customer` edits on top. */
function copied(target: ReferenceTarget, customer: Record<string, unknown> = {}): Record<string, any> {
  const e = shippedExample();
  delete e.$schema;
  Object.assign(e, target.urls);
  e.allow.contactUpdate = true;
  Object.assign(e.testData.customer, { phoneNumber: REAL.phoneNumber, countryCode: REAL.countryCode }, customer);
  return e;
}

const run = (raw: unknown) => runMain(['--area', 'contact-info'], { raw, env: ENV, timeoutMs: LONG });

describe('contact data the interface cannot read back', { timeout: LONG }, () => {
  test(
    'the copied example is refused until its contact placeholders are replaced; replaced, without the ' +
      'confirmation, no e-mail or postal update is sent',
    async () => {
      const { target, customerId } = await targetWithExampleCustomer();
      try {
        const refused = await run(copied(target));
        expect(refused.code, refused.stdout + refused.stderr).toBe(2);
        expect(refused.stderr).toContain('"testData.customer.emailAddress", "testData.customer.postalAddress" still');
        expect(refused.stderr).toMatch(/cannot read them back/);
        expect(target.received).toEqual([]);

        const r = await run(copied(target, CONFIGURED));
        // The phone-number tests ran against the customer (rule 2 proves the number)...
        expect(r.stdout).toMatch(/contact-info\s+[1-9]\d*\s+0\s/);
        // ...the e-mail and postal address on record are untouched...
        expect(target.state.customers.get(customerId)).toEqual(REAL);
        // ...and every test that would send either is skipped, saying why and which key to set.
        const summary = JSON.parse(readFileSync(join(r.reports, 'conformance-summary.json'), 'utf8'));
        const skipped = summary.cases.filter((c: { outcome: string }) => c.outcome === 'not-allowed');
        expect(skipped.map((c: { title: string }) => c.title)).toEqual(
          expect.arrayContaining([
            'answers 204 with no content to an e-mail address update alone',
            'answers 204 with no content to a postal address update alone',
          ]),
        );
        for (const c of skipped.filter((c: { title: string }) => !/another country code/.test(c.title))) {
          expect(c.reason).toMatch(/^skipped: an e-mail or postal address update cannot be undone on a guess/);
          expect(c.reason).toContain('set testData.customer.emailAndPostalConfirmed to true');
        }
        // Nothing is listed: no phone update carried a country code, which rule 2 cannot prove (session 41).
        expect(summary.setToConfigured ?? []).toEqual([]);
        const country = summary.cases.find((c: { title: string }) => /another country code/.test(c.title));
        expect(country?.reason).toContain('set testData.customer.countryCodeConfirmed to true');
      } finally {
        await target.close();
      }
    },
  );

  test('the dry run plans exactly that: the e-mail test sends nothing unconfirmed, a PUT confirmed', async () => {
    const { target } = await targetWithExampleCustomer();
    try {
      const only = ['--dry-run', '--area', 'contact-info', '--grep', 'to an e-mail address update alone'];
      const plan = async (customer: Record<string, unknown>) =>
        (await runMain(only, { raw: copied(target, customer), env: ENV, timeoutMs: LONG })).stdout;
      const without = await plan(CONFIGURED);
      expect(without).toMatch(/update alone\n {2}\(skipped: an e-mail or postal address update cannot be undone/);
      expect(without).not.toMatch(/^ {2}PUT /m);
      expect(await plan({ ...CONFIGURED, emailAndPostalConfirmed: true })).toMatch(/^ {2}PUT .*:contact-info {2}\[/m);
      expect(target.received).toEqual([]);
    } finally {
      await target.close();
    }
  });

  test(
    'confirmed (but not the values on record): the run lists both as set to the configured values, ' +
      'unconfirmable, in the console, summary, JUnit and HTML banner',
    async () => {
      const { target, customerId } = await targetWithExampleCustomer();
      try {
        const r = await run(copied(target, { ...CONFIGURED, emailAndPostalConfirmed: true }));
        // What a wrong confirmation costs: the configured values replaced the real ones, and the run says so.
        expect(target.state.customers.get(customerId)?.emailAddress).toBe(CONFIGURED.emailAddress);
        const said = 'set to the configured values; the interface cannot confirm what was there before';
        const who = `of customer "${customerId}" (userIdType CUSTOMER_ID)`;
        expect(r.stdout).toMatch(/SET TO THE CONFIGURED VALUES: 2 things/);
        expect(r.stdout).toContain(`e-mail address ${who}: ${said}`);
        expect(r.stdout).toContain(`postal address ${who}: ${said}`);
        const summary = JSON.parse(readFileSync(join(r.reports, 'conformance-summary.json'), 'utf8'));
        expect(summary.setToConfigured.map((l: { what: string; now: string }) => `${l.what}: ${l.now}`)).toEqual([
          `e-mail address ${who}: ${said}`,
          `postal address ${who}: ${said}`,
        ]);
        // Nothing is owed by hand, and the verdict is the target's.
        expect(summary.leftovers).toEqual([]);
        expect(r.code, r.stdout).toBe(0);
        const md = readFileSync(join(r.reports, 'conformance-summary.md'), 'utf8');
        expect(md).toContain(`e-mail address ${who}: ${said}`);
        expect(md).toMatch(/2 values set to the configured values; the interface cannot confirm/);
        const junit = readFileSync(join(r.reports, 'junit.xml'), 'utf8');
        expect(junit).toContain(`SET TO THE CONFIGURED VALUES: e-mail address ${who.replace(/"/g, '&quot;')}`);
        expect(junit).toMatch(/<property name="set-to-configured" value="postal address/);
        const html = verdictBanner('<body>', reportVerdict(summary));
        expect(html).toMatch(/<pre id="dbsi-leftovers"[^>]*>SET TO THE CONFIGURED VALUES: 2 things/);
      } finally {
        await target.close();
      }
    },
  );
});
