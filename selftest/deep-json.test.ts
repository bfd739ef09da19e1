import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { JsonTooDeep, MAX_JSON_DEPTH, nestsDeeperThan, parseJson } from '../harness/json-depth';
import { EXIT } from '../harness/run/results';
import { runMain } from './_main';
import { configFor, startMisbehavingServer, type MisbehavingServer } from './_misbehaving-server';
import { HANG_MS } from './_within';

/**
 * A body nested hundreds of thousands of levels deep is valid JSON: JSON.parse reads it, and every walk over it
 * (the contract coverage, the redaction, the rules) exhausted the stack. A target answering one ended the run with
 * "unexpected error: Maximum call stack size exceeded", exit 3 and no reports. Now such a text is not read as JSON
 * (harness/json-depth.ts): an array is still no JSON object (a failure), an object is no verdict, and a capture
 * holding one is judged like any other.
 */

const DEEP = 100_000;
const deepArray = '['.repeat(DEEP) + ']'.repeat(DEEP);

describe('the bound on nesting', () => {
  test('counts arrays and objects, not brackets inside strings', () => {
    const inString = JSON.stringify({ a: '['.repeat(MAX_JSON_DEPTH * 2) });
    expect(nestsDeeperThan(inString)).toBe(false);
    expect(parseJson(inString)).toEqual({ a: '['.repeat(MAX_JSON_DEPTH * 2) });
    const escaped = JSON.stringify({ a: '\\"[[[', b: ['x'] });
    expect(nestsDeeperThan(escaped, 2)).toBe(false);
    expect(nestsDeeperThan(escaped, 1)).toBe(true);
  });

  test('reads a text exactly at the bound, refuses one a level deeper', () => {
    const at = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
    expect(Array.isArray(parseJson(at))).toBe(true);
    expect(() => parseJson(`[${at}]`)).toThrow(JsonTooDeep);
    expect(() => parseJson(deepArray)).toThrow(/more than 256 levels deep/);
  });

  test('a text that is not JSON is refused as JSON.parse refuses it', () => {
    expect(() => parseJson('{"a":')).toThrow(SyntaxError);
    expect(() => parseJson('{"a":')).not.toThrow(JsonTooDeep);
  });
});

let server: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A target answering every request 200 with `body`. */
async function answering(body: string) {
  server = await startMisbehavingServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  return configFor(server.url, { timeoutMs: HANG_MS });
}

const LIST = ['--grep', 'listInstitutionDisclosures', '--quiet'];

describe('a target answering JSON nested too deep to read', () => {
  test('an array: no JSON object (exit 1), the reports written, no crash', async () => {
    const run = await runMain(LIST, { raw: await answering(deepArray) });
    expect(run.stderr).not.toMatch(/unexpected error|call stack/);
    expect(run.code, run.stdout + run.stderr).toBe(EXIT.NON_CONFORMANT);
    expect(run.stdout).toMatch(/CONV-JSON-BODIES .*JSON of type array: the body is JSON, but it nests/);
    const summary = JSON.parse(readFileSync(join(run.reports, 'conformance-summary.json'), 'utf8'));
    expect(summary.cases.length).toBeGreaterThan(0);
  });

  test('an object with a member nested too deep: no verdict on the body, never a failure of it', async () => {
    const body = `{"institutionDisclosures":[],"vendor":${deepArray}}`;
    const run = await runMain(LIST, { raw: await answering(body) });
    expect(run.stderr).not.toMatch(/unexpected error|call stack/);
    expect(run.stdout).not.toMatch(/✗ CONV-JSON-BODIES/);
    expect(run.stdout).toMatch(
      /holding the institutionDisclosures array: could not test: the exchange gives no verdict/,
    );
    expect(run.code).toBe(EXIT.NON_CONFORMANT); // a 200 to a request without credentials, whatever its body
    expect(run.stdout).toMatch(/✗ DISC-AUTH-REQUIRED/);
  });
});

describe('a capture holding such an answer', () => {
  test('is judged, the answer shown with why it was not read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbsi-deep-har-'));
    const entry = (text: string) => ({
      startedDateTime: '2026-11-20T09:00:00.000Z',
      time: 3,
      request: {
        method: 'GET',
        url: 'https://bank.example/api/db-disclosures/v1/institution-disclosures',
        headers: [{ name: 'Authorization', value: 'Bearer abc' }],
      },
      response: { status: 200, headers: [{ name: 'Content-Type', value: 'application/json' }], content: { text } },
    });
    const har = join(dir, 'deep.har');
    writeFileSync(har, JSON.stringify({ log: { version: '1.2', entries: [entry(deepArray)] } }));
    const run = await runMain(['--traffic', har, '--quiet']);
    expect(run.stderr).not.toMatch(/unexpected error|call stack/);
    expect(run.code, run.stdout + run.stderr).toBe(EXIT.NON_CONFORMANT);
    expect(run.stdout).toMatch(/CONV-JSON-BODIES/);
  });
});
