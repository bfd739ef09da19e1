import { describe, expect, test } from 'vitest';
import { areaSends, checkAreaNeeds, ConfigError, resolveConfig } from '../harness/config';
import { AREAS } from '../harness/model';
import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { startReferenceTarget } from '../reference-target/server';
import { runMain } from './_main';

/**
 * Issue 34: a run with a switch off asks only for the secrets of the areas it will test (a read-only first run
 * needs the bearer token and the disclosures' test data, nothing else), and the error for a missing secret says
 * how to run without its area (--area, or the area's switch off).
 */
const urls = {
  baseUrl: 'https://bank.example/api',
  authBaseUrl: 'https://bank.example/identity',
  transfersBaseUrl: 'https://bank.example/banking',
};
const readOnly = {
  ...urls,
  credentials: { bearerToken: 'read-only-token-1234' },
  testData: { institutionId: '1001', institutionUserId: 'u-1', accountId: 'a-1' },
};
const message = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('the secrets a run asks for', () => {
  test('every switch off: only the disclosures area sends, and only its needs are asked for', () => {
    const cfg = resolveConfig(readOnly, {});
    expect(AREAS.filter((a) => areaSends(cfg, a))).toEqual(['disclosures']);
    expect(checkAreaNeeds(cfg, [...AREAS])).toEqual([]);
  });

  test('a switch on: its area is asked for its secrets, with the --area that leaves it out or the switch', () => {
    const cfg = resolveConfig({ ...readOnly, allow: { moneyMovement: true, tokenRevocation: true } }, {});
    expect(message(() => checkAreaNeeds(cfg, [...AREAS]))).toBe(
      'missing configuration: "credentials.revocationClientId" (or environment variable DBSI_REVOCATION_CLIENT_ID), ' +
        'needed by area authentication; "credentials.revocationClientSecret" (or environment variable ' +
        'DBSI_REVOCATION_CLIENT_SECRET), needed by area authentication; "credentials.transfersToken" (or ' +
        'environment variable ' +
        'DBSI_TRANSFERS_TOKEN), needed by area money-movement; "testData.transfer.fromAccountId", needed by area ' +
        'money-movement; "testData.transfer.toAccountId", needed by area money-movement (to run without ' +
        'authentication, money-movement: --area disclosures,contact-info, or allow.tokenRevocation and ' +
        'allow.moneyMovement set to false)',
    );
  });

  test('the hint names the --area of the areas that have what they need, or the switch', () => {
    const cfg = resolveConfig({ ...readOnly, allow: { contactUpdate: true } }, {});
    expect(message(() => checkAreaNeeds(cfg, ['disclosures', 'contact-info']))).toContain(
      'needed by area contact-info (to run without contact-info: --area disclosures, ' +
        'or allow.contactUpdate set to false)',
    );
    // Nothing else selected and no switch: no way around it, no hint.
    expect(message(() => checkAreaNeeds(resolveConfig(urls, {}), ['disclosures']))).not.toMatch(/to run without/);
  });

  test('the main command: a read-only configuration runs every selected area it can (no exit 2)', async () => {
    const target = await startReferenceTarget();
    try {
      const base = target.urls.baseUrl.replace(/\/dbsi$/, '');
      const raw = {
        name: 'read-only first run',
        baseUrl: `${base}/dbsi`,
        authBaseUrl: `${base}/identity`,
        transfersBaseUrl: `${base}/banking`,
        credentials: { bearerToken: REFERENCE_CREDENTIALS.bearerToken },
        testData: {
          institutionId: REFERENCE_TEST_DATA.institutionId,
          institutionUserId: REFERENCE_TEST_DATA.institutionUserId,
          accountId: REFERENCE_TEST_DATA.accountId,
        },
      };
      const run = await runMain(['--grep', 'OP1-REQUEST'], { raw, timeoutMs: 120_000 });
      expect(run.stderr).not.toMatch(/missing configuration/);
      expect(run.code, run.stdout + run.stderr).toBe(0); // before issue 34: exit 2, asking for every area's secrets
    } finally {
      await target.close();
    }
  });
});
