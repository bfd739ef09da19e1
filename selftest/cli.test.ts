import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runMain } from './_main';
import { closedPort } from './_closed-port';

const noStackTrace = (s: string) => expect(s).not.toMatch(/\n\s+at .+:\d+:\d+/);

function configFile(reports: string, body: unknown): string {
  const p = join(reports, 'target.json');
  writeFileSync(p, typeof body === 'string' ? body : JSON.stringify(body));
  return p;
}

describe.concurrent('the main command', () => {
  test(
    'against the embedded reference target: exit 0, Allure results, ' + 'JUnit and summary written, seed printed',
    async () => {
      const run = await runMain(['--area', 'disclosures', '--seed', '42']);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toContain('seed: 42');
      expect(readdirSync(join(run.reports, 'allure-results')).some((f) => f.endsWith('-result.json'))).toBe(true);
      expect(readFileSync(join(run.reports, 'junit.xml'), 'utf8')).toContain('<testcase');
      expect(JSON.parse(readFileSync(join(run.reports, 'conformance-summary.json'), 'utf8')).facts.seed).toBe(42);
    },
  );

  test('with a fault: exit 1 and the failure line names the broken requirement', async () => {
    const run = await runMain(['--area', 'disclosures', '--fault', 'op1-envelope-renamed']);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(/✗ OP1-RESPONSE-ENVELOPE \[MUST\]/);
  });

  test('a malformed config file: exit 2, one clear message, no stack trace', async () => {
    const run = await runMain(['--config', '/dev/null/nope.json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('cannot read the configuration file');
    const bad = await runMain(['--config', configFile(run.reports, '{"baseUrl": ')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/configuration error: the configuration file .* is not valid JSON/);
    noStackTrace(bad.stderr);
  });

  test('an unknown key or an invalid URL: exit 2, naming the key and what is expected', async () => {
    const first = await runMain(['--config', '/dev/null/x']);
    const run = await runMain([
      '--config',
      configFile(first.reports, {
        baseUrl: 'https://x.example',
        authBaseUrl: 'nope',
        transfersBaseUrl: 'https://x.example',
        retries: 2,
      }),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown key "retries"');
    expect(run.stderr).toContain('"authBaseUrl" must be an absolute http:// or https:// URL');
    noStackTrace(run.stderr);
  });

  test('a selection that matches no test: exit 2, not a verdict', async () => {
    const run = await runMain(['--grep', 'no-test-is-called-this', '--tag', 'MUST']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no test matches the selection');
  });

  test('an unknown option or area: exit 2 with the usage', async () => {
    const run = await runMain(['--area', 'payments']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown area "payments"');
    expect(run.stderr).toContain('Usage: npm run conformance');
  });

  test('a closed port: exit 3 (no verdict), every test "could not test", reports still written', async () => {
    const port = await closedPort();
    const first = await runMain(['--config', '/dev/null/x']);
    const base = `http://127.0.0.1:${port}`;
    const cfg = configFile(first.reports, {
      baseUrl: `${base}/api`,
      authBaseUrl: `${base}/id`,
      transfersBaseUrl: `${base}/xfer`,
      credentials: { bearerToken: 'closed-port-token-1' },
      testData: { institutionId: '1', institutionUserId: 'u', accountId: 'a' },
      http: { timeoutMs: 1000 },
    });
    const run = await runMain(['--config', cfg, '--area', 'disclosures']);
    expect(run.code, run.stdout + run.stderr).toBe(3);
    // The preflight (harness/run/reachability.ts) finds nothing listening before any test starts.
    expect(run.stdout).toContain('the connection was refused (ECONNREFUSED), so nothing was sent');
    noStackTrace(run.stdout + run.stderr);
    const summary = JSON.parse(readFileSync(join(run.reports, 'conformance-summary.json'), 'utf8'));
    expect(summary.facts.verdict).toBe('could not test');
    expect(summary.cases.length).toBeGreaterThan(0);
    // Every test has a verdict: could not test, or (for writes the config does not allow) skipped.
    const outcomes = new Set(summary.cases.map((c: { outcome: string }) => c.outcome));
    expect([...outcomes].sort()).toEqual(['could-not-test', 'not-allowed']);
    expect(existsSync(join(run.reports, 'junit.xml'))).toBe(true);
  });
});
