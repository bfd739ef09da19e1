import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { JUDGED_OVER_THE_RUN_LOG } from '../harness/verdict/run-log-verdicts';
import type { CaseReport } from '../harness/model';
import { requirementRows } from '../harness/run/results';
import type { ConformanceSummary } from '../harness/evidence/summary';
import { explain, runAreas, type AreaRun } from './_reference';
import { runMain, type MainRun } from './_main';

/**
 * Issue 32, "a verdict the rules reach on any exchange of the run must reach the summary": the fault
 * op10-mismatch-accepted-after-a-change accepts a wrong oldPhoneNumber once a change succeeded. The cases that
 * see it accepted (the stored-number tests' control) are not applicable, the rule's own tests send their wrong
 * number before any change: with the explorer off, the cases' own verdicts leave OP10-RULE2-OLD-PHONE-MATCH
 * passed. The run's whole log, judged the way a capture is, fails it.
 */
const FAULT = 'op10-mismatch-accepted-after-a-change';
const RULE = 'OP10-RULE2-OLD-PHONE-MATCH';
const NO_EXPLORER = { count: 0, seconds: 0 };

const declaredBy = (cases: CaseReport[]) => {
  const m = new Map<string, string[]>();
  for (const c of cases) for (const r of c.requirements) m.set(r, [...(m.get(r) ?? []), c.id]);
  return m;
};
const rowOf = (cases: CaseReport[], id: string, strict = false) =>
  requirementRows(cases, declaredBy(cases), strict).find((r) => r.id === id)!;
const fromLog = (cases: CaseReport[]) => cases.filter((c) => c.title.startsWith(JUDGED_OVER_THE_RUN_LOG));

describe("the run's whole log reaches the summary", () => {
  let casesOnly: AreaRun;
  let whole: AreaRun;
  beforeAll(async () => {
    const o = { areas: ['contact-info' as const], faults: [FAULT], explore: NO_EXPLORER };
    casesOnly = await runAreas({ ...o, casesOnly: true });
    whole = await runAreas(o);
  });

  test("the cases' own verdicts lose the violation: seen accepted, not applicable, the requirement passed", () => {
    const na = casesOnly.cases.filter((c) => c.outcome === 'not-applicable' && c.reason?.includes(RULE));
    expect(na.length, explain(casesOnly.cases)).toBeGreaterThan(0);
    expect([...casesOnly.failed]).toEqual([]);
    expect(rowOf(casesOnly.cases, RULE).verdict).toBe('passed');
  });

  test("judged over the run's log, the requirement fails, with its exchanges, curl lines and catalog text", () => {
    expect([...whole.failed]).toEqual([RULE]);
    expect(rowOf(whole.cases, RULE).verdict).toBe('failed');
    const [entry, ...more] = fromLog(whole.cases);
    expect(more).toEqual([]);
    expect(entry!.outcome).toBe('failed');
    expect(entry!.requirements).toEqual([RULE]);
    expect(entry!.id).toBe(`contact-info/updateContactInfo/judged-over-the-run-s-log-${RULE.toLowerCase()}`);
    expect(entry!.reason).toContain(`${JUDGED_OVER_THE_RUN_LOG}: MUST ${RULE}`);
    expect(entry!.reason).toContain('on Update contact information');
    expect(entry!.reason).toContain('must match the phone number on record');
    expect(entry!.reason).toMatch(/reproduce: curl .*\$DBSI_BEARER_TOKEN/);
    // The exchanges it rests on were sent by other tests: judged here, counted there.
    expect(entry!.exchanges).toEqual([]);
    expect(entry!.judged!.length).toBeGreaterThan(0);
    expect(entry!.checks.every((k) => k.outcome === 'failed' && k.exchange && k.capture?.fails)).toBe(true);
  });

  test("a case's not applicable does not hide it; a case's failure of the same requirement does", async () => {
    const { runLogReports } = await import('../harness/verdict/run-log-verdicts');
    const entry = fromLog(whole.cases)[0]!;
    const failing: CaseReport = { ...entry, id: 'x', title: 'a case', checks: entry.checks.slice(0, 1) };
    // The failures again, from the entry's own checks' exchanges: a case that carries the requirement as failed
    // takes them over; one that is not applicable on it does not.
    const redactor = { text: (t: string) => t } as never;
    const failures = entry.checks.map((k) => ({
      requirement: k.requirement,
      verdict: { check: k.check, description: k.description, outcome: 'failed' as const },
      s: { res: { exchange: { seq: k.exchange, curl: k.curl } }, mapped: { operation: 'updateContactInfo' } },
      judged: { log: [], single: false },
    })) as never[];
    expect(runLogReports(failures, { cases: [failing], strict: false, redactor })).toEqual([]);
    const na: CaseReport = { ...failing, outcome: 'not-applicable', checks: [] };
    expect(runLogReports(failures, { cases: [na], strict: false, redactor }).map((c) => c.requirements)).toEqual([
      [RULE],
    ]);
  });
});

describe('the main command', () => {
  let run: MainRun;
  beforeAll(async () => {
    run = await runMain(['--fault', FAULT, '--area', 'contact-info', '--explore', '0', '--quiet']);
  });

  test("fails the run, and the console, the summary, JUnit and Allure carry the test judged over the run's log", () => {
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toContain(
      `${RULE} [MUST] contact-info › 10. Update contact information › ${JUDGED_OVER_THE_RUN_LOG}`,
    );
    const s = JSON.parse(readFileSync(join(run.reports, 'conformance-summary.json'), 'utf8')) as ConformanceSummary;
    expect(s.requirements.find((r) => r.id === RULE)!.verdict).toBe('failed');
    const entry = s.cases.find((c) => c.title.startsWith(JUDGED_OVER_THE_RUN_LOG));
    expect(entry?.outcome).toBe('failed');
    expect(readFileSync(join(run.reports, 'junit.xml'), 'utf8')).toContain(`${JUDGED_OVER_THE_RUN_LOG}: ${RULE}`);
    const allure = join(run.reports, 'allure-results');
    const results = readdirSync(allure).filter((f) => f.endsWith('-result.json'));
    const texts = results.map((f) => readFileSync(join(allure, f), 'utf8'));
    expect(texts.filter((t) => t.includes(`${JUDGED_OVER_THE_RUN_LOG}: ${RULE}`)).length).toBe(1);
  });
});
