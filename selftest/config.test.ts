import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  checkAreaNeeds,
  ConfigError,
  loadConfigFile,
  resolveConfig,
  secretValues,
  suggestKey,
} from '../harness/config';
import { ROOT } from './_cli';

const minimal = {
  baseUrl: 'https://bank.example/api',
  authBaseUrl: 'https://bank.example/identity',
  transfersBaseUrl: 'https://bank.example/banking',
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

/** The example with the e-mail and postal address placeholders replaced, as its user must. */
function contactReplaced<T>(example: T): T {
  const e = structuredClone(example) as { testData: { customer: Record<string, unknown> } };
  e.testData.customer.emailAddress = 'jordan.lee@example.com';
  e.testData.customer.postalAddress = { address1: '1 Main St', city: 'Springfield', postalCode: '62701' };
  return e as T;
}

describe('configuration', () => {
  test('the shipped example config is valid once its contact placeholders are replaced (names no local file)', () => {
    const example = JSON.parse(readFileSync('config/example.target.json', 'utf8'));
    const cfg = resolveConfig(contactReplaced(example), {});
    expect(cfg.baseUrl).toBe('https://sandbox.acme-bank.example/digital/api');
    expect(cfg.allow).toEqual({
      moneyMovement: false,
      contactUpdate: false,
      tokenRevocation: false,
      institutionDisclosureWrites: false,
    });
  });

  test("the example's $schema resolves to the config schema where the README copies the example", () => {
    const example = JSON.parse(readFileSync(join(ROOT, 'config/example.target.json'), 'utf8')) as { $schema: string };
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const copy = /^cp config\/example\.target\.json (\S+)/m.exec(readme)?.[1];
    expect(copy, 'the README says where to copy the example').toBe('my-target.json');
    const copied = join(ROOT, copy!);
    expect(resolve(dirname(copied), example.$schema)).toBe(join(ROOT, 'schemas', 'config.schema.json'));
    expect(existsSync(resolve(dirname(copied), example.$schema))).toBe(true);
    // The loader accepts the copy with its $schema (its contact placeholders replaced), from the repository root.
    const dir = mkdtempSync(join(tmpdir(), 'dbsi-cfg-'));
    writeFileSync(join(dir, 'my-target.json'), JSON.stringify(contactReplaced(example)));
    expect(loadConfigFile(join(dir, 'my-target.json'), {}).name).toBe('Acme Bank sandbox');
  });

  test('keeps path prefixes and drops a trailing slash', () => {
    const cfg = resolveConfig({ ...minimal, baseUrl: 'https://bank.example/a/b/' }, {});
    expect(cfg.baseUrl).toBe('https://bank.example/a/b');
  });

  test('safety switches are off by default for a configured target', () => {
    expect(Object.values(resolveConfig(minimal, {}).allow)).toEqual([false, false, false, false]);
  });

  test('names an unknown key', () => {
    expect(message(() => resolveConfig({ ...minimal, baseURL: 'x' }, {}))).toContain('unknown key "baseURL"');
    expect(message(() => resolveConfig({ ...minimal, allow: { transfers: true } }, {}))).toContain(
      'unknown key "allow.transfers"',
    );
  });

  test('an unknown key near an allowed one at its place gets a "did you mean"', () => {
    const customer = { customerId: 'c-1', phonenumber: '5550100' };
    expect(message(() => resolveConfig({ ...minimal, testData: { customer } }, {}))).toContain(
      'unknown key "testData.customer.phonenumber" (did you mean "testData.customer.phoneNumber"?): not part of',
    );
    // Through the schema's $ref (moreCustomers' items), and at the top level.
    const more = { moreCustomers: [{ customerId: 'c-2', phoneNumber: '5550101', postal_address: {} }] };
    expect(message(() => resolveConfig({ ...minimal, testData: more }, {}))).toContain(
      'unknown key "testData.moreCustomers.0.postal_address" (did you mean "testData.moreCustomers.0.postalAddress"?)',
    );
    expect(message(() => resolveConfig({ ...minimal, baseURL: 'x' }, {}))).toContain('(did you mean "baseUrl"?)');
    expect(message(() => resolveConfig({ ...minimal, allow: { tokenRevokation: true } }, {}))).toContain(
      'unknown key "allow.tokenRevokation" (did you mean "allow.tokenRevocation"?)',
    );
    const timeout = message(() => resolveConfig({ ...minimal, http: { timeout: 5 } }, {}));
    expect(timeout).toContain('(did you mean "http.timeoutMs"?)');
    // Nothing near: no guess.
    expect(message(() => resolveConfig({ ...minimal, allow: { transfers: true } }, {}))).not.toContain('did you mean');
  });

  test('suggestKey: case, separators, a small edit distance, nothing when two are equally near', () => {
    expect(suggestKey('phonenumber', ['customerId', 'phoneNumber'])).toBe('phoneNumber');
    expect(suggestKey('PHONE-NUMBER', ['phoneNumber'])).toBe('phoneNumber');
    expect(suggestKey('phoneNubmer', ['phoneNumber'])).toBe('phoneNumber');
    expect(suggestKey('certFiel', ['caFile', 'certFile', 'keyFile'])).toBe('certFile');
    expect(suggestKey('nme', ['name'])).toBe('name');
    expect(suggestKey('cat', ['bat', 'car'])).toBeUndefined();
    expect(suggestKey('proxy', ['proxyUrl', 'retries'])).toBeUndefined();
    expect(suggestKey('anything', [])).toBeUndefined();
  });

  test('names a missing base URL', () => {
    const { transfersBaseUrl: _, ...rest } = minimal;
    expect(message(() => resolveConfig(rest, {}))).toContain('missing key "transfersBaseUrl"');
  });

  test('names an invalid URL and what is expected', () => {
    expect(message(() => resolveConfig({ ...minimal, authBaseUrl: 'not a url' }, {}))).toContain(
      '"authBaseUrl" must be an absolute ' + 'http:// or https:// URL',
    );
  });

  test('names a value of the wrong type', () => {
    expect(message(() => resolveConfig({ ...minimal, http: { timeoutMs: 'soon' } }, {}))).toContain(
      '"http.timeoutMs" must be integer',
    );
  });

  test('refuses plain http:// to a non-loopback host unless allowed', () => {
    expect(message(() => resolveConfig({ ...minimal, baseUrl: 'http://bank.example/api' }, {}))).toContain(
      'allowInsecureHttp',
    );
    expect(
      resolveConfig({ ...minimal, baseUrl: 'http://bank.example/api', http: { allowInsecureHttp: true } }, {}).baseUrl,
    ).toBe('http://bank.example/api');
    expect(resolveConfig({ ...minimal, baseUrl: 'http://127.0.0.1:8080/api' }, {}).baseUrl).toBe(
      'http://127.0.0.1:8080/api',
    );
  });

  test('a missing TLS file is named', () => {
    expect(
      message(() => resolveConfig({ ...minimal, http: { tls: { caFile: '/nonexistent/ca.pem' } } }, {})),
    ).toContain('"http.tls.caFile"');
  });

  test('secrets come from the environment, and win over the file', () => {
    const cfg = resolveConfig(
      { ...minimal, credentials: { bearerToken: 'from-file-1234' } },
      { DBSI_BEARER_TOKEN: 'from-env-5678', DBSI_CONTACT_INFO_HEADERS: '{"x-api-key":"k-9999-abcd"}' },
    );
    expect(cfg.credentials.bearerToken).toBe('from-env-5678');
    expect(cfg.credentials.contactInfoHeaders).toEqual({ 'x-api-key': 'k-9999-abcd' });
    expect(secretValues(cfg)).toEqual(expect.arrayContaining(['from-env-5678', 'k-9999-abcd']));
  });

  test('a malformed DBSI_CONTACT_INFO_HEADERS is named', () => {
    expect(message(() => resolveConfig(minimal, { DBSI_CONTACT_INFO_HEADERS: 'Bearer x' }))).toContain(
      'DBSI_CONTACT_INFO_HEADERS',
    );
  });

  test('a credential missing for a selected area names the key and its environment variable', () => {
    const cfg = resolveConfig(minimal, {});
    expect(message(() => checkAreaNeeds(cfg, ['disclosures']))).toContain(
      '"credentials.bearerToken" (or environment variable ' + 'DBSI_BEARER_TOKEN), needed by area disclosures',
    );
    // An area is asked for its secrets only where it will send (its switch on: selftest/area-secrets.test.ts).
    const moving = resolveConfig({ ...minimal, allow: { moneyMovement: true } }, {});
    expect(message(() => checkAreaNeeds(moving, ['money-movement']))).toContain('DBSI_TRANSFERS_TOKEN');
  });

  test('a file that is not JSON is named', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbsi-cfg-'));
    const p = join(dir, 'bad.json');
    writeFileSync(p, '{ "baseUrl": ');
    expect(message(() => loadConfigFile(p, {}))).toContain('is not valid JSON');
  });
});
