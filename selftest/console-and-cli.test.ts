import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { startReferenceTarget } from '../reference-target/server';
import { OPTIONS_TEXT } from '../harness/run/args';
import { FEATURES_BY_AREA } from '../suites';
import { runMain, ROOT, type MainOptions } from './_main';
import { startMisbehavingServer } from './_misbehaving-server';
import { joined } from './_regex';

/**
 * The command line and console a user of vitest, Schemathesis or Newman expects, each through the
 * CLI's main() in-process (as bin/conformance.ts calls it): --help as documented, --version, --list,
 * selection and exclusion, --bail, progress while the run is on, failure lines, and a headline that
 * says what was tested.
 */

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

/** The machine is shared: every run gets a generous bound (it proves "does not hang", not speed). */
const runCli = (args: string[], opts: MainOptions = {}) => runMain(args, { timeoutMs: 150_000, ...opts });
const LONG = 300_000;

/** A configured target (as a user writes the file) on the given base URL, with the reference target's data. */
function targetFile(dir: string, url: string, extra: Record<string, unknown> = {}): string {
  const file = join(dir, 'target.json');
  writeFileSync(
    file,
    JSON.stringify({
      name: 'console test target',
      baseUrl: `${url}/dbsi`,
      authBaseUrl: `${url}/identity`,
      transfersBaseUrl: `${url}/banking`,
      credentials: { ...REFERENCE_CREDENTIALS },
      testData: REFERENCE_TEST_DATA,
      ...extra,
    }),
  );
  return file;
}

/** The titles --list prints (the indented lines), without their requirement ids. */
const listedTitles = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('  '))
    .map((l) => l.trim().replace(/\s+\[[^\]]*\]$/, ''));

describe('options', { timeout: LONG }, () => {
  test('the option list of docs/options.md is exactly the --help option list', async () => {
    const readme = readFileSync(join(ROOT, 'docs', 'options.md'), 'utf8');
    const section = readme.slice(readme.indexOf('# Options'));
    const block = /```\n([\s\S]*?)\n```/.exec(section)![1];
    expect(block).toBe(OPTIONS_TEXT);
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(OPTIONS_TEXT);
  });

  test('--version prints the suite version and exits 0', async () => {
    const run = await runCli(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(`dbsi-conformance ${pkg.version}`);
  });

  test('--bail takes an optional whole number; anything else is a usage error', async () => {
    const run = await runCli(['--bail', 'x']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unexpected argument 'x'/i);
    const zero = await runCli(['--bail=0']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--bail takes a whole number');
  });
});

describe('--list and selection', { timeout: LONG }, () => {
  test(
    '--list prints the selected tests with their requirement ids ' + 'and sends nothing to a configured target',
    async () => {
      const server = await startMisbehavingServer('silent');
      try {
        const first = await runCli(['--version']);
        const run = await runCli(['--list', '--config', targetFile(first.reports, server.url)]);
        expect(run.code, run.stderr).toBe(0);
        const total = Object.values(FEATURES_BY_AREA)
          .flat()
          .reduce((n, f) => n + f.cases.length, 0);
        expect(listedTitles(run.stdout)).toHaveLength(total);
        expect(run.stdout).toContain(
          '  answers a JSON object holding the institutionDisclosures array  ' +
            '[CONV-JSON-BODIES MUST, CONV-JSON-MEDIA-TYPE MUST, OP1-RESPONSE-ENVELOPE MUST]',
        );
        expect(run.stdout).toContain(
          '9. Create a transfer (POST /db-transfers/v1/transfers, ' + 'needs allow.moneyMovement: off, skipped)',
        );
        expect(run.stdout).toContain(`${total} tests selected`);
        expect(server.received, 'nothing was sent').toEqual([]);
      } finally {
        await server.close();
      }
    },
  );

  test('no two tests share a title: a behaviour tested on several operations names its operation', async () => {
    const run = await runCli(['--list']);
    const titles = listedTitles(run.stdout);
    expect(new Set(titles).size).toBe(titles.length);
    expect(titles).toContain('List institution disclosures: is not served with an invalid bearer token');
    expect(titles).toContain('Delete a user disclosure: is not served without credentials');
  });

  test(
    '--grep matches the operation as the reports show it, its key, a ' +
      'title copied from a report, and requirement ids',
    async () => {
      const byName = listedTitles((await runCli(['--list', '--grep', 'List institution disclosures'])).stdout);
      const byKey = listedTitles((await runCli(['--list', '--grep', 'listInstitutionDisclosures'])).stdout);
      const op1 = FEATURES_BY_AREA.disclosures
        .find((f) => f.operation === 'listInstitutionDisclosures')!
        .cases.map((c) => c.title);
      expect(byName.sort()).toEqual([...op1].sort());
      expect(byKey.sort()).toEqual([...op1].sort());
      const one = await runCli([
        '--list',
        '--grep',
        'Change a user disclosure: answers 204 with no body ' + '(/{institutionUserDisclosureId} form)',
      ]);
      expect(listedTitles(one.stdout)).toEqual([
        'Change a user disclosure: answers 204 with no body ' + '(/{institutionUserDisclosureId} form)',
      ]);
      expect(one.stdout).toContain('1 test selected');
      const byId = listedTitles((await runCli(['--list', '--grep', 'OP9-'])).stdout);
      expect(byId.length).toBeGreaterThan(0);
    },
  );

  test(
    '--exclude-tag and --exclude-grep leave tests out; a ' + 'selection that leaves nothing is a usage error',
    async () => {
      const all = listedTitles((await runCli(['--list', '--area', 'disclosures'])).stdout);
      const noAuth = listedTitles(
        (await runCli(['--list', '--area', 'disclosures', '--exclude-tag', 'DISC-AUTH-REQUIRED'])).stdout,
      );
      // Five per operation of the 7 (none, made up, three near variants), and five more for the
      // /{institutionUserDisclosureId} forms of 6 and 7.
      expect(noAuth.length).toBe(all.length - 45);
      expect(noAuth.some((t) => /is not served/.test(t))).toBe(false);
      const noOp1 = listedTitles(
        (await runCli(['--list', '--area', 'disclosures', '--exclude-grep', '^1\\. List institution'])).stdout,
      );
      expect(noOp1.length).toBe(all.length - FEATURES_BY_AREA.disclosures[0]!.cases.length);
      const none = await runCli(['--area', 'disclosures', '--exclude-tag', 'disclosures']);
      expect(none.code).toBe(2);
      expect(none.stderr).toContain('no test matches the selection');
    },
  );
});

describe.concurrent('a run', { timeout: LONG }, () => {
  test(
    '--bail 1 stops after the first failed test: exit 1, one ' + 'failure, the rest not run, clean-ups done',
    async () => {
      const target = await startReferenceTarget({ faults: ['disc-accepts-any-bearer-token'], latencyMs: 30 });
      const records = () => [...target.state.userDisclosures.keys()].sort();
      const before = records();
      try {
        const first = await runCli(['--version']);
        const cfg = targetFile(first.reports, target.urls.baseUrl.replace(/\/dbsi$/, ''), {
          allow: { institutionDisclosureWrites: true },
        });
        const run = await runCli(['--config', cfg, '--area', 'disclosures', '--bail', '--concurrency', '1']);
        expect(run.code, run.stdout + run.stderr).toBe(1);
        expect(run.stderr).toContain('--bail 1: 1 test failed; stopping the run (clean-ups still run)');
        const summary = JSON.parse(readFileSync(join(run.reports, 'conformance-summary.json'), 'utf8'));
        const outcomes = summary.cases.map((c: { outcome: string }) => c.outcome);
        // The tests whose answers arrived before the cancel reached the worker may finish with a failure too (how many
        // depends on the machine's speed); without --bail, 36 of them fail on this fault (9 forms × 4 refusals).
        expect(outcomes.filter((o: string) => o === 'failed').length).toBeGreaterThanOrEqual(1);
        expect(outcomes.filter((o: string) => o === 'failed').length).toBeLessThan(12);
        // Never started, or stopped on its way (which of the two depends on when the cancel reaches the worker).
        const stopped = /not run( to the end)?, --bail 1 stopped the run/;
        expect(
          summary.cases.some((c: { reason?: string }) => stopped.test(c.reason ?? '')),
          JSON.stringify(outcomes),
        ).toBe(true);
        expect(records(), 'the user disclosure records the run created were deleted').toEqual(before);
      } finally {
        await target.close();
      }
    },
  );

  test(
    'a failure line names the requirement, the operation and the spec ' +
      'section, and cuts the received body at a token',
    async () => {
      const run = await runCli([
        '--area',
        'disclosures',
        '--fault',
        'disc-accepts-any-bearer-token',
        '--grep',
        'List institution disclosures: is not ' + 'served with an invalid',
      ]);
      expect(run.code).toBe(1);
      const line = run.stdout.split('\n').find((l) => l.startsWith('  ✗'))!;
      expect(line).toContain(
        '✗ DISC-AUTH-REQUIRED [MUST] disclosures › 1. List institution disclosures › List institution ' +
          'disclosures: is not served with an invalid bearer token (spec section "Authentication")',
      );
      // The body is cut after a complete token: a value, a comma or a bracket, never inside a string.
      expect(line).toMatch(/received status 200, body \{.*[,{[\]}"\d]… \(\d+ bytes\)$/);
      expect(line).not.toMatch(/":… \(/);
      expect(run.stdout).toContain('— 1 test in');
      // The summary's requirement table cuts its notes at a token boundary too.
      const row = readFileSync(join(run.reports, 'conformance-summary.md'), 'utf8')
        .split('\n')
        .find((l) => l.startsWith('| DISC-AUTH-REQUIRED |'))!;
      expect(row).toMatch(/[,{[\]}"\d]… \|$|\) \|$/);
      expect(row).not.toMatch(/":… \|$/);
    },
  );

  // Piped, a run waiting on a target that does not answer is never silent: console-piped.test.ts
  // (it waits out a request timeout: a file of its own runs beside this one).

  test(
    '--quiet prints no banner and no progress, only the summary; JUnit ' +
      'classnames have no dots; spec links point at the local spec',
    async () => {
      const run = await runCli(['--area', 'authentication', '--quiet'], { env: { DBSI_SPEC_URL: '' } });
      expect(run.code).toBe(0);
      expect(run.stdout).not.toContain('base URLs');
      expect(run.stdout).not.toMatch(/^[✓!?↷-] /m);
      expect(run.stdout).toContain('Verdict: conformant (exit 0)');
      const classnames = [...readFileSync(join(run.reports, 'junit.xml'), 'utf8').matchAll(/classname="([^"]*)"/g)].map(
        (m) => m[1],
      );
      expect(classnames.length).toBeGreaterThan(0);
      expect(
        classnames.filter((c) => c!.includes('.')),
        'JUnit classnames without dots (Jenkins ' + 'splits them into packages)',
      ).toEqual([]);
      expect(classnames).toContain('authentication › 8 Revoke a token');
      // Without DBSI_SPEC_URL the spec links point at the spec file of this checkout (it exists), not at an unchecked
      // web
      // address.
      const specUrl = JSON.parse(readFileSync(join(run.reports, 'conformance-summary.json'), 'utf8')).facts.spec
        .url as string;
      expect(specUrl).toMatch(/^file:\/\//);
      expect(existsSync(fileURLToPath(specUrl))).toBe(true);
    },
  );

  test(
    'with every allow switch off the headline says what was not ' + 'tested, exit 5, and summary.json says so',
    async () => {
      const target = await startReferenceTarget();
      try {
        const first = await runCli(['--version']);
        const run = await runCli(['--config', targetFile(first.reports, target.urls.baseUrl.replace(/\/dbsi$/, ''))]);
        expect(run.code, run.stdout + run.stderr).toBe(5);
        expect(run.stdout).toContain(
          'Verdict: conformant in the areas tested (1 of 4); not tested: authentication ' +
            '(allow.tokenRevocation off); money movement (allow.moneyMovement off); contact info ' +
            '(allow.contactUpdate off); no verdict on operation 2. Create an institution disclosure, 3. Change an ' +
            'institution disclosure (allow.institutionDisclosureWrites off) (exit 5)',
        );
        const summary = JSON.parse(readFileSync(join(run.reports, 'conformance-summary.json'), 'utf8'));
        expect(summary.facts.verdict).toBe('conformant in the areas tested');
        expect(summary.facts.coverage.tested).toEqual(['disclosures']);
        expect(summary.facts.coverage.notTested.map((n: { area: string }) => n.area)).toEqual([
          'authentication',
          'money-movement',
          'contact-info',
        ]);
        expect(readFileSync(join(run.reports, 'conformance-summary.md'), 'utf8')).toContain(
          '**conformant in the areas tested (1 of ' + '4); not tested:',
        );
      } finally {
        await target.close();
      }
    },
  );

  test('the HTML report shows the verdict first, and its tree counts each test once (one story per test)', async () => {
    const run = await runCli(['--area', 'disclosures', '--fault', 'op1-envelope-renamed', '--html', '--quiet']);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const html = readFileSync(join(run.reports, 'conformance-report.html'), 'utf8');
    const banner = html.indexOf('id="dbsi-verdict"');
    expect(banner).toBeGreaterThan(html.indexOf('<body'));
    expect(banner, 'the verdict comes before the Allure app').toBeLessThan(html.indexOf('id="app"'));
    expect(html.slice(banner, banner + 1200)).toMatch(/Verdict: non-conformant(;[^<]*)? <span/);
    // Contract coverage (issue 23) right under the verdict, before the app.
    const coverage = html.indexOf('<details id="dbsi-contract-coverage"');
    expect(coverage).toBeGreaterThan(banner);
    expect(coverage).toBeLessThan(html.indexOf('id="app"'));
    expect(html.slice(coverage, coverage + 600)).toMatch(
      /Contract coverage: \d+ of \d+ testable element sides exercised/,
    );
    const results = readdirSync(join(run.reports, 'allure-results')).filter((f) => f.endsWith('-result.json'));
    const stories = results.map(
      (f) =>
        (
          JSON.parse(readFileSync(join(run.reports, 'allure-results', f), 'utf8')) as {
            labels: Array<{ name: string }>;
          }
        ).labels.filter((l) => l.name === 'story').length,
    );
    expect(stories.length).toBe(FEATURES_BY_AREA.disclosures.reduce((n, f) => n + f.cases.length, 0));
    expect(new Set(stories)).toEqual(new Set([1]));
  });

  test('a closed port: "nothing was verified" gives the real reason (could not test), not "skipped"', async () => {
    const server = await startMisbehavingServer('silent');
    const url = server.url;
    await server.close();
    const first = await runCli(['--version']);
    const run = await runCli([
      '--config',
      targetFile(first.reports, url, { http: { timeoutMs: 1000 } }),
      '--area',
      'disclosures',
    ]);
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(
      joined(
        '',
        /Nothing was verified \(\d+ could not test, \d+ skipped: not allowed on this target \(a switch off, /,
        /or data not confirmed\)\), so there is no verdict\./,
      ),
    );
  });
});
