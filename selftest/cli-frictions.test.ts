import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { SECRET_ENV } from '../harness/config';
import { junitXml } from '../harness/evidence/junit';
import type { CaseReport } from '../harness/model';
import { parseCli, UsageError } from '../harness/run/args';
import { colourWanted, paintVerdict } from '../harness/run/colour';
import { main, type Io } from '../harness/run/main';
import { nearest } from '../harness/run/suggest';
import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { startReferenceTarget } from '../reference-target/server';
import { ROOT } from './_cli';
import { runMain } from './_main';

/** Issue 34's small frictions: each with its check. */

const usageError = (argv: string[]) => {
  try {
    parseCli(argv);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error(`expected ${argv.join(' ')} to be refused`);
};

describe('an unknown option suggests the nearest one', () => {
  test.each([
    ['--grpe', '--grep'],
    ['--gerp', '--grep'],
    ['--bundel', '--bundle'],
    ['--exclude-gerp', '--exclude-grep'],
    ['--concurency', '--concurrency'],
    ['--waiver', '--waivers'],
    ['--dryrun', '--dry-run'],
  ])('%s: did you mean %s?', (typed, meant) => {
    expect(usageError([typed, 'x'])).toBe(`unknown option ${typed}: did you mean ${meant}? (--help lists the options)`);
  });

  test('one too far from every option is named alone', () => {
    expect(usageError(['--frobnicate'])).toBe('unknown option --frobnicate (--help lists the options)');
    expect(usageError(['-x'])).toBe('unknown option -x (--help lists the options)');
    expect(nearest('--zz', ['--grep', '--tag'])).toBeUndefined();
  });

  test('the main command: exit 2, one message with the suggestion, then the usage', async () => {
    const run = await runMain(['--grpe', 'OP1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^dbsi-conformance: unknown option --grpe: did you mean --grep\?/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

/** Every DBSI_* variable the sources read (a shell placeholder such as $DBSI_AUTHORIZATION in a curl line is not). */
function variablesRead(): string[] {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts'))
        for (const m of readFileSync(p, 'utf8').matchAll(/(?<![$\w])DBSI_[A-Z_]+\b/g)) names.add(m[0]);
    }
  };
  for (const d of ['harness', 'bin']) walk(join(ROOT, d));
  return [...names].sort();
}

describe('--help lists the DBSI_* variables', () => {
  test('every variable the sources read, with the key or option it stands for', async () => {
    const run = await runMain(['--help']);
    expect(run.code).toBe(0);
    const read = variablesRead();
    expect(read).toEqual(expect.arrayContaining(['DBSI_CONFIG', 'DBSI_WAIVERS', ...Object.keys(SECRET_ENV)]));
    for (const name of read) expect(run.stdout, name).toMatch(new RegExp(`^ {2}${name} +\\S`, 'm'));
    for (const [name, key] of Object.entries(SECRET_ENV)) expect(run.stdout).toMatch(new RegExp(`${name} +${key}`));
  });
});

describe('exit 5 is not green in JUnit', () => {
  const notAllowed = (area: string): CaseReport =>
    ({
      id: `${area}/x/y`,
      area,
      operation: 'x',
      title: 'y',
      outcome: 'not-allowed',
      reason: 'not allowed on this target (allow.moneyMovement off)',
      requirements: [],
      checks: [],
      exchanges: [],
      durationMs: 0,
    }) as unknown as CaseReport;

  test('an area selected but not tested is a testcase in error', () => {
    const xml = junitXml(
      [notAllowed('money-movement')],
      'run',
      [],
      [{ area: 'money-movement', reason: 'allow.moneyMovement off' }],
    );
    expect(xml).toMatch(/<testsuites name="run" tests="2" failures="0" errors="1" skipped="1">/);
    expect(xml).toMatch(/<testsuite name="money-movement" tests="2" failures="0" errors="1" skipped="1"/);
    expect(xml).toContain(
      '<error message="selected but not tested: allow.moneyMovement off; nothing in this area was verified ' +
        '(exit 5 when the rest passed)" type="not-tested"/>',
    );
    expect(junitXml([notAllowed('money-movement')], 'run')).toMatch(/errors="0"/);
    // An area whose tests could not be tested is red already: no extra test case.
    const couldNot = { ...notAllowed('money-movement'), outcome: 'could-not-test' } as CaseReport;
    const red = junitXml([couldNot], 'run', [], [{ area: 'money-movement', reason: 'could not test' }]);
    expect(red).toMatch(/<testsuites name="run" tests="1" failures="0" errors="1" skipped="0">/);
    expect(red).not.toContain('type="not-tested"');
  });

  test('a run with the money-movement switch off: exit 5, and its JUnit has an error for that area', async () => {
    const target = await startReferenceTarget();
    try {
      const url = target.urls.baseUrl.replace(/\/dbsi$/, '');
      const raw = {
        name: 'exit 5',
        baseUrl: `${url}/dbsi`,
        authBaseUrl: `${url}/identity`,
        transfersBaseUrl: `${url}/banking`,
        credentials: { ...REFERENCE_CREDENTIALS },
        testData: REFERENCE_TEST_DATA,
      };
      const run = await runMain(['--area', 'disclosures,money-movement'], { raw, timeoutMs: 120_000 });
      expect(run.code, run.stdout + run.stderr).toBe(5);
      const xml = readFileSync(join(run.reports, 'junit.xml'), 'utf8');
      expect(xml).toMatch(/<testsuites [^>]*errors="[1-9]/);
      expect(xml).toMatch(/type="not-tested"/);
    } finally {
      await target.close();
    }
  });
});

describe('the Reports: line names the JSON summary', () => {
  test('beside the Markdown summary, JUnit and the Allure results', async () => {
    const run = await runMain(['--area', 'disclosures', '--grep', 'OP1-REQUEST']);
    const line = run.stdout.split('\n').find((l) => l.startsWith('Reports: '));
    expect(line).toBe(
      `Reports: ${join(run.reports, 'conformance-summary.md')}, ${join(run.reports, 'conformance-summary.json')}, ` +
        `${join(run.reports, 'junit.xml')}, ${join(run.reports, 'allure-results')}/`,
    );
  });
});

describe('colour on a terminal, none when piped or with NO_COLOR', () => {
  test('wanted on a terminal only, without NO_COLOR and not on TERM=dumb', () => {
    expect(colourWanted(true, {})).toBe(true);
    expect(colourWanted(false, {})).toBe(false);
    expect(colourWanted(undefined, {})).toBe(false);
    expect(colourWanted(true, { NO_COLOR: '1' })).toBe(false);
    expect(colourWanted(true, { NO_COLOR: '' })).toBe(true); // no-color.org: set and not empty
    expect(colourWanted(true, { TERM: 'dumb' })).toBe(false);
    expect(paintVerdict('Verdict: conformant (exit 0)', 0, true)).toBe(
      '\u001b[1;32mVerdict: conformant (exit 0)\u001b[0m',
    );
    expect(paintVerdict('Verdict: non-conformant (exit 1)', 1, true)).toMatch(/^\u001b\[1;31m/);
    expect(paintVerdict('Verdict: conformant (exit 0)', 0, false)).toBe('Verdict: conformant (exit 0)');
  });

  const verdictLine = async (tty: boolean, env: NodeJS.ProcessEnv) => {
    let out = '';
    const io: Io = { out: (l) => (out += `${l}\n`), err: () => undefined, write: (t) => (out += t), tty };
    const reports = mkdtempSync(join(tmpdir(), 'dbsi-colour-'));
    const args = ['--reports', reports, '--quiet', '--area', 'disclosures', '--grep', 'OP1-REQUEST'];
    const code = await main(args, { ...process.env, DBSI_CONFIG: '', NO_COLOR: '', TERM: 'xterm', ...env }, io);
    expect(code).toBe(0);
    return out.split('\n').find((l) => l.includes('Verdict: '))!;
  };

  test('the main command colours its verdict line on a terminal, not when piped, not with NO_COLOR', async () => {
    expect(await verdictLine(true, {})).toMatch(/^\u001b\[1;32mVerdict: conformant .*\u001b\[0m$/);
    expect(await verdictLine(false, {})).toMatch(/^Verdict: conformant [^\u001b]*$/);
    expect(await verdictLine(true, { NO_COLOR: '1' })).toMatch(/^Verdict: conformant [^\u001b]*$/);
  });
});
