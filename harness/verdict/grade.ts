import { requirement } from '../../requirements';
import type { CheckVerdict } from '../checks/verdict';
import type { CaseOutcome, CheckResult } from '../model';
import type { Redactor } from '../redact';

/**
 * The one grader (issue 32): a check's verdict on a requirement becomes a graded result by the catalog (its
 * grade and section), redacted; a failed MUST ends the test, a failed SHOULD is a warning and a failed INFO an
 * observation, both failures under --strict. Both sources call it: an active case through CaseContext.verify
 * (harness/case.ts), a capture's exchange through gradePlan (harness/traffic/judge.ts).
 */

/** A MUST check failed (or a SHOULD/INFO check under --strict): the test is non-conformant. */
export class CheckFailure extends Error {
  override name = 'CheckFailure';
  constructor(public result: CheckResult) {
    super(formatFailure(result));
  }
}

export function formatFailure(r: CheckResult): string {
  const lines = [`${r.grade} ${r.requirement} (spec section "${r.section}"): ${r.check}: ${r.description}`];
  if (r.expected !== undefined) lines.push(`  spec documents: ${r.expected}`);
  if (r.received !== undefined) lines.push(`  received: ${r.received}`);
  if (r.curl) lines.push(`  reproduce: ${r.curl}`);
  return lines.join('\n');
}

/** A check's verdict on a requirement, graded by the catalog; what was received is redacted. */
export function graded(requirementId: string, v: CheckVerdict, redactor: Redactor): CheckResult {
  const req = requirement(requirementId);
  return {
    check: v.check,
    requirement: requirementId,
    grade: req.grade,
    section: req.section,
    outcome: v.outcome,
    description: v.description,
    expected: v.expected,
    received: v.received === undefined ? undefined : redactor.text(v.received),
    note: v.note,
    exchange: v.res?.exchange.seq,
    curl: v.res?.exchange.curl,
  };
}

/** Whether a graded result ends its test as failed: a failed MUST, or any failed check under --strict. */
export function endsTest(r: CheckResult, strict: boolean): boolean {
  return r.outcome === 'failed' && (r.grade === 'MUST' || strict);
}

/** The outcome of a test that ran to its end: a suite bug when it checked nothing, a warning when a SHOULD failed. */
export function completedOutcome(checks: readonly CheckResult[]): { outcome: CaseOutcome; reason?: string } {
  if (checks.length === 0) return { outcome: 'error', reason: 'suite bug: the case ran no check' };
  const should = checks.filter((c) => c.outcome === 'failed' && c.grade === 'SHOULD');
  if (should.length === 0) return { outcome: 'passed' };
  const reason = should.map((c) => `SHOULD ${c.requirement}: ${c.description}; ` + `received ${c.received}`);
  return { outcome: 'warning', reason: reason.join(' | ') };
}

/** A list of verdicts graded as one test, in order; the first failure that ends it stops it (as in a case). */
export function gradePlan(
  plan: ReadonlyArray<{ requirement: string; verdict: CheckVerdict }>,
  redactor: Redactor,
  strict: boolean,
): { checks: CheckResult[]; outcome: CaseOutcome; reason?: string } {
  const checks: CheckResult[] = [];
  for (const p of plan) {
    const r = graded(p.requirement, p.verdict, redactor);
    checks.push(r);
    if (endsTest(r, strict)) return { checks, outcome: 'failed', reason: redactor.text(formatFailure(r)) };
  }
  const done = completedOutcome(checks);
  return { checks, ...done, reason: done.reason && redactor.text(done.reason) };
}
