import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resolveConfig, secretValues } from '../harness/config';
import { runMain } from './_main';
import { HANG_MS } from './_within';
import { startCountingTarget, type CountingTarget } from './_counting-target';

/**
 * Issue 11: secrets and header values are checked as HTTP header values first (CR, LF, NUL,
 * outside Latin-1), and secrets for their length, before anything is sent: exit 2 naming the
 * variable or key.
 */

const minimal = {
  baseUrl: 'https://bank.example/api',
  authBaseUrl: 'https://bank.example/identity',
  transfersBaseUrl: 'https://bank.example/banking',
};

function refused(raw: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): { message: string; ms: number } {
  const t0 = performance.now();
  try {
    resolveConfig(raw, env);
  } catch (e) {
    return { message: (e as Error).message, ms: performance.now() - t0 };
  }
  throw new Error('expected the configuration to be refused');
}

describe('a secret that is not a valid HTTP header value is refused, naming its variable', () => {
  test.each([
    [
      'a trailing CR (a Windows-edited secret file)',
      { DBSI_BEARER_TOKEN: 'bearer-token-1234\r' },
      'DBSI_BEARER_TOKEN',
      'a carriage return',
    ],
    ['a trailing LF', { DBSI_TRANSFERS_TOKEN: 'transfers-token-1234\n' }, 'DBSI_TRANSFERS_TOKEN', 'a line feed'],
    [
      'a character outside Latin-1',
      { DBSI_REVOCATION_CLIENT_SECRET: 'secret-€-1234' },
      'DBSI_REVOCATION_CLIENT_SECRET',
      'U+20AC (outside Latin-1)',
    ],
    [
      'CRLF inside DBSI_CONTACT_INFO_HEADERS',
      { DBSI_CONTACT_INFO_HEADERS: '{"X-Api-Key":"api-key-1234\\r\\nX-Injected: 1"}' },
      'DBSI_CONTACT_INFO_HEADERS header "X-Api-Key"',
      'a carriage return',
    ],
    [
      'a leading space',
      { DBSI_REVOCATION_REFRESH_TOKEN: ' refresh-token-1234' },
      'DBSI_REVOCATION_REFRESH_TOKEN',
      'white space',
    ],
  ])('%s', (_what, env, name, says) => {
    const { message, ms } = refused(minimal, env);
    expect(message).toContain(name);
    expect(message).toContain(says);
    expect(ms, 'refused at once (bounded, not timed: HANG_MS)').toBeLessThan(HANG_MS);
  });

  test('the token that lacks authorization, the same as the transfers token, is refused, naming both', () => {
    const env = {
      DBSI_TRANSFERS_TOKEN: 'transfers-token-1234',
      DBSI_TRANSFERS_FORBIDDEN_TOKEN: 'transfers-token-1234',
    };
    expect(refused(minimal, env).message).toMatch(
      /^DBSI_TRANSFERS_TOKEN and DBSI_TRANSFERS_FORBIDDEN_TOKEN are the same token: .* answers 403/,
    );
    expect(() => resolveConfig(minimal, { ...env, DBSI_TRANSFERS_FORBIDDEN_TOKEN: 'other-token-5678' })).not.toThrow();
  });

  test('a NUL in a secret of the file names its key', () => {
    expect(refused({ ...minimal, testData: { revocation: { password: 'pass\u0000word-1234' } } }).message).toMatch(
      /^"testData\.revocation\.password" contains a NUL character/,
    );
  });

  test('a header value of the configuration (callingAppId) is checked too', () => {
    expect(refused({ ...minimal, callingAppId: 'app\r\nX-Injected: 1' }).message).toMatch(
      /^"callingAppId" contains a carriage return/,
    );
  });

  test('an invalid header name in the contact-info headers is named', () => {
    expect(
      refused({ ...minimal, credentials: { contactInfoHeaders: { 'X Api Key': 'api-key-123456' } } }).message,
    ).toContain('"credentials.contactInfoHeaders" header "X Api Key" ' + 'is not a valid HTTP header name');
  });
});

describe('a secret under 8 characters is refused, naming its variable', () => {
  test.each([
    [{ DBSI_BEARER_TOKEN: 'abc' }, 'DBSI_BEARER_TOKEN is 3 characters long'],
    [{ DBSI_REVOCATION_PASSWORD: '1234567' }, 'DBSI_REVOCATION_PASSWORD is 7 characters long'],
    [
      { DBSI_CONTACT_INFO_HEADERS: '{"Authorization":"Bearer 12345"}' },
      'DBSI_CONTACT_INFO_HEADERS header ' + '"Authorization" is 5 characters long',
    ],
  ])('%j', (env, says) => {
    expect(refused(minimal, env).message).toContain(says);
  });

  test('from the file, the key is named', () => {
    expect(refused({ ...minimal, credentials: { transfersToken: 'short' } }).message).toContain(
      '"credentials.transfersToken" is 5 ' + 'characters long',
    );
  });

  test('8 characters are enough', () => {
    expect(resolveConfig(minimal, { DBSI_BEARER_TOKEN: '12345678' }).credentials.bearerToken).toBe('12345678');
  });
});

describe('the proxy URL may carry credentials: its password is a secret like the others', () => {
  test('a short proxy password is refused, naming it', () => {
    expect(refused({ ...minimal, http: { proxyUrl: 'http://user:short@proxy.example:3128' } }).message).toContain(
      'the password of "http.proxyUrl" is 5 ' + 'characters long',
    );
  });

  test('a proxy password is redacted like every secret', () => {
    const cfg = resolveConfig({ ...minimal, http: { proxyUrl: 'http://user:pr%40xy-pass-1@proxy.example:3128' } }, {});
    expect(secretValues(cfg)).toEqual(
      expect.arrayContaining(['pr@xy-pass-1', Buffer.from('user:pr@xy-pass-1').toString('base64')]),
    );
  });
});

describe('the main command refuses such a secret before any request', () => {
  let counter: CountingTarget;
  let cfg = '';
  beforeAll(async () => {
    counter = await startCountingTarget();
    const base = counter.base;
    cfg = join(mkdtempSync(join(tmpdir(), 'dbsi-secret-checks-')), 'target.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        baseUrl: `${base}/api`,
        authBaseUrl: `${base}/id`,
        transfersBaseUrl: `${base}/xfer`,
        testData: { institutionId: '1', institutionUserId: 'u', accountId: 'a' },
        http: { timeoutMs: 1000 },
      }),
    );
  });
  afterAll(() => counter.close());

  test.concurrent.each([
    ['a short secret', { DBSI_BEARER_TOKEN: 'abc' }, 'DBSI_BEARER_TOKEN is 3 characters long'],
    [
      'a secret with a trailing CR',
      { DBSI_BEARER_TOKEN: 'bearer-token-1234\r' },
      'DBSI_BEARER_TOKEN contains a carriage return',
    ],
    [
      'CRLF inside DBSI_CONTACT_INFO_HEADERS',
      { DBSI_BEARER_TOKEN: 'bearer-token-1234', DBSI_CONTACT_INFO_HEADERS: '{"X-Api-Key":"api-key-1234\\r\\nX: 1"}' },
      'DBSI_CONTACT_INFO_HEADERS header "X-Api-Key"',
    ],
    [
      'a secret that is a word of the spec',
      { DBSI_BEARER_TOKEN: 'password' },
      'DBSI_BEARER_TOKEN is a word the ' + 'reports hold anyway',
    ],
  ])('%s: exit 2 naming the variable, the value never printed', async (_what, env, says) => {
    const before = counter.requests();
    const run = await runMain(['--config', cfg, '--area', 'disclosures'], { env, timeoutMs: 30_000 });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(says);
    expect(run.stdout + run.stderr).not.toContain(
      env.DBSI_BEARER_TOKEN === 'password' ? 'password"' : env.DBSI_BEARER_TOKEN,
    );
    expect(counter.requests()).toBe(before);
  });
});
