import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { resolveConfig, type TargetConfig } from '../harness/config';
import { Redactor } from '../harness/redact';
import { main } from '../harness/run/main';
import { connectRefusal, originsOf, preflight } from '../harness/run/reachability';
import { EXIT } from '../harness/run/results';
import { AREAS } from '../harness/model';
import { FEATURES_BY_AREA } from '../suites';
import { configFor } from './_misbehaving-server';
import { closedPort } from './_closed-port';

/**
 * Issue 20: against a target nobody listens on, the run says so in one line naming the URL, within
 * seconds, with every selected test "could not test" (the key to check named), exit 3, nothing
 * passed and nothing claimed left on the target. A target with one origin up runs as before.
 */

const ALL_ALLOWED = {
  moneyMovement: true,
  contactUpdate: true,
  tokenRevocation: true,
  institutionDisclosureWrites: true,
};

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

/** A port that accepts connections (and says nothing). */
async function openPort(): Promise<number> {
  const s = createServer((c) => c.on('error', () => undefined));
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as { port: number }).port;
}

type Urls = { baseUrl: string; authBaseUrl: string; transfersBaseUrl: string };
const raw = (urls: Urls, http: Record<string, unknown> = {}) => ({
  ...configFor('http://127.0.0.1:1', { timeoutMs: 10_000, ...http }),
  ...urls,
  allow: ALL_ALLOWED,
});
const configOf = (r: ReturnType<typeof raw>): TargetConfig => resolveConfig(r, {});
const at = (port: number) => `http://127.0.0.1:${port}`;
const sameOrigin = (o: string): Urls => ({
  baseUrl: `${o}/dbsi`,
  authBaseUrl: `${o}/identity`,
  transfersBaseUrl: `${o}/banking`,
});
const none = new Redactor([]);

interface Summary {
  facts: { exitCode: number; verdict: string };
  leftovers: unknown[];
  cases: Array<{ id: string; outcome: string; reason?: string; exchanges: number }>;
  requirements: Array<{ id: string; verdict: string }>;
}

/** The main command, in-process, against a written configuration; its exit code, lines and summary. */
async function runMain(config: unknown, extra: string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), 'dbsi-reach-'));
  writeFileSync(join(dir, 'target.json'), JSON.stringify(config));
  const out: string[] = [];
  const err: string[] = [];
  const args = ['--config', join(dir, 'target.json'), '--reports', join(dir, 'reports'), '--quiet', ...extra];
  const code = await main(args, {}, { out: (l) => out.push(l), err: (l) => err.push(l) });
  const summary = JSON.parse(readFileSync(join(dir, 'reports', 'conformance-summary.json'), 'utf8')) as Summary;
  const junit = readFileSync(join(dir, 'reports', 'junit.xml'), 'utf8');
  const allure = readdirSync(join(dir, 'reports', 'allure-results')).filter((n) => n.endsWith('-result.json'));
  return { code, out: out.join('\n'), err: err.join('\n'), summary, junit, allure };
}

const declared = AREAS.reduce((n, a) => n + FEATURES_BY_AREA[a].reduce((m, f) => m + f.cases.length, 0), 0);

describe('a target nobody listens on', () => {
  test('exit 3 (never 1), one line naming the URL, every test could not test, nothing sent, nothing left', async () => {
    const port = await closedPort();
    const run = await runMain(raw(sameOrigin(at(port))));
    expect(run.code, `${run.out}\n${run.err}`).toBe(EXIT.COULD_NOT_TEST);
    const line = run.err.split('\n').filter((l) => l.includes(at(port)));
    expect(line).toHaveLength(1);
    expect(line[0]).toMatch(/no connection to .*ECONNREFUSED.*nothing was sent/);
    expect(run.summary.facts.verdict).toBe('could not test');
    expect(run.summary.cases).toHaveLength(declared);
    for (const c of run.summary.cases) {
      expect(c.outcome, c.id).toBe('could-not-test');
      expect(c.reason, c.id).toContain(`no connection to ${at(port)}`);
      // The runner was not started: no test attempted a request.
      expect(c.exchanges, c.id).toBe(0);
    }
    expect(run.summary.requirements.filter((r) => r.verdict === 'passed')).toEqual([]);
    expect(run.summary.leftovers).toEqual([]);
    expect(run.out).not.toMatch(/LEFT ON THE TARGET|Restore by hand/);
    expect((run.junit.match(/<testcase /g) ?? []).length).toBe(declared);
    // The HTML report shows them too: an Allure result per test, though the runner never started.
    expect(run.allure).toHaveLength(declared);
  });

  test('two origins, both refused: the line names both; one area selected: only its origin counts', async () => {
    const [a, b] = [await closedPort(), await closedPort()];
    const urls = { baseUrl: `${at(a)}/dbsi`, authBaseUrl: `${at(b)}/identity`, transfersBaseUrl: `${at(b)}/banking` };
    const run = await runMain(raw(urls), ['--area', 'contact-info']);
    expect(run.code).toBe(EXIT.COULD_NOT_TEST);
    expect(run.err).toContain(`${at(a)} (baseUrl: ECONNREFUSED)`);
    // contact-info sends to baseUrl only.
    expect(run.err).not.toContain(at(b));
    expect(run.summary.cases.every((c) => c.id.startsWith('contact-info/') && c.exchanges === 0)).toBe(true);
  });
});

describe('the preflight', () => {
  test('a refusal that came while the process was starved past the bound is read, not a timeout', async () => {
    // A busy machine: the refusal is received while this thread cannot run, and the bound's timer is due as well
    // when it runs again (the stress mode, once: the preflight concluded nothing, and the run went on).
    const port = await closedPort();
    const answer = connectRefusal('127.0.0.1', port, 20);
    await new Promise((r) => setImmediate(r)); // the connection is attempted
    const until = Date.now() + 200;
    while (Date.now() < until); // starved: no event is handled meanwhile
    expect(await answer).toBe('ECONNREFUSED');
  });

  test('every selected test names the key of its base URL (setup), a name that does not resolve counts', async () => {
    const port = await closedPort();
    const nowhere = 'https://dbsi-nowhere.invalid/identity';
    const urls = { baseUrl: `${at(port)}/dbsi`, authBaseUrl: nowhere, transfersBaseUrl: `${at(port)}/x` };
    const found = await preflight(configOf(raw(urls)), AREAS, {}, none);
    expect(found?.origins.map((o) => `${o.url} ${o.keys.join('+')} ${o.code}`).sort()).toEqual([
      `${at(port)} baseUrl+transfersBaseUrl ECONNREFUSED`,
      'https://dbsi-nowhere.invalid authBaseUrl ENOTFOUND',
    ]);
    const keys = new Map(found!.cases.map((c) => [c.area, c.setup?.key]));
    expect(Object.fromEntries(keys)).toEqual({
      disclosures: 'baseUrl',
      'contact-info': 'baseUrl',
      authentication: 'authBaseUrl',
      'money-movement': 'transfersBaseUrl',
    });
    const auth = found!.cases.find((c) => c.area === 'authentication')!;
    expect(auth.setup?.problem).toMatch(/dbsi-nowhere\.invalid.*does not resolve \(ENOTFOUND\)/);
  });

  test('one origin up: the run goes on as before (no preflight verdict)', async () => {
    const [up, down] = [await openPort(), await closedPort()];
    const urls = { baseUrl: `${at(up)}/dbsi`, authBaseUrl: `${at(down)}/identity`, transfersBaseUrl: `${at(down)}/x` };
    expect(await preflight(configOf(raw(urls)), AREAS, {}, none)).toBeUndefined();
    // The areas that use only the closed origin are stopped.
    expect((await preflight(configOf(raw(urls)), ['authentication'], {}, none))?.cases.length).toBeGreaterThan(0);
  });

  test('with http.proxyUrl, the proxy is the one origin connected to', async () => {
    const [proxy, target] = [await closedPort(), await openPort()];
    const config = configOf(raw(sameOrigin(at(target)), { proxyUrl: at(proxy) }));
    expect(originsOf(config, AREAS).map((o) => `${o.url} ${o.keys.join('+')}`)).toEqual([`${at(proxy)} http.proxyUrl`]);
    const found = await preflight(config, AREAS, {}, none);
    expect(new Set(found?.cases.map((c) => c.setup?.key))).toEqual(new Set(['http.proxyUrl']));
  });
});
