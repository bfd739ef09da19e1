import type { RunSettings } from '../run-settings';
import { request_as_documented, type CheckVerdict } from '../checks';
import { OPERATION_DOCUMENTATION } from '../operations-documented';
import { parsedText } from '../log/answer-body';
import type { HttpResult } from '../log/entry';
import { gradePlan } from '../verdict/grade';
import { caseIdOf } from '../verdict/report';
import type { Area, CaseReport, Exchange } from '../model';
import { OPERATIONS, type OperationKey } from '../operations';
import { curlLine, type Redactor } from '../redact';
import { header, type Observed } from './capture';
import type { Seen, Verifier } from '../rules/exchange';
import { EXCHANGE_RULES } from '../rules/exchange-rules';
import type { Mapped } from './operation-map';
import { judgeSequence, outcomeOf } from '../rules/sequence-rules';

/**
 * The second source of exchanges: a capture. Each judged exchange becomes a test graded by the one grader
 * (harness/verdict/grade.ts), by the catalog exactly as an active case's checks are, and its report feeds the
 * same summary, JUnit, Allure and evidence writers. No client, no case runner: nothing is sent.
 */

/** The harness's record of an observed exchange, redacted, as an active case would have recorded it. */
export function recordedExchange(x: Observed, operation: OperationKey, redactor: Redactor): Exchange {
  const request = {
    method: x.method,
    url: redactor.text(x.url),
    headers: redactor.headers(x.requestHeaders),
    body: redactor.body(x.requestBody),
  };
  const exchange: Exchange = {
    seq: x.index,
    operation,
    label: `#${x.index} ${OPERATIONS[operation].name}`,
    request,
    response:
      x.status === 0
        ? undefined
        : {
            status: x.status,
            headers: redactor.headers(x.responseHeaders),
            body: redactor.body(x.responseBody) ?? '',
            truncated: false,
            bytes: Buffer.byteLength(x.responseBody),
          },
    error: x.status === 0 ? { kind: 'interrupted', message: `no answer in the capture: ${x.abortReason}` } : undefined,
    startedAt: x.startedAt,
    durationMs: x.durationMs,
    retries: [],
    curl: '',
  };
  // Written when read (a report, a failure): the recorder's live judge reads it for no exchange that breaks nothing.
  let curl: string | undefined;
  Object.defineProperty(exchange, 'curl', {
    enumerable: true,
    configurable: true,
    get: () =>
      (curl ??= curlLine({ method: x.method, url: x.url, headers: x.requestHeaders, body: x.requestBody }, redactor)),
    set: (v: string) => {
      curl = v;
    },
  });
  return exchange;
}

/** The answer as the checks read it (HttpResult), with its redacted record. */
export function observedResult(x: Observed, exchange: Exchange): HttpResult {
  const parsed = parsedText(x.responseBody, exchange.response?.body ?? '');
  return { status: x.status, headers: x.responseHeaders, text: x.responseBody, truncated: false, ...parsed, exchange };
}

/** One judged exchange: what it proved or broke, and what the sequence says about it. */
export interface ExchangeLine {
  index: number;
  operation?: OperationKey;
  method: string;
  /** Redacted. */
  url: string;
  status: number;
  /** Requirement ids with the exchange's verdict on each. */
  proved: string[];
  broke: string[];
  warned: string[];
  /** Why nothing was judged, or what the sequence concluded. */
  notes: string[];
  caseId?: string;
}

export interface Judgement {
  cases: CaseReport[];
  lines: ExchangeLine[];
}

/** Why an answer proves nothing about the operation's rules. */
function unjudged(status: number): string | undefined {
  if (status === 0) return 'no answer (aborted in the capture): nothing judged';
  if (status < 200) return `${status}: an interim answer, nothing judged`;
  if (status >= 300 && status < 400)
    return `${status}: a redirect, nothing judged (the client's ` + `next entry carries the answer)`;
  if (status === 429) return '429: rate limited, not processed; nothing judged (its retry is judged on its own)';
  if (status === 502 || status === 503 || status === 504)
    return `${status}: the target was unavailable; ` + `nothing judged`;
  return undefined;
}

export type Plan = Array<{ requirement: string; verdict: CheckVerdict }>;

/** The exchanges as the rules read them: the answer as an HttpResult, with its redacted record. */
export function seenOf(
  mapped: Array<{ x: Observed; m: Mapped }>,
  redactor: Redactor,
  keepsAuthorization: (area: Area) => boolean,
): Seen[] {
  return mapped.map(({ x, m }) => ({
    x,
    mapped: m,
    res: observedResult(x, recordedExchange(x, m.operation, redactor)),
    keepsAuthorization: keepsAuthorization(OPERATIONS[m.operation].area),
  }));
}

/** Every check the capture shows, per exchange (per-exchange rules, then the state rules across the sequence), not yet
 * graded. */
export function planCapture(
  seen: Seen[],
  perExchange: (s: Seen) => boolean = () => true,
): { plans: Map<number, Plan>; notes: Map<number, string[]> } {
  const plans = new Map<number, Plan>();
  const verifierFor = (index: number): Verifier => ({
    verify(requirement, verdict) {
      plans.set(index, [...(plans.get(index) ?? []), { requirement, verdict }]);
      return verdict.outcome !== 'failed';
    },
  });
  for (const s of seen) {
    if (unjudged(s.x.status) === undefined && perExchange(s))
      EXCHANGE_RULES[s.mapped.operation](s, verifierFor(s.x.index));
  }
  const { notes } = judgeSequence(seen, verifierFor);
  // Last, so that a client's mistake never hides a verdict on the target: the request as documented.
  for (const s of seen) {
    if (unjudged(s.x.status) !== undefined) continue;
    const doc = OPERATION_DOCUMENTATION[s.mapped.operation];
    const required = doc.parameters
      .filter((p) => p.in === 'header' && p.required && !/^authorization$/i.test(p.name))
      .map((p) => p.name);
    verifierFor(s.x.index).verify(
      'CLIENT-REQUEST-AS-DOCUMENTED',
      request_as_documented(s.res, required, doc.body?.schema),
    );
  }
  return { plans, notes };
}

/** An exchange's line of the traffic section, before its verdicts: why nothing was judged, what the sequence said. */
function exchangeLine(s: Seen, plan: Plan, notes: string[]): ExchangeLine {
  const line: ExchangeLine = {
    index: s.x.index,
    operation: s.mapped.operation,
    method: s.x.method,
    url: s.res.exchange.request.url,
    status: s.x.status,
    proved: [],
    broke: [],
    warned: [],
    notes: [...notes],
  };
  const why = unjudged(s.x.status);
  if (why) line.notes.unshift(why);
  else if (plan.length === 0)
    line.notes.unshift(
      `${outcomeOf(s.x.status) === 'refused' ? 'refused' : 'answered'} ${s.x.status}: no rule of the ` +
        `catalog is shown by this exchange alone (a refusal may be about ` +
        `the credentials, which a capture cannot tell)`,
    );
  return line;
}

/**
 * Judge the mapped exchanges of a capture: each exchange with checks becomes a test, graded by the
 * catalog through the one grader, exactly as an active case is.
 */
export async function judgeCapture(seen: Seen[], o: { settings: RunSettings; redactor: Redactor }): Promise<Judgement> {
  const { plans, notes } = planCapture(seen);
  const cases: CaseReport[] = [];
  const lines: ExchangeLine[] = [];
  for (const s of seen) {
    const plan = plans.get(s.x.index) ?? [];
    const line = exchangeLine(s, plan, notes.get(s.x.index) ?? []);
    lines.push(line);
    if (plan.length === 0) continue;
    const title = `#${s.x.index} ${s.x.method} ${pathOf(s.res.exchange.request.url)} → ${s.x.status}`;
    const report = capturedReport(s, title, plan, o.settings.strict, o.redactor);
    report.durationMs = Math.round(s.x.durationMs);
    report.parameters = {
      exchange: String(s.x.index),
      startedAt: s.x.startedAt,
      ...(header(s.x.requestHeaders, 'transactionId')
        ? { transactionId: header(s.x.requestHeaders, 'transactionId')! }
        : {}),
    };
    cases.push(report);
    line.caseId = report.id;
    for (const k of report.checks) {
      const list =
        k.outcome === 'passed'
          ? line.proved
          : k.outcome !== 'failed'
            ? undefined
            : k.grade === 'MUST' || o.settings.strict
              ? line.broke
              : line.warned;
      if (list && !list.includes(k.requirement)) list.push(k.requirement);
    }
    // A requirement both proved and broken by one exchange is broken.
    line.proved = line.proved.filter((r) => !line.broke.includes(r) && !line.warned.includes(r));
  }
  return { cases, lines };
}

/** One exchange's plan graded as one test: the report an active case with the same checks would give. */
function capturedReport(s: Seen, title: string, plan: Plan, strict: boolean, redactor: Redactor): CaseReport {
  const op = OPERATIONS[s.mapped.operation];
  const { checks, outcome, reason } = gradePlan(plan, redactor, strict);
  return {
    id: caseIdOf(op.area, s.mapped.operation, title),
    area: op.area,
    operation: op.section,
    title,
    requirements: [...new Set(plan.map((p) => p.requirement))],
    outcome,
    reason,
    checks,
    exchanges: [s.res.exchange],
    durationMs: 0,
    parameters: {},
  };
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}
