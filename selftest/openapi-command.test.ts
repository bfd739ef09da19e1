import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, test } from 'vitest';
import { SPEC_FILE } from '../harness/spec-location';
import { ROOT } from './_spawn-cli';
import { operationsOf, type Doc } from './_openapi';

/**
 * npm run openapi as a user runs it (a process, also from another directory): the document it
 * writes, its options. What the document holds: openapi-document.test.ts (in-process).
 */

/** tsx by its file, so that the command also runs from another directory. */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** The command in a process of its own; several run side by side (a worker thread is never blocked). */
/** As npm runs it when run from initCwd: in cwd (npm's is the package root), with INIT_CWD. */
function runOpenapi(
  args: string[],
  cwd = ROOT,
  initCwd = cwd,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const argv = ['--import', TSX, join(ROOT, 'bin/openapi.ts'), ...args];
    const env = { ...process.env, INIT_CWD: initCwd };
    const child = spawn(process.execPath, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 240_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('npm run openapi', () => {
  test(
    'npm run openapi -- --out FILE writes a document the OpenAPI 3.1 validator ' +
      'accepts, with the 12 method-and-path pairs of the spec',
    async () => {
      const out = join(mkdtempSync(join(tmpdir(), 'dbsi-openapi-')), 'sub', 'x.json');
      const r = await runOpenapi(['--out', out]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain(out);
      const validator = new Validator();
      const result = await validator.validate(out);
      expect(result.errors, JSON.stringify(result.errors, null, 2)).toBeUndefined();
      expect(result.valid).toBe(true);
      expect(validator.version).toBe('3.1');
      // Links to the spec of this checkout, relative to the document, without DBSI_SPEC_URL.
      const link = (JSON.parse(readFileSync(out, 'utf8')) as { externalDocs: { url: string } }).externalDocs.url;
      if (!process.env.DBSI_SPEC_URL)
        expect(readFileSync(join(out, '..', link), 'utf8')).toBe(readFileSync(SPEC_FILE, 'utf8'));
      // The default dialect (JSON Schema 2020-12) is meant; naming it turns off Prism's request body validation.
      expect(JSON.parse(readFileSync(out, 'utf8'))).not.toHaveProperty('jsonSchemaDialect');
      const written = JSON.parse(readFileSync(out, 'utf8')) as Doc;
      const pairs = operationsOf(written)
        .map((o) => `${o.method.toUpperCase()} ${o.path}`)
        .sort();
      expect(pairs).toEqual(
        [
          'GET /db-disclosures/v1/institution-disclosures',
          'POST /db-disclosures/v1/institution-disclosures',
          'PUT /db-disclosures/v1/institution-disclosures/{institutionDisclosureId}',
          'GET /db-disclosures/v1/institution-user-disclosures',
          'POST /db-disclosures/v1/institution-user-disclosures',
          'PUT /db-disclosures/v1/institution-user-disclosures',
          'PUT /db-disclosures/v1/institution-user-disclosures/{institutionUserDisclosureId}',
          'DELETE /db-disclosures/v1/institution-user-disclosures',
          'DELETE /db-disclosures/v1/institution-user-disclosures/{institutionUserDisclosureId}',
          'DELETE /oauth2/v1/revoke',
          'POST /db-transfers/v1/transfers',
          'PUT /customers/{customerId}:contact-info',
        ].sort(),
      );
    },
  );

  test(
    'writes reports/openapi.json by default, answers --help, and refuses an ' +
      'unknown option with exit code 2 and one message',
    async () => {
      const cwd = mkdtempSync(join(tmpdir(), 'dbsi-openapi-cwd-'));
      const [byDefault, help, bad] = await Promise.all([
        runOpenapi([], cwd),
        runOpenapi(['--help']),
        runOpenapi(['--outt', 'x.json']),
      ]);
      expect(byDefault.status).toBe(0);
      expect(existsSync(join(cwd, 'reports', 'openapi.json'))).toBe(true);
      // Run by npm from cwd (npm runs it in the package root): a relative --out is taken from cwd.
      expect((await runOpenapi(['--out', 'doc.json'], ROOT, cwd)).status).toBe(0);
      expect(existsSync(join(cwd, 'doc.json'))).toBe(true);
      expect(help.status).toBe(0);
      expect(help.stdout).toContain('--out FILE');
      expect(bad.status).toBe(2);
      expect(bad.stderr).toMatch(/^dbsi-conformance openapi: .*--outt/);
      expect(bad.stderr).not.toMatch(/\n\s+at /);
      // After the default run: reports/openapi.json is a file, so a path under it cannot be written.
      const unwritable = await runOpenapi(['--out', join(cwd, 'reports', 'openapi.json', 'x.json')]);
      expect(unwritable.status).toBe(2);
      expect(unwritable.stderr).toMatch(/^dbsi-conformance openapi: cannot write /);
    },
  );
});
