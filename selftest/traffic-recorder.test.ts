import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseHar } from '../harness/traffic/har';
import { referenceConfig } from '../reference-target/config';
import { REFERENCE_CREDENTIALS } from '../reference-target/fixtures';
import { startReferenceTarget, type ReferenceTarget } from '../reference-target/server';
import { ROOT } from './_cli';
import { joined } from './_regex';
import { until } from './_within';

/**
 * npm run record, run as a user runs it: a reverse proxy to the configured target that prints each
 * broken rule as it happens, redacts every secret in the HAR, and on Ctrl-C (SIGINT) finishes and
 * leaves a complete, valid HAR 1.2 file.
 */

let target: ReferenceTarget;
const dir = mkdtempSync(join(tmpdir(), 'dbsi-recorder-'));
const out = join(dir, 'session.har');
let output = '';
let exit: Promise<number | null>;
let child: ReturnType<typeof spawn>;

beforeAll(async () => {
  target = await startReferenceTarget({ faults: ['op5-200-with-body'] });
  // As an operator writes it: ownTarget marks the embedded run's own configuration, never a file's.
  const { ownTarget: _own, ...written } = referenceConfig(target);
  writeFileSync(join(dir, 'target.json'), JSON.stringify(written));
  child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bin/record.ts', '--config', join(dir, 'target.json'), '--listen', '127.0.0.1:0', '--out', out],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DBSI_CONFIG: '' } },
  );
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  exit = new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve(code);
    }),
  );
  // A hang stopper with room for a machine ten times slower (the recorder starts in a few seconds).
  await until(() => /point the client at/.test(output), 60_000);
});

afterAll(async () => {
  if (child.exitCode === null) child.kill('SIGKILL');
  await target.close();
});

const local = () => /baseUrl (http:\/\/127\.0\.0\.1:\d+\/dbsi)/.exec(output)![1]!;
const headers = {
  Authorization: `Bearer ${REFERENCE_CREDENTIALS.bearerToken}`,
  TransactionId: '6a3e7f8e-1111-4222-8333-944455556666',
  callingAppId: 'dbsi-conformance',
  'Content-Type': 'application/json',
};

describe('the recorder', () => {
  test('forwards to the target, prints a broken rule as it happens, and writes a complete HAR on Ctrl-C', async () => {
    expect(output).toMatch(/point the client at/);
    const list = await fetch(`${local()}/db-disclosures/v1/institution-disclosures`, { headers });
    expect(list.status).toBe(200);
    expect(
      ((await list.json()) as { institutionDisclosures: unknown[] }).institutionDisclosures.length,
    ).toBeGreaterThan(0);
    const create = await fetch(`${local()}/db-disclosures/v1/institution-user-disclosures`, {
      method: 'POST',
      headers: {
        ...headers,
        InstitutionUserDisclosureStatus: 'ACCEPTED',
        InstitutionDisclosureName: 'Privacy Notice',
        AccountId: 'acct-100200',
        InstitutionDisclosureId: 'disc-002',
        InstitutionUserDisclosureStatusUpdateDateTime: new Date().toISOString(),
      },
      body: JSON.stringify({
        institutionUserDisclosureStatus: 'ACCEPTED',
        institutionDisclosureName: 'Privacy Notice',
      }),
    });
    expect(create.status).toBe(200); // the fault: 200 with a body instead of 204
    await create.text();
    await until(() => /OP5-STATUS-204 broken by #2/.test(output));
    expect(output).toMatch(
      joined(
        '',
        /✗ MUST OP5-STATUS-204 broken by #2 POST /,
        /http:\/\/127\.0\.0\.1:\d+\/dbsi\/db-disclosures\/v1\/institution-user-disclosures → 200/,
      ),
    );

    child.kill('SIGINT');
    expect(await exit, output).toBe(0);
    expect(output).toMatch(/Recorded 2 exchanges/);
    const { log } = parseHar(readFileSync(out, 'utf8'));
    expect(log.version).toBe('1.2');
    expect(log.entries.map((e) => `${e.request.method} ${e.response?.status}`)).toEqual(['GET 200', 'POST 200']);
    // Recorded as the target saw it: its URL; every secret redacted.
    expect(log.entries[0]!.request.url).toBe(`${target.urls.baseUrl}/db-disclosures/v1/institution-disclosures`);
    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain(REFERENCE_CREDENTIALS.bearerToken);
    expect(text).toContain('Bearer [REDACTED]');
    expect(output).not.toContain(REFERENCE_CREDENTIALS.bearerToken);
  });
});
