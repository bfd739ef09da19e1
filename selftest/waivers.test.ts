import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ConfigError } from '../harness/config';
import { caseId } from '../harness/case';
import type { CaseReport } from '../harness/model';
import { validator } from '../harness/schemas';
import { buildSummary, summaryMarkdown, type RunFacts } from '../harness/evidence/summary';
import { junitXml } from '../harness/evidence/junit';
import { verdictBanner } from '../harness/evidence/report';
import { reportVerdict } from '../harness/evidence/evidence';
import { UsageError } from '../harness/run/args';
import { compareRuns, loadPrevious } from '../harness/run/compare';
import { EXIT, exitCodeFor, requirementRows } from '../harness/run/results';
import { applyWaivers, loadWaivers, waiveCase, waivedHeadline, waiverBlock } from '../harness/run/waivers';
import { waiverExitCode } from '../harness/run/waivers';
import type { Waiver } from '../harness/run/waivers';
import { FEATURES_BY_AREA } from '../suites';
import { runAreas } from './_reference';

/**
 * Waivers (--waivers) and the comparison with an earlier run (--compare), as pure functions over the
 * cases of the disclosures area run in-process against the reference target with a named fault on.
 */
const FAULT = 'op1-envelope-renamed';
const BROKEN = 'OP1-RESPONSE-ENVELOPE';
const PASSING = 'OP1-REQUEST';
const NOW = new Date('2026-11-23T21:00:00Z');

const dir = mkdtempSync(join(tmpdir(), 'dbsi-waivers-'));
let n = 0;
function file(content: unknown): string {
  const f = join(dir, `w${++n}.json`);
  writeFileSync(f, typeof content === 'string' ? content : JSON.stringify(content));
  return f;
}
const waiver = (o: Partial<Waiver> = {}): Waiver => ({
  requirement: BROKEN,
  reason: 'the vendor fixes it in 4.2',
  reference: 'JIRA-17',
  expires: '2026-12-31',
  ...o,
});

const declared = new Map<string, string[]>();
for (const f of FEATURES_BY_AREA.disclosures) {
  for (const c of f.cases) for (const r of c.requirements) declared.set(r, [...(declared.get(r) ?? []), caseId(f, c)]);
}

let faulty: CaseReport[];
let clean: CaseReport[];
beforeAll(async () => {
  [faulty, clean] = await Promise.all([
    runAreas({ areas: ['disclosures'], faults: [FAULT] }).then((r) => r.cases),
    runAreas({ areas: ['disclosures'] }).then((r) => r.cases),
  ]);
});

function judge(cases: CaseReport[], waivers: Waiver[], strict = false) {
  const rows = requirementRows(cases, declared, strict);
  return applyWaivers(cases, rows, loadWaivers(file({ waivers })), { strict, now: NOW });
}

const LOCAL = 'http://127.0.0.1:1/';
function facts(exitCode: number, verdict: RunFacts['verdict']): RunFacts {
  return {
    target: { name: 'ref', baseUrl: LOCAL, authBaseUrl: LOCAL, transfersBaseUrl: LOCAL, embedded: true, faults: [] },
    suiteVersion: '0.1.0',
    spec: { file: 'spec.md', sha256: '0'.repeat(64) },
    seed: 1,
    strict: false,
    areas: ['disclosures'],
    filter: {},
    startedAt: NOW.toISOString(),
    durationMs: 1,
    node: process.version,
    exitCode,
    verdict,
    headline: verdict,
    problems: [],
  };
}

describe('a waivers file', () => {
  test('is refused with one message (exit 2): not JSON, a member missing, no real date, an unknown requirement', () => {
    expect(() => loadWaivers(file('{"waivers": ['), '--waivers')).toThrow(/not valid JSON/);
    const noReference = { waivers: [{ requirement: BROKEN, reason: 'r', expires: '2026-12-31' }] };
    expect(() => loadWaivers(file(noReference))).toThrow(/reference/);
    expect(() => loadWaivers(file({ waivers: [waiver({ expires: '2026-02-30' })] }))).toThrow(/expires/);
    const unknown = file({ waivers: [waiver({ requirement: 'OP99-NOTHING' })] });
    expect(() => loadWaivers(unknown)).toThrow(/does not hold: OP99-NOTHING/);
    expect(() => loadWaivers(join(dir, 'missing.json'))).toThrow(ConfigError);
    expect(() => loadWaivers(dir)).toThrow(/directory/);
  });
});

describe('waivers applied to a run', () => {
  test('the fault alone fails the run (exit 1) without a waiver', () => {
    expect(exitCodeFor(faulty)).toBe(EXIT.NON_CONFORMANT);
  });

  test("a live waiver on the fault's requirement: waived (never passed), exit 0, listed first", () => {
    const w = judge(faulty, [waiver()]);
    expect(exitCodeFor(w.cases)).toBe(EXIT.CONFORMANT);
    // The same judgement one test at a time, as the progress display and --bail see it while the run goes on.
    const one = loadWaivers(file({ waivers: [waiver()] }));
    const oneByOne = faulty.map((c) => waiveCase(c, one, { strict: false, now: NOW }).outcome);
    expect(oneByOne).toEqual(w.cases.map((c) => c.outcome));
    expect(w.cases.filter((c) => c.outcome === 'failed')).toEqual([]);
    const waivedCases = w.cases.filter((c) => c.outcome === 'waived');
    expect(waivedCases.length).toBeGreaterThan(0);
    for (const c of waivedCases) {
      expect(c.reason).toMatch(/^WAIVED deviation \(JIRA-17, expires 2026-12-31\), not a pass: /);
    }
    expect(w.rows.find((r) => r.id === BROKEN)?.verdict).toBe('waived');
    expect(w.report.waived).toEqual([BROKEN]);
    expect(w.report.waivers[0]?.state).toBe('applied');
    const f = waivedHeadline(facts(0, 'conformant'), w.report);
    expect(f.verdict).toBe('conformant with waived deviations');
    expect(f.headline).toBe('conformant with 1 waived deviation');
    const block = waiverBlock(w.report, false);
    expect(block[0]).toMatch(/^Waived deviations \(1; accepted by agreement, NOT passes/);

    const summary = buildSummary(f, w.cases, w.rows, { waivers: w.report });
    const validate = validator('conformance-summary');
    expect(validate(summary), JSON.stringify(validate.errors)).toBe(true);
    expect(Object.keys(summary).slice(0, 3)).toEqual(['$schema', 'facts', 'waivers']);
    const md = summaryMarkdown(summary);
    expect(md.indexOf('## Waived deviations: 1')).toBeGreaterThan(0);
    expect(md.indexOf('## Waived deviations')).toBeLessThan(md.indexOf('| fact | value |'));
    expect(md).toContain('🟠 WAIVED');
    const xml = junitXml(w.cases, 'run');
    expect(xml).toMatch(/<property name="waived" value="WAIVED deviation/);
    expect(xml).toMatch(/<skipped message="WAIVED deviation[^"]*" type="waived"\/>/);
    expect(xml).not.toMatch(/<failure /);
    const banner = verdictBanner('<html><body><p>app</p></body></html>', reportVerdict(summary));
    expect(banner).toMatch(/Verdict: conformant with 1 waived deviation[\s\S]*id="dbsi-waived"[\s\S]*Waived/);
    expect(banner).not.toContain('#137333'); // not the green of a clean pass
  });

  test('a waiver narrowed to another test waives nothing: exit 1', () => {
    const w = judge(faulty, [waiver({ test: 'answers a 2xx to a request with the three common headers' })]);
    expect(exitCodeFor(w.cases)).toBe(EXIT.NON_CONFORMANT);
    expect(w.rows.find((r) => r.id === BROKEN)?.verdict).toBe('failed');
  });

  test('the same waiver expired yesterday is ignored: exit 1, and the run says it expired and when', () => {
    const w = judge(faulty, [waiver({ expires: '2026-11-22' })]);
    expect(exitCodeFor(w.cases)).toBe(EXIT.NON_CONFORMANT);
    expect(w.report.waivers[0]?.state).toBe('expired');
    const said = waiverBlock(w.report, false).join('\n');
    expect(said).toContain('EXPIRED: waiver JIRA-17 for OP1-RESPONSE-ENVELOPE expired on 2026-11-22: ignored');
    // It still applies on the day it names.
    expect(exitCodeFor(judge(faulty, [waiver({ expires: '2026-11-23' })]).cases)).toBe(EXIT.CONFORMANT);
  });

  test('a waiver on a passing requirement: "waiver no longer needed", a warning; under --strict exit 1', () => {
    const w = judge(clean, [waiver({ requirement: PASSING })]);
    expect(w.report.waivers[0]?.state).toBe('no-longer-needed');
    expect(waiverBlock(w.report, false).join('\n')).toMatch(/WARNING: waiver no longer needed: OP1-REQUEST passed/);
    expect(waiverExitCode(exitCodeFor(w.cases), w.report, false)).toBe(EXIT.CONFORMANT);
    const strict = judge(clean, [waiver({ requirement: PASSING })], true);
    expect(waiverExitCode(exitCodeFor(strict.cases), strict.report, true)).toBe(EXIT.NON_CONFORMANT);
    expect(waiverBlock(strict.report, true).join('\n')).toMatch(/FAILURE \(--strict\): waiver no longer needed/);
  });
});

describe('--compare', () => {
  test("a run compared with an earlier clean summary lists the fault's requirement as newly failed", () => {
    const before = buildSummary(facts(0, 'conformant'), clean, requirementRows(clean, declared, false));
    const prev = file(before);
    const c = compareRuns(loadPrevious(prev), requirementRows(faulty, declared, false), undefined, NOW);
    expect(c.newlyFailed).toEqual([BROKEN]);
    expect(c.fixed).toEqual([]);
    expect(c.stillFailing).toEqual([]);
    // And the other way round: fixed.
    const after = buildSummary(facts(1, 'non-conformant'), faulty, requirementRows(faulty, declared, false));
    const back = compareRuns(loadPrevious(file(after)), requirementRows(clean, declared, false), undefined, NOW);
    expect(back.fixed).toEqual([BROKEN]);
    expect(back.newlyFailed).toEqual([]);
  });

  test('lists a waived requirement as newly waived, and the waivers expiring within 14 days', () => {
    const before = buildSummary(facts(0, 'conformant'), clean, requirementRows(clean, declared, false));
    const soon = waiver({ expires: '2026-12-07' });
    const w = judge(faulty, [soon, waiver({ requirement: PASSING, expires: '2026-12-30' })]);
    const c = compareRuns(loadPrevious(file(before)), w.rows, w.report, NOW);
    expect(c.newlyFailed).toEqual([]);
    expect(c.newlyWaived).toEqual([BROKEN]);
    expect(c.expiringSoon.map((x) => x.expires)).toEqual(['2026-12-07']);
  });

  test('a bad PREVIOUS is one usage error (exit 2)', () => {
    expect(() => loadPrevious(join(dir, 'nothing-here'))).toThrow(UsageError);
    expect(() => loadPrevious(file('not json'))).toThrow(/--compare: .* is not valid JSON/);
    expect(() => loadPrevious(file({ facts: {} }))).toThrow(/is not a conformance summary/);
    const empty = mkdtempSync(join(tmpdir(), 'dbsi-empty-'));
    expect(() => loadPrevious(empty)).toThrow(/--compare: .*conformance-summary.json does not exist/);
  });
});
