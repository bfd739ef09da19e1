import { afterEach, expect, test } from 'vitest';
import { EXIT } from '../harness/run/results';
import { runMain } from './_main';
import { configFor, startMisbehavingServer, type MisbehavingServer } from './_misbehaving-server';
import { HANG_MS } from './_within';

/**
 * An answer's headers as a gateway writes them: large cookies and policies. Node's default limit (16 KiB) made a
 * target whose every answer carried 60 KiB of headers read as "the target stopped answering"; the client now reads
 * up to 128 KiB (harness/http/transport.ts) and names the limit past it.
 */

let server: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A target answering every request 200 with an empty list and a header of `bytes` bytes. */
async function withHeader(bytes: number) {
  server = await startMisbehavingServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-policy': 'a'.repeat(bytes) });
    res.end('{"institutionDisclosures":[]}');
  });
  return configFor(server.url, { timeoutMs: HANG_MS });
}

const LIST = ['--grep', 'listInstitutionDisclosures', '--quiet'];

test('60 KiB of headers are read: the answers are judged', async () => {
  const run = await runMain(LIST, { raw: await withHeader(60 * 1024) });
  expect(run.stdout).not.toMatch(/headers are larger|stopped answering/);
  // Served without credentials: judged, and a failure.
  expect(run.code, run.stdout + run.stderr).toBe(EXIT.NON_CONFORMANT);
});

test('200 KiB of headers: could not test, naming the limit', async () => {
  const run = await runMain(LIST, { raw: await withHeader(200 * 1024) });
  expect(run.code, run.stdout + run.stderr).toBe(EXIT.COULD_NOT_TEST);
  expect(run.stdout).toMatch(/the answer's headers are larger than the client reads \(128 KiB\)/);
});
