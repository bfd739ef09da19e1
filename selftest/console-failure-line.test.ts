import { describe, expect, test } from 'vitest';
import type { CaseReport, CheckResult } from '../harness/model';
import { consoleSummary, failureLine } from '../harness/run/console';

/** The failure line names the most severe failed check of a test: MUST, then SHOULD, then INFO. */

const check = (requirement: string, grade: CheckResult['grade'], outcome: CheckResult['outcome'] = 'failed') => ({
  check: 'value_equals',
  requirement,
  grade,
  section: 'States and transitions',
  outcome,
  description: `${requirement} holds`,
  expected: 'x',
  received: 'y',
});
const failedCase = (checks: CheckResult[]): CaseReport => ({
  id: 'traffic-3',
  area: 'disclosures',
  operation: 'listUserDisclosures',
  title: '#3 GET /institution-user-disclosures → 200',
  requirements: [...new Set(checks.map((k) => k.requirement))],
  outcome: 'failed',
  reason: 'failed',
  checks,
  exchanges: [],
  durationMs: 1,
  parameters: {},
});
const info = check('RES-USERDISC-STATUS-VALUES', 'INFO');
const should = check('CLIENT-REQUEST-AS-DOCUMENTED', 'SHOULD');

describe('failureLine', () => {
  test('names the failed MUST check even when an INFO or SHOULD one failed first', () => {
    const c = failedCase([info, should, check('OP4-REQUEST', 'MUST', 'passed'), check('STATE-UD-CREATE', 'MUST')]);
    expect(failureLine(c)).toMatch(/^✗ STATE-UD-CREATE \[MUST\]/);
    expect(consoleSummary([c])).toContain('✗ STATE-UD-CREATE [MUST]');
  });

  test('without a failed MUST, the SHOULD check before the INFO one (a failure under --strict)', () => {
    expect(failureLine(failedCase([info, should]))).toMatch(/^✗ CLIENT-REQUEST-AS-DOCUMENTED \[SHOULD\]/);
    expect(failureLine(failedCase([info]))).toMatch(/^✗ RES-USERDISC-STATUS-VALUES \[INFO\]/);
  });
});
