import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseHar } from '../harness/traffic/har';
import { startRecording, type RecordingSession } from '../harness/traffic/recorder/session';
import { referenceConfig } from '../reference-target/config';
import { REFERENCE_CREDENTIALS } from '../reference-target/fixtures';
import { startReferenceTarget, type ReferenceTarget } from '../reference-target/server';

/**
 * The recorder writes each exchange once (redacted and serialized when it ends), and again only where a
 * credential it finds later appears in it: an earlier exchange that carried a value which a later one shows to be a
 * credential is redacted in the file too, and the exchanges that do not carry it are left as written.
 */

const LATER_TOKEN = 'later-bearer-token-7f3a9c2e5b';

let target: ReferenceTarget;
let session: RecordingSession;
const dir = mkdtempSync(join(tmpdir(), 'dbsi-recorder-redaction-'));
const out = join(dir, 'session.har');

beforeAll(async () => {
  target = await startReferenceTarget();
  session = await startRecording(referenceConfig(target), {
    host: '127.0.0.1',
    port: 0,
    out,
    version: 'selftest',
    print: () => undefined,
  });
});

afterAll(async () => {
  await session?.stop();
  await target?.close();
  rmSync(dir, { recursive: true, force: true });
});

const headers = (token: string) => ({
  Authorization: `Bearer ${token}`,
  TransactionId: '6a3e7f8e-1111-4222-8333-944455556666',
  callingAppId: 'dbsi-conformance',
});

describe('the HAR the recorder writes', () => {
  test('a value found to be a credential later is redacted in the earlier exchange that carried it', async () => {
    const base = session.recorder.urls.baseUrl;
    const list = `${base}/db-disclosures/v1/institution-disclosures`;
    // 1: the value in a query parameter the recorder takes for no credential.
    await (await fetch(`${list}?note=${LATER_TOKEN}`, { headers: headers(REFERENCE_CREDENTIALS.bearerToken) })).text();
    // 2: a request that carries nothing of it.
    await (await fetch(list, { headers: headers(REFERENCE_CREDENTIALS.bearerToken) })).text();
    const before = readFileSync(out, 'utf8');
    expect(before, 'not a credential yet: written as sent').toContain(LATER_TOKEN);
    // 3: the same value as a bearer token.
    await (await fetch(list, { headers: headers(LATER_TOKEN) })).text();
    const after = readFileSync(out, 'utf8');
    expect(after).not.toContain(LATER_TOKEN);
    const entries = parseHar(after).log.entries;
    expect(entries).toHaveLength(3);
    expect(entries[0]!.request.url).toContain('note=[REDACTED]');
    const second = (t: string) => JSON.stringify(parseHar(t).log.entries[1]);
    expect(second(after), 'an exchange without the value is left as it was written').toBe(second(before));
  });
});
