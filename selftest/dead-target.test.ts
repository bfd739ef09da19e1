import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { EXIT } from '../harness/run/results';
import { FEATURES_BY_AREA } from '../suites';
import { configFor, startMisbehavingServer, type Custom, type MisbehavingServer } from './_misbehaving-server';
import { runCli } from './_spawn-cli';

/**
 * A target that stops answering (hangs, answers only after the request timeout, or trickles its
 * answer a byte every 200 ms) is noticed: at http.timeoutMs 10000 the main job ends with exit 3
 * long before every request could time out, with every test given a verdict, the clean-ups tried, and the reports
 * written.
 * Every change is allowed, so clean-ups have something to do.
 */
const ALLOW_ALL = {
  moneyMovement: true,
  contactUpdate: true,
  tokenRevocation: true,
  institutionDisclosureWrites: true,
};
const servers: MisbehavingServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const dribble: Custom = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
  const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write(' ')), 200);
  t.unref();
};

describe('a target that stops answering, at http.timeoutMs 10000', () => {
  const declared = Object.values(FEATURES_BY_AREA).reduce((n, fs) => n + fs.reduce((m, f) => m + f.cases.length, 0), 0);

  test(
    'hangs, answers after 15 s, or a byte every 200 ms: each run ends with exit 3 ' +
      'within a bound, reports written, every test given a verdict',
    async () => {
      const targets = await Promise.all([
        startMisbehavingServer('silent', { lifetimeMs: 60_000 }),
        startMisbehavingServer('slow', { delayMs: 15_000, lifetimeMs: 60_000 }),
        startMisbehavingServer(dribble, { lifetimeMs: 60_000 }),
      ]);
      servers.push(...targets);
      // The three runs side by side: each is bounded on its own, and the test takes one bound, not three.
      const runs = await Promise.all(
        targets.map((s) =>
          runCli(['--quiet'], {
            raw: { ...configFor(s.url, { timeoutMs: 10_000 }), allow: ALLOW_ALL },
            killAfterMs: 45_000,
          }),
        ),
      );
      for (const [i, run] of runs.entries()) {
        const name = ['hangs', 'answers after 15 s', 'a byte every 200 ms'][i];
        expect(run.code, `${name}\n${run.stdout}\n${run.stderr}`).toBe(EXIT.COULD_NOT_TEST);
        // Measured: about 25 s each, three side by side on a loaded 2-core machine (docs/benchmarks.md); the
        // bound here only proves that the run does not wait out every request (it used to take 142 s):
        // a run still going after 45 s is killed.
        expect(run.killed, `${name}: killed after 45 s`).toBe(false);
        const summary = JSON.parse(readFileSync(join(run.reportsDir, 'conformance-summary.json'), 'utf8')) as {
          cases: Array<{ outcome: string; reason?: string }>;
          leftovers: Array<{ what: string; restore: string }>;
        };
        expect(summary.cases, name).toHaveLength(declared);
        expect(
          // Skipped before anything is sent: the country-code test, whose statement (countryCodeConfirmed) the
          // configuration does not make (session 41).
          summary.cases.filter(
            (c) =>
              c.outcome !== 'could-not-test' &&
              c.outcome !== 'not-applicable' &&
              !(c.outcome === 'not-allowed' && /countryCodeConfirmed/.test(c.reason ?? '')),
          ),
          name,
        ).toEqual([]);
        expect(
          summary.cases.some((c) => /the target stopped answering/.test(c.reason ?? '')),
          name,
        ).toBe(true);
        expect((readFileSync(join(run.reportsDir, 'junit.xml'), 'utf8').match(/<testcase /g) ?? []).length, name).toBe(
          declared,
        );
        // Updates that timed out may have landed: what could not be set back is listed, on the console too.
        for (const l of summary.leftovers) expect(run.stdout).toContain(l.what);
        if (summary.leftovers.length) expect(run.stdout).toMatch(/LEFT ON THE TARGET/);
      }
    },
  );
});
