import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { caseId } from '../harness/case';
import { buildSummary } from '../harness/evidence/summary';
import { requirementRows } from '../harness/run/results';
import { main } from '../harness/run/main';
import { validator } from '../harness/schemas';
import { FEATURES_BY_AREA } from '../suites';
import type { AllureResult } from '../harness/evidence/allure-writer';
import { runCli } from './_cli';
import { untarGz } from './_artifacts';
import { runAreas } from './_reference';

/**
 * --waivers and --compare through the main command, against the embedded reference target with a named
 * fault on (two runs as a user runs them), and the input the main command refuses before it starts.
 */
const FAULT = 'op1-envelope-renamed';
const BROKEN = 'OP1-RESPONSE-ENVELOPE';
const PASSING = 'OP1-REQUEST';
const SELECT = ['--area', 'disclosures', '--grep', 'listInstitutionDisclosures', '--seed', '7', '--fault', FAULT];
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

const dir = mkdtempSync(join(tmpdir(), 'dbsi-waivers-cli-'));
const write = (name: string, content: unknown) => {
  const f = join(dir, name);
  writeFileSync(f, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return f;
};
const waiver = (requirement: string, expires: string) => ({
  requirement,
  reason: 'accepted until 4.2',
  reference: 'CHG-9',
  expires,
});

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) }, out, err };
}

/** A clean run's summary (the faultless reference target), as the earlier night to compare with. */
let cleanSummary: string;
beforeAll(async () => {
  const { cases } = await runAreas({ areas: ['disclosures'] });
  const declared = new Map<string, string[]>();
  for (const f of FEATURES_BY_AREA.disclosures) {
    for (const c of f.cases) {
      for (const r of c.requirements) declared.set(r, [...(declared.get(r) ?? []), caseId(f, c)]);
    }
  }
  const url = 'http://127.0.0.1:1/';
  const summary = buildSummary(
    {
      target: { name: 'reference', baseUrl: url, authBaseUrl: url, transfersBaseUrl: url, embedded: true, faults: [] },
      suiteVersion: '0.1.0',
      spec: { file: 'spec.md', sha256: '0'.repeat(64) },
      seed: 7,
      strict: false,
      areas: ['disclosures'],
      filter: {},
      startedAt: '2026-11-22T02:17:00.000Z',
      durationMs: 1,
      node: process.version,
      exitCode: 0,
      verdict: 'conformant',
      problems: [],
    },
    cases,
    requirementRows(cases, declared, false),
  );
  cleanSummary = write('previous-summary.json', summary);
});

describe('input refused before anything starts (exit 2, one message)', () => {
  test('a waivers file that is not valid, names an unknown requirement, or an unreadable --compare', async () => {
    const cases = [
      [['--waivers', write('bad.json', '{"waivers": [}')], {}, /--waivers\) is not valid JSON/],
      [
        [],
        { DBSI_WAIVERS: write('unknown.json', { waivers: [waiver('OP42-NOPE', day(9))] }) },
        /DBSI_WAIVERS\) names a requirement the catalog does not hold: OP42-NOPE/,
      ],
      [
        ['--waivers', write('no-date.json', { waivers: [{ requirement: BROKEN, reason: 'r', reference: 'x' }] })],
        {},
        /missing member expires/,
      ],
      [['--compare', join(dir, 'nothing')], {}, /--compare: .*nothing does not exist/],
      [['--compare', write('not-a-summary.json', { hello: 1 })], {}, /is not a conformance summary/],
    ] as const;
    for (const [args, env, message] of cases) {
      const c = capture();
      const code = await main([...args, '--reports', dir], { ...env }, c.io);
      expect(code, c.err.join('\n')).toBe(2);
      expect(c.err.length).toBe(1);
      expect(c.err[0]).toMatch(message);
    }
  });
});

describe.concurrent('a run with waivers', { timeout: 300_000 }, () => {
  test('the fault\'s requirement waived: exit 0, listed first, "conformant with 1 waived deviation"', async () => {
    const file = write('live.json', { waivers: [waiver(BROKEN, day(30))] });
    // --bail: a waived failure does not count, the run goes on to the end.
    const run = await runCli([...SELECT, '--waivers', file, '--bundle', '--quiet', '--bail'], { timeoutMs: 280_000 });
    const all = run.stdout + run.stderr;
    expect(run.code, all).toBe(0);
    expect(run.stderr).not.toContain('--bail');
    const lines = run.stdout.split('\n').filter(Boolean);
    expect(lines[0]).toMatch(/^Waived deviations \(1; accepted by agreement, NOT passes/);
    expect(lines[1]).toContain(`${BROKEN} waived by CHG-9 (expires ${day(30)}): accepted until 4.2`);
    expect(run.stdout).toMatch(/Verdict: conformant with 1 waived deviation \(exit 0\)/);
    const summary = JSON.parse(readFileSync(join(run.reports, 'conformance-summary.json'), 'utf8'));
    const validate = validator('conformance-summary');
    expect(validate(summary), JSON.stringify(validate.errors)).toBe(true);
    expect(summary.facts.verdict).toBe('conformant with waived deviations');
    expect(summary.requirements.find((r: { id: string }) => r.id === BROKEN).verdict).toBe('waived');
    expect(summary.cases.some((c: { outcome: string }) => c.outcome === 'passed')).toBe(true);
    const md = readFileSync(join(run.reports, 'conformance-summary.md'), 'utf8');
    expect(md.split('\n')[0]).toBe('# DBSI conformance summary: CONFORMANT WITH WAIVED DEVIATIONS');
    expect(md.indexOf('## Waived deviations: 1')).toBeLessThan(md.indexOf('## Requirements'));
    const junit = readFileSync(join(run.reports, 'junit.xml'), 'utf8');
    expect(junit.indexOf('type="waived"')).toBeLessThan(junit.indexOf('<property name="outcome" value="passed"/>'));
    const html = readFileSync(join(run.reports, 'conformance-report.html'), 'utf8');
    expect(html).toMatch(/id="dbsi-verdict"[^>]*>Verdict: conformant with 1 waived deviation[\s\S]{0,400}dbsi-waived/);
    const results = join(run.reports, 'allure-results');
    const allure = readdirSync(results)
      .filter((f) => f.endsWith('-result.json'))
      .map((f) => JSON.parse(readFileSync(join(results, f), 'utf8')) as AllureResult);
    const waivedResult = allure.find((r) => r.statusDetails?.message?.startsWith('WAIVED deviation'));
    expect(waivedResult?.status, 'a waived test stays failed in Allure, never passed').toBe('failed');
    const bundle = readdirSync(run.reports).find((f) => f.endsWith('.tar.gz'))!;
    const entries = untarGz(join(run.reports, bundle));
    const packed = entries.find((e) => e.name === 'waivers.json');
    expect(packed?.data.equals(readFileSync(file))).toBe(true);
    const sha = createHash('sha256').update(readFileSync(file)).digest('hex');
    expect(entries.find((e) => e.name === 'SHA256SUMS')?.data.toString()).toContain(`${sha}  waivers.json`);
    expect(summary.waivers.sha256).toBe(sha);
  });

  test('expired yesterday: exit 1, says it expired and when; against a clean night: newly failed', async () => {
    const file = write('expired.json', { waivers: [waiver(BROKEN, day(-1)), waiver(PASSING, day(10))] });
    const args = [...SELECT, '--waivers', file, '--compare', cleanSummary, '--strict', '--quiet'];
    const run = await runCli(args, { timeoutMs: 280_000 });
    const all = run.stdout + run.stderr;
    expect(run.code, all).toBe(1);
    expect(run.stdout).toContain(`EXPIRED: waiver CHG-9 for ${BROKEN} expired on ${day(-1)}: ignored`);
    expect(run.stdout).toContain(`FAILURE (--strict): waiver no longer needed: ${PASSING} passed (CHG-9)`);
    const block = run.stdout.slice(run.stdout.indexOf('Compared with the run of 2026-11-22T02:17:00.000Z'));
    expect(block).toMatch(new RegExp(`^ {2}newly failed: ${BROKEN}$`, 'm'));
    expect(block).toMatch(new RegExp(`waivers expiring within 14 days: ${PASSING} \\(CHG-9, ${day(10)}\\)`));
    expect(block.indexOf('newly failed')).toBeLessThan(block.indexOf('Verdict: non-conformant'));
    const summary = JSON.parse(readFileSync(join(run.reports, 'conformance-summary.json'), 'utf8'));
    expect(summary.comparison.newlyFailed).toEqual([BROKEN]);
    expect(summary.waivers.waivers.map((w: { state: string }) => w.state)).toEqual(['expired', 'no-longer-needed']);
    const md = readFileSync(join(run.reports, 'conformance-summary.md'), 'utf8');
    expect(md).toContain('## Compared with an earlier run');
  });
});
