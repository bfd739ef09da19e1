import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseHar } from '../harness/traffic/har';
import { entryText, HarFile } from '../harness/traffic/recorder/har-file';
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

describe('the HAR file of a recording (HarFile)', () => {
  const entriesOf = (text: string) =>
    (JSON.parse(text) as { log: { entries: Array<{ request: { url: string } }> } }).log.entries;
  const entry = (i: number) => ({ startedDateTime: new Date(i).toISOString(), time: i, request: { url: `u${i}` } });
  const texts = (n: number) => Array.from({ length: n }, (_, i) => entryText(entry(i) as never));

  test('is a complete, valid HAR after every write: whole, appended, whole again, appended', () => {
    const file = join(dir, 'file.har');
    const har = new HarFile(file, { name: 'selftest', version: '1' });
    const urls = () => entriesOf(readFileSync(file, 'utf8')).map((e) => e.request.url);
    har.append([]);
    expect(urls()).toEqual([]);
    har.append(texts(1));
    expect(urls()).toEqual(['u0']);
    har.append(texts(4));
    expect(urls()).toEqual(['u0', 'u1', 'u2', 'u3']);
    expect(har.entries).toBe(4);
    har.rewrite(texts(5));
    har.append(texts(7));
    expect(urls()).toEqual(['u0', 'u1', 'u2', 'u3', 'u4', 'u5', 'u6']);
    expect(JSON.parse(readFileSync(file, 'utf8')).log.version).toBe('1.2');
  });

  test('an append writes the new entries and the tail, not the entries the file holds', () => {
    const file = join(dir, 'grow.har');
    const har = new HarFile(file, { name: 'selftest', version: '1' });
    const all = texts(200);
    har.append(all.slice(0, 100));
    // The file's first bytes changed under it: an append that rewrote the file would put them back.
    const held = readFileSync(file, 'utf8');
    const marked = held.replace('"u0"', '"U0"');
    writeFileSync(file, marked);
    har.append(all);
    const after = readFileSync(file, 'utf8');
    expect(after.startsWith(marked.slice(0, marked.lastIndexOf('\n  ]')))).toBe(true);
    expect(entriesOf(after)).toHaveLength(200);
  });
});
