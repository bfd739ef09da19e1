import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ConformanceSummary } from '../harness/evidence/summary';
import { main } from '../harness/run/main';

/**
 * One way to finish a run (issue 22, harness/run/finish.ts): recorded traffic is finished by the same step
 * as an active run, so a waiver, a comparison with an earlier run and a declared path apply to it as well.
 * Before, DBSI_WAIVERS and --compare were ignored with --traffic.
 */

const API = 'https://bank.example/api';
const BROKEN = 'OP1-RESPONSE-ENVELOPE';
const dir = mkdtempSync(join(tmpdir(), 'dbsi-traffic-finish-'));
const common = { authorization: 'Bearer browser-token-0001', transactionid: 't-1', callingappid: 'bank-web' };

/** One list of institution disclosures; `renamed` answers it under another member name (OP1-RESPONSE-ENVELOPE). */
function capture(renamed: boolean) {
  const list = [{ institutionDisclosureId: 'd-1', institutionId: '77', institutionDisclosureName: 'E-Sign' }];
  const body = renamed ? { disclosures: list } : { institutionDisclosures: list };
  const entry = {
    startedDateTime: '2026-11-20T09:00:00.000Z',
    time: 40,
    request: {
      method: 'GET',
      url: `${API}/db-disclosures/v1/institution-disclosures`,
      httpVersion: 'http/2.0',
      headers: Object.entries(common).map(([name, value]) => ({ name, value })),
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 200,
      statusText: '',
      httpVersion: 'http/2.0',
      headers: [{ name: 'content-type', value: 'application/json' }],
      cookies: [],
      content: { size: 0, mimeType: 'application/json', text: JSON.stringify(body) },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 1, wait: 38, receive: 1 },
  };
  return { log: { version: '1.2', creator: { name: 'WebInspector', version: '1' }, pages: [], entries: [entry] } };
}

async function judge(name: string, renamed: boolean, extra: string[], env: NodeJS.ProcessEnv = {}) {
  const file = join(dir, `${name}.har`);
  writeFileSync(file, JSON.stringify(capture(renamed)));
  const reports = join(dir, name);
  const lines: string[] = [];
  const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
  const code = await main(['--traffic', file, '--area', 'disclosures', '--reports', reports, ...extra], env, io);
  const summary = JSON.parse(readFileSync(join(reports, 'conformance-summary.json'), 'utf8')) as ConformanceSummary;
  return { code, out: lines.join('\n'), summary, reports };
}

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const waivers = (file: string) => {
  const waiver = { requirement: BROKEN, reason: 'accepted until 4.2', reference: 'CHG-9', expires: inDays(30) };
  writeFileSync(file, JSON.stringify({ waivers: [waiver] }));
  return file;
};

describe('recorded traffic is finished as an active run is', () => {
  test('a waiver applies to a capture (--waivers and DBSI_WAIVERS): exit 0, the failure shown as waived', async () => {
    const plain = await judge('plain', true, []);
    expect(plain.code, plain.out).toBe(1);
    const file = waivers(join(dir, 'waivers.json'));
    for (const [name, extra, env] of [
      ['flag', ['--waivers', file], {}],
      ['env', [], { DBSI_WAIVERS: file }],
    ] as const) {
      const r = await judge(name, true, [...extra], env);
      expect(r.code, r.out).toBe(0);
      expect(r.summary.facts.verdict).toBe('conformant with waived deviations');
      expect(r.summary.waivers?.waivers.map((w) => [w.requirement, w.state])).toEqual([[BROKEN, 'applied']]);
      expect(r.out).toMatch(/in what the traffic shows/);
    }
  });

  test('--compare shows what a capture fixed against an earlier run', async () => {
    const before = await judge('before', true, []);
    const after = await judge('after', false, ['--compare', join(before.reports, 'conformance-summary.json')]);
    expect(after.code, after.out).toBe(0);
    expect(after.summary.comparison?.fixed).toContain(BROKEN);
  });
});
