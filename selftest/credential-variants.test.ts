import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { resolveConfig, secretValues } from '../harness/config';
import { NEAR_VARIANTS, nearVariant, nearVariantAuthorization, nearVariantShell } from '../harness/credential-variants';
import { Redactor } from '../harness/redact';

/**
 * Near variants of a configured credential (issue 33): each differs from the credential, none is sent where it could
 * mean the same (hex, UUIDs in another case), every report hides it, and the curl line replays it from the
 * environment variable of the real one.
 */
const bash = (script: string, env: Record<string, string>) =>
  execFileSync('bash', ['--noprofile', '--norc', '-c', script], {
    env: { PATH: process.env.PATH ?? '', ...env },
  }).toString();

describe('near variants of a credential', () => {
  test('each variant differs from the secret; hex and UUID values have no other-case variant', () => {
    for (const secret of ['ref-bearer-7f3a9c1e5b2d', 'Abc12345678', 'tok.en/with+chars=']) {
      for (const kind of NEAR_VARIANTS) expect(nearVariant(secret, kind), `${kind} of ${secret}`).not.toBe(secret);
    }
    expect(nearVariant('3f1c1d7e-6a43-4c55-9a57-2b8c0f4d9e21', 'other-case')).toBeUndefined();
    expect(nearVariant('DEADBEEF0123', 'other-case')).toBeUndefined();
    expect(nearVariant('12345678', 'other-case')).toBeUndefined();
    expect(nearVariant('12345678', 'cut-short')).toBe('1234567');
  });

  test.each(['ref-bearer-7f3a9c1e5b2d', 'Abc12345678', 'tok.en/with+chars=', 'ends-in-9'])(
    'the shell text of every variant of %s gives the variant',
    (secret) => {
      for (const kind of NEAR_VARIANTS) {
        const want = nearVariant(secret, kind);
        if (want === undefined) continue;
        const shell = nearVariantShell('DBSI_BEARER_TOKEN', kind, secret);
        expect(bash(`printf %s "${shell}"`, { DBSI_BEARER_TOKEN: secret }), kind).toBe(want);
      }
    },
  );

  test('every variant of a configured credential is redacted, and its curl text replays it', () => {
    const cfg = resolveConfig(
      {
        baseUrl: 'https://bank.example/api',
        authBaseUrl: 'https://bank.example/identity',
        transfersBaseUrl: 'https://bank.example/banking',
        credentials: {
          bearerToken: 'Bearer-Token-abc123',
          transfersToken: 'transfers-Token-xyz',
          revocationClientId: 'client-id-1',
          revocationClientSecret: 'Secret-Key-42',
        },
      },
      {},
    );
    const redactor = new Redactor(secretValues(cfg));
    for (const secret of ['Bearer-Token-abc123', 'transfers-Token-xyz', 'Secret-Key-42'])
      for (const kind of NEAR_VARIANTS) {
        const v = nearVariant(secret, kind)!;
        expect(redactor.text(`value ${v} end`), `${kind} of ${secret}`).not.toContain(v.slice(0, -1));
      }
    const cut = nearVariant('Secret-Key-42', 'cut-short')!;
    const basic = `Basic ${Buffer.from(`client-id-1:${cut}`).toString('base64')}`;
    const shell = nearVariantAuthorization(cfg, { Authorization: basic })!;
    const env = { DBSI_REVOCATION_CLIENT_ID: 'client-id-1', DBSI_REVOCATION_CLIENT_SECRET: 'Secret-Key-42' };
    expect(bash(`printf %s "${shell}"`, env)).toBe(basic);
    const swapped = nearVariant('transfers-Token-xyz', 'other-case')!;
    const bearer = nearVariantAuthorization(cfg, { authorization: `Bearer ${swapped}` })!;
    expect(bash(`printf %s "${bearer}"`, { DBSI_TRANSFERS_TOKEN: 'transfers-Token-xyz' })).toBe(`Bearer ${swapped}`);
    expect(nearVariantAuthorization(cfg, { Authorization: 'Bearer something-else' })).toBeUndefined();
  });
});
