import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REFERENCE_CREDENTIALS as C, REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { startReferenceTarget } from '../reference-target/server';
import { runMain, ROOT } from './_main';

/**
 * config/example.target.json works when copied as the README says: edit the URLs, the test data (its e-mail
 * and postal address placeholders replaced and confirmed) and the switches, export the DBSI_* variables.
 * Nothing else in it (headers, HTTP settings) may cause a
 * failure, and a contact-info credential header given in DBSI_CONTACT_INFO_HEADERS is replayable from
 * that variable in the curl lines.
 */
const LONG = 300_000;
const ENV = {
  DBSI_BEARER_TOKEN: C.bearerToken,
  DBSI_TRANSFERS_TOKEN: C.transfersToken,
  DBSI_REVOCATION_CLIENT_ID: C.revocationClientId,
  DBSI_REVOCATION_CLIENT_SECRET: C.revocationClientSecret,
};
const ALL_ON = { moneyMovement: true, contactUpdate: true, tokenRevocation: true, institutionDisclosureWrites: true };

/** The example as a user copies it, with what the README says to edit set for the reference target. */
function copiedExample(urls: Record<string, string>, edits: Record<string, unknown> = {}): string {
  const example = JSON.parse(readFileSync(join(ROOT, 'config', 'example.target.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  delete example.$schema;
  const file = join(mkdtempSync(join(tmpdir(), 'dbsi-example-')), 'my-target.json');
  // The reference target's test data: its e-mail and postal addresses are confirmed as on record (its fixtures).
  writeFileSync(file, JSON.stringify({ ...example, ...urls, testData: REFERENCE_TEST_DATA, allow: ALL_ON, ...edits }));
  return file;
}

describe('the example configuration', { timeout: LONG }, () => {
  test(
    'holds no placeholder where a value must come from the environment, ' +
      'and names no local file that may not exist',
    () => {
      const text = readFileSync(join(ROOT, 'config', 'example.target.json'), 'utf8');
      expect(text).not.toMatch(/instead of writing|set DBSI_|<[a-z ]+>|changeme/i);
      expect(text).not.toMatch(/"credentials"/);
      expect(text).not.toMatch(/File"\s*:/);
    },
  );

  test('the schema and docs/bad-conditions.md say the same about what http.retries covers', () => {
    const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'config.schema.json'), 'utf8'));
    const said = JSON.stringify(schema).match(/"retries":\{[^}]*"description":"([^"]*)"/)![1]!;
    const readme = readFileSync(join(ROOT, 'docs', 'bad-conditions.md'), 'utf8').replace(/\s+/g, ' ');
    for (const phrase of [
      'a connection that could not be made ' + '(nothing was sent)',
      '429',
      '503 on a GET',
      'default 1',
    ]) {
      expect(said).toContain(phrase);
      expect(readme).toContain(phrase);
    }
  });

  test(
    'copied, with URLs, test data and switches edited: contact info passes ' +
      'with the default credentials (the bearer token)',
    async () => {
      const target = await startReferenceTarget();
      try {
        const run = await runMain(['--config', copiedExample(target.urls), '--area', 'contact-info'], {
          env: ENV,
          timeoutMs: 200_000,
        });
        expect(run.code, run.stdout + run.stderr).toBe(0);
        expect(run.stdout).toMatch(/contact-info\s+[1-9]\d*\s+0\s/);
      } finally {
        await target.close();
      }
    },
  );

  test(
    'a contact-info header from DBSI_CONTACT_INFO_HEADERS is ' + 'replayed from that variable in the curl line',
    async () => {
      const target = await startReferenceTarget({ faults: ['op10-answers-200-with-body'] });
      try {
        const headers = JSON.stringify({ Authorization: `Bearer ${C.bearerToken}` });
        const run = await runMain(
          [
            '--config',
            copiedExample(target.urls),
            '--area',
            'contact-info',
            '--grep',
            'to an e-mail address update alone',
          ],
          { env: { ...ENV, DBSI_CONTACT_INFO_HEADERS: headers }, timeoutMs: 200_000 },
        );
        expect(run.code, run.stdout + run.stderr).toBe(1);
        const summary = JSON.parse(readFileSync(join(run.reports, 'conformance-summary.json'), 'utf8'));
        const curl: string = summary.cases.find((c: { curl?: string }) => c.curl).curl;
        expect(curl).toContain(
          `"Authorization: $(printf %s "$DBSI_CONTACT_INFO_HEADERS" | jq -r '.["Authorization"]')"`,
        );
        expect(curl).not.toContain(C.bearerToken);
        // Replayed with the variable set, the request is answered as in the run (200 with a body: the fault).
        // (asynchronously: the target answers from this process)
        const replay = await promisify(execFile)('bash', ['-c', curl], {
          env: { ...process.env, DBSI_CONTACT_INFO_HEADERS: headers },
          encoding: 'utf8',
          timeout: 20_000,
        });
        expect(replay.stdout).toMatch(/^HTTP\/1\.1 200/);
      } finally {
        await target.close();
      }
    },
  );
});
