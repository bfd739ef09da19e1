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
import { until } from './_within';

/**
 * `npm run record` stopped as a person stops it: Ctrl-C in the terminal signals the whole process
 * group (npm, which relays the signal to its script, and the recorder). Every exchange is in the
 * HAR on disk as soon as it ends, the HAR is valid at every moment, and the exchange in flight when
 * the signal comes is finished and written.
 */

const LATENCY_MS = 400;
let target: ReferenceTarget;
const dir = mkdtempSync(join(tmpdir(), 'dbsi-recorder-npm-'));
const out = join(dir, 'session.har');
let output = '';
let exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
let child: ReturnType<typeof spawn>;

beforeAll(async () => {
  target = await startReferenceTarget({ latencyMs: LATENCY_MS });
  // As an operator writes it: ownTarget marks the embedded run's own configuration, never a file's.
  const { ownTarget: _own, ...written } = referenceConfig(target);
  writeFileSync(join(dir, 'target.json'), JSON.stringify(written));
  const args = ['run', 'record', '--', '--config', join(dir, 'target.json'), '--listen', '127.0.0.1:0', '--out', out];
  // Its own process group, as a terminal's foreground job: the group is signalled as Ctrl-C signals it.
  const env = { ...process.env, DBSI_CONFIG: '' };
  child = spawn('npm', args, { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const killer = setTimeout(() => killGroup('SIGKILL'), 90_000);
  exit = new Promise((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal });
    }),
  );
  await until(() => /point the client at/.test(output), 60_000);
});

/** Signal the process group (npm and the recorder), as a terminal does; nothing when it has ended. */
function killGroup(signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    /* ended */
  }
}

afterAll(async () => {
  killGroup('SIGKILL');
  await target.close();
});

const local = () => /baseUrl (http:\/\/127\.0\.0\.1:\d+\/dbsi)/.exec(output)![1]!;
const headers = {
  Authorization: `Bearer ${REFERENCE_CREDENTIALS.bearerToken}`,
  TransactionId: '6a3e7f8e-1111-4222-8333-944455556666',
  callingAppId: 'dbsi-conformance',
};
const onDisk = () => parseHar(readFileSync(out, 'utf8')).log.entries;

describe('npm run record, stopped with Ctrl-C', () => {
  test('every exchange is in the HAR as soon as it ends, and the one in flight at the signal too', async () => {
    expect(output).toMatch(/point the client at/);
    const list = () => fetch(`${local()}/db-disclosures/v1/institution-disclosures`, { headers });
    for (let i = 1; i <= 3; i++) {
      const res = await list();
      expect(res.status).toBe(200);
      await res.text();
      // On disk at once (a valid HAR, no waiting for a timer).
      expect(onDisk(), `after exchange ${i}`).toHaveLength(i);
    }
    // One more, still waiting for its answer when Ctrl-C comes; then the last three end in the same instant.
    const before = target.received.length;
    const inFlight = list();
    // In flight: the target has it and answers after LATENCY_MS (seen, not guessed from a clock).
    await until(() => target.received.length > before);
    killGroup('SIGINT');
    const res = await inFlight;
    expect(res.status).toBe(200);
    await res.text();
    // npm ends as its own Ctrl-C handling says (0, or killed by the SIGINT); the recorder finished the HAR.
    const ended = await exit;
    expect(ended.code === 0 || ended.signal === 'SIGINT', `${JSON.stringify(ended)}\n${output}`).toBe(true);
    expect(output).toMatch(/Recorded 4 exchanges/);
    expect(output).not.toMatch(/unexpected error|ERR!/);
    const entries = onDisk();
    expect(entries.map((e) => `${e.request.method} ${e.response?.status}`)).toEqual(Array(4).fill('GET 200'));
    expect(readFileSync(out, 'utf8')).not.toContain(REFERENCE_CREDENTIALS.bearerToken);
  });
});
