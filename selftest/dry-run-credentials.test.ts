import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from '../harness/run/main';
import { editedExample } from './_example';

/**
 * --dry-run sends nothing to the target, so it plans without the credentials a run needs (it says which are
 * missing); every other configuration check still stops it with exit 2. In process: main(argv, env, io).
 */
const ONE_TEST = ['--grep', 'List institution disclosures: is not served without credentials'];

/** The example configuration (it holds no credentials), with `edit` applied, in a fresh folder. */
function exampleWith(edit: (c: Record<string, any>) => void = () => {}): { file: string; reports: string } {
  const dir = mkdtempSync(join(tmpdir(), 'dbsi-dry-cred-'));
  const cfg = editedExample();
  delete cfg.$schema;
  edit(cfg);
  const file = join(dir, 'my-target.json');
  writeFileSync(file, JSON.stringify(cfg));
  return { file, reports: join(dir, 'reports') };
}

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {}, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('--dry-run without credentials', () => {
  test('plans every selected area without them, names each a run needs, exit 0', async () => {
    // Every switch on: a run then needs every area's credentials (with a switch off it asks for none of its area's).
    const on = { moneyMovement: true, contactUpdate: true, tokenRevocation: true };
    const { file, reports } = exampleWith((c) => Object.assign(c.allow, on));
    const r = await run(['--dry-run', '--config', file, '--reports', reports, ...ONE_TEST]);
    expect(r.code, r.out + r.err).toBe(0);
    const base = 'https://sandbox.acme-bank.example/digital/api';
    expect(r.out).toContain(`GET ${base}/db-disclosures/v1/institution-disclosures`);
    expect(r.out).toContain('Nothing was sent to the target.');
    for (const v of ['BEARER_TOKEN', 'REVOCATION_CLIENT_ID', 'REVOCATION_CLIENT_SECRET', 'TRANSFERS_TOKEN']) {
      const named = `--dry-run: planned without "credentials\\.\\w+" \\(or environment variable DBSI_${v}\\)`;
      expect(r.err).toMatch(new RegExp(named));
    }
    expect(r.err).toContain('"credentials.contactInfoHeaders" or "credentials.bearerToken"');
    expect(readFileSync(join(reports, 'dry-run-plan.md'), 'utf8')).toContain('dry-run plan for Acme Bank sandbox');
  });

  test('a run without --dry-run still refuses the same configuration (exit 2, naming the credential)', async () => {
    const { file, reports } = exampleWith();
    const r = await run(['--config', file, '--reports', reports, '--area', 'disclosures']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('configuration error: missing configuration: "credentials.bearerToken"');
  });

  test.each([
    ['an unknown key', (c: Record<string, any>) => (c.allow.transfers = true), 'unknown key "allow.transfers"'],
    ['missing test data', (c: Record<string, any>) => delete c.testData.accountId, '"testData.accountId", needed by'],
    ['an invalid URL', (c: Record<string, any>) => (c.baseUrl = 'not a url'), '"baseUrl" must be an absolute'],
    ['a secret too short', (c: Record<string, any>) => (c.credentials = { bearerToken: 'short' }), 'bearerToken'],
  ])('with --dry-run, %s is still a configuration error (exit 2)', async (_, edit, expected) => {
    const { file, reports } = exampleWith(edit);
    const r = await run(['--dry-run', '--config', file, '--reports', reports, ...ONE_TEST]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(expected);
    expect(r.out).toBe('');
  });
});
