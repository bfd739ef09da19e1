import { requirement } from '../../requirements';
import type { CheckVerdict } from '../checks';
import type { CaseOutcome, CaseReport, CheckResult } from '../model';
import { OPERATIONS } from '../operations';
import type { Redactor } from '../redact';
import { captureView, type Judged } from '../rules/capture-view';
import type { Known, Seen } from '../rules/exchange';
import { judgeExchange } from '../rules/judge';
import { judgeSequence } from '../rules/sequence-rules';
import type { RunLog } from '../log/run-log';

/**
 * The whole run judged the way a capture is (issue 32): every entry of the run's log held to its exchange
 * rules (as it arrived, harness/log/run-log.ts) and the whole log to the state rules, with no `only` filter.
 * A failed verdict on a requirement that no case's own checks carry as failed becomes a test entry of its
 * own, "judged over the run's log": a case's *not applicable* or *passed* never hides a verdict the rules reach.
 */

/** The words every such test entry carries (its title, its reason). */
export const JUDGED_OVER_THE_RUN_LOG = "judged over the run's log";

/** A failed verdict the rules reached on the run's log, and what a capture of the same log would need. */
interface Failure {
  requirement: string;
  verdict: CheckVerdict;
  s: Seen;
  judged: Judged;
}

/** The exchange rules' failed verdicts on one entry (no `only`: every rule of its operation). */
function exchangeFailures(s: Seen): Failure[] {
  const out: Failure[] = [];
  judgeExchange(s, {
    verify(requirement, verdict) {
      if (verdict.outcome === 'failed') out.push({ requirement, verdict, s, judged: { log: [s], single: true } });
      return verdict.outcome !== 'failed';
    },
  });
  return out;
}

/** Every failed verdict the rules reach on the run's log: the exchange rules', then the state rules'. */
export function failuresOverTheLog(log: RunLog, known: Known): Failure[] {
  log.close();
  const entries = log.judged();
  const out: Failure[] = entries.flatMap(exchangeFailures);
  // A write whose outcome the log lacks (answered 503, or not at all) may have changed the state: the cases judged
  // what they drove; the whole log is held to the exchange rules only.
  if (log.stateKnown !== true) return out;
  const byIndex = new Map(entries.map((s) => [s.x.index, s]));
  const whole: Judged = { log: entries, single: false, known };
  judgeSequence(
    entries,
    (index) => ({
      verify(requirement, verdict) {
        const s = byIndex.get(index);
        if (verdict.outcome === 'failed' && s) out.push({ requirement, verdict, s, judged: whole });
        return verdict.outcome !== 'failed';
      },
    }),
    known,
  );
  return out;
}

/** The requirements the cases' own checks carry as failed (any grade). */
function failedByCases(cases: readonly CaseReport[]): Set<string> {
  return new Set(cases.flatMap((c) => c.checks.filter((k) => k.outcome === 'failed').map((k) => k.requirement)));
}

/** A configured value by its key (testData.moreCustomers[2].customerId), where it is a string or a number. */
function configured(config: unknown, key: string): string | undefined {
  let at: unknown = config;
  for (const part of key.split('.')) {
    const m = /^([^[\]]+)(?:\[(\d+)\])?$/.exec(part);
    if (!m || at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[m[1]!];
    if (m[2] !== undefined) at = Array.isArray(at) ? at[Number(m[2])] : undefined;
  }
  return typeof at === 'string' || typeof at === 'number' ? String(at) : undefined;
}

/**
 * Whether a test found the operator's setup explains the exchange: the exchange is one of a test that could not
 * test because of the setup (CaseReport.setup: a control showed the target refuses a configured value), or it
 * carries the value such a test named. The rules cannot know the setup; the test that proved it did.
 */
function setupExplained(cases: readonly CaseReport[], config: unknown): (s: Seen) => boolean {
  const mine = cases.filter((c) => c.outcome === 'could-not-test' && c.setup);
  const seqs = new Set(mine.flatMap((c) => [...c.exchanges.map((e) => e.seq), ...(c.judged ?? [])]));
  const values = [...new Set(mine.map((c) => configured(config, c.setup!.key)))].filter(
    (v): v is string => v !== undefined && v.length >= 3,
  );
  const carries = (s: Seen, v: string) =>
    s.x.url.includes(v) ||
    s.x.url.includes(encodeURIComponent(v)) ||
    Object.values(s.x.requestHeaders).some((h) => h.includes(v)) ||
    (s.x.requestBody ?? '').includes(v);
  return (s) => seqs.has(s.res.exchange.seq) || values.some((v) => carries(s, v));
}

const endsTheTest = (grade: string, strict: boolean) => grade === 'MUST' || strict;

/**
 * The failures left once each exchange is reported once, as a case and a capture's test report it: after a
 * failed MUST (any grade under --strict) on an exchange, by a case or earlier in the log, what else fails on
 * the same answer is its consequence (a 204 where a 200 with a body is documented also has no JSON body). An
 * exchange a test found the setup explains (setupExplained) stays that test's could not test.
 */
function oncePerExchange(
  failures: readonly Failure[],
  cases: readonly CaseReport[],
  o: { strict: boolean; config: unknown },
): Failure[] {
  const { strict } = o;
  const ended = new Set(
    cases.flatMap((c) =>
      c.checks.filter((k) => k.outcome === 'failed' && endsTheTest(k.grade, strict)).map((k) => k.exchange),
    ),
  );
  const explained = setupExplained(cases, o.config);
  return failures.filter((f) => {
    const seq = f.s.res.exchange.seq;
    if (ended.has(seq) || explained(f.s)) return false;
    if (endsTheTest(requirement(f.requirement).grade, strict)) ended.add(seq);
    return true;
  });
}

/** A failed verdict graded by the catalog, redacted, with its exchange and the capture's view of it. */
function graded(f: Failure, redactor: Redactor): CheckResult {
  const req = requirement(f.requirement);
  const v = f.verdict;
  const res = v.res ?? f.s.res;
  return {
    check: v.check,
    requirement: f.requirement,
    grade: req.grade,
    section: req.section,
    outcome: 'failed',
    description: redactor.text(v.description),
    expected: v.expected,
    received: v.received === undefined ? undefined : redactor.text(v.received),
    note: v.note && redactor.text(v.note),
    exchange: res.exchange.seq,
    curl: res.exchange.curl,
    capture: captureView(f.judged, f.requirement),
  };
}

function outcomeOf(checks: CheckResult[], strict: boolean): CaseOutcome {
  if (checks.some((k) => k.grade === 'MUST' || strict)) return 'failed';
  return checks.some((k) => k.grade === 'SHOULD') ? 'warning' : 'passed';
}

/** At most this many failures are written out in one entry's reason (all are its checks). */
const SHOWN = 3;

function reasonOf(id: string, checks: CheckResult[], operationName: string): string {
  const req = requirement(id);
  const lines = [
    `${JUDGED_OVER_THE_RUN_LOG}: ${req.grade} ${id} (spec section "${req.section}") on ${operationName}: ` +
      `"${req.statement}"`,
  ];
  for (const k of checks.slice(0, SHOWN)) {
    lines.push(`  exchange #${k.exchange}: ${k.check}: ${k.description}`);
    if (k.expected !== undefined) lines.push(`    spec documents: ${k.expected}`);
    if (k.received !== undefined) lines.push(`    received: ${k.received}`);
    if (k.curl) lines.push(`    reproduce: ${k.curl}`);
  }
  if (checks.length > SHOWN) lines.push(`  and ${checks.length - SHOWN} more exchange(s) of the run`);
  return lines.join('\n');
}

/**
 * The test entries of the verdicts the run's log adds to the cases' own: one per requirement that failed on
 * the log and that no case carries as failed, named after the operation of its first failing exchange.
 */
export function runLogReports(
  failures: readonly Failure[],
  o: { cases: readonly CaseReport[]; strict: boolean; redactor: Redactor; config?: unknown },
): CaseReport[] {
  const already = failedByCases(o.cases);
  const byRequirement = new Map<string, Failure[]>();
  for (const f of oncePerExchange(failures, o.cases, { strict: o.strict, config: o.config })) {
    if (already.has(f.requirement)) continue;
    byRequirement.set(f.requirement, [...(byRequirement.get(f.requirement) ?? []), f]);
  }
  return [...byRequirement].map(([id, fs]) => {
    const seenOnce = new Set<string>();
    const checks = fs
      .filter((f) => {
        const key = `${f.s.res.exchange.seq}|${f.verdict.check}|${f.verdict.description}`;
        return !seenOnce.has(key) && !!seenOnce.add(key);
      })
      .map((f) => graded(f, o.redactor));
    const op = OPERATIONS[fs[0]!.s.mapped.operation];
    const title = `${JUDGED_OVER_THE_RUN_LOG}: ${id}`;
    const outcome = outcomeOf(checks, o.strict);
    return {
      id: `${op.area}/${fs[0]!.s.mapped.operation}/judged-over-the-run-s-log-${id.toLowerCase()}`,
      area: op.area,
      operation: op.section,
      title,
      requirements: [id],
      outcome,
      reason: o.redactor.text(reasonOf(id, checks, op.name)),
      checks,
      exchanges: [],
      judged: [...new Set(checks.map((k) => k.exchange!))],
      durationMs: 0,
      parameters: {},
    };
  });
}
