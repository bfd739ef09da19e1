import type { CaseOutcome, CaseReport, Leftover } from '../model';
import { OPERATIONS } from '../operations';
import type { Redactor } from '../redact';
import { NotAllowedError, TransportError } from '../http/errors';
import { CheckFailure, completedOutcome } from '../verdict/grade';
import { CouldNotTestError, NotApplicableError } from '../verdict/outcomes';
import { reasonWithLeftovers, redactedLeftover } from '../verdict/report';
import { caseId, type CaseContext, type CaseDef, type Feature } from '../case';

/** How a case that threw ended: the outcome, its reason and, where the setup may be the cause, its key. */
export function endingOf(
  e: unknown,
  redactor: Redactor,
): { outcome: CaseOutcome; reason: string; setup?: CaseReport['setup'] } {
  if (e instanceof CheckFailure) return { outcome: 'failed', reason: e.message };
  if (e instanceof CouldNotTestError) {
    const setup = e.setupKey ? { key: e.setupKey, problem: redactor.text(e.message) } : undefined;
    return { outcome: 'could-not-test', reason: `could not test: ${e.message}`, ...(setup ? { setup } : {}) };
  }
  if (e instanceof NotApplicableError)
    return { outcome: 'not-applicable', reason: `not applicable on this target: ${e.message}` };
  if (e instanceof NotAllowedError) {
    const why = e.why ? `skipped: ${e.why}` : `skipped: not allowed on this target (allow.${e.safetySwitch} is off)`;
    return { outcome: 'not-allowed', reason: why };
  }
  if (e instanceof TransportError) {
    const ex = e.exchange;
    const where = ex ? ` — ${ex.request.method} ${ex.request.url}\n  ` + `reproduce: ${ex.curl}` : '';
    return { outcome: 'could-not-test', reason: `could not test: ${e.message}${where}` };
  }
  return { outcome: 'error', reason: `suite error: ${(e as Error)?.stack ?? String(e)}` };
}

/** Run one case to its verdict; never throws. */
export async function runCase(ctx: CaseContext): Promise<CaseReport> {
  const t0 = performance.now();
  let outcome: CaseOutcome = 'passed';
  let reason: string | undefined;
  let setup: CaseReport['setup'];
  try {
    await ctx.def.run(ctx);
    ({ outcome, reason } = completedOutcome(ctx.checks));
  } catch (e) {
    ({ outcome, reason, setup } = endingOf(e, ctx.client.redactor));
    if (e instanceof NotApplicableError && e.exchange) ctx.judged(e.exchange);
  }
  await ctx.runCleanups();
  reason = reasonWithLeftovers(reason, ctx.cleanupProblems, ctx.leftovers);
  const redact = (l: Leftover): Leftover => redactedLeftover(l, ctx.client.redactor);
  return {
    id: caseId(ctx.feature, ctx.def),
    area: ctx.feature.area,
    operation: OPERATIONS[ctx.feature.operation].section,
    title: ctx.def.title,
    requirements: ctx.def.requirements,
    outcome,
    reason: reason && ctx.client.redactor.text(reason),
    checks: ctx.checks,
    exchanges: ctx.exchanges,
    durationMs: Math.round(performance.now() - t0),
    parameters: ctx.parameters,
    ...(ctx.leftovers.length ? { leftovers: ctx.leftovers.map(redact) } : {}),
    ...(ctx.resolvedLeftovers.length ? { resolvedLeftovers: ctx.resolvedLeftovers } : {}),
    ...(setup ? { setup } : {}),
    ...(ctx.judgedSeqs.length ? { judged: ctx.judgedSeqs } : {}),
    ...(ctx.explored ? { explored: ctx.explored } : {}),
  };
}

/**
 * The report of a selected test that never ran (stopped before it started: the preflight, an
 * interruption, --bail, a switch that is off): its verdict and reason, no check, no exchange.
 */
export function reportWithoutRun(
  f: Feature,
  def: CaseDef,
  outcome: CaseOutcome,
  reason: string,
  setup?: CaseReport['setup'],
): CaseReport {
  const head = { id: caseId(f, def), area: f.area, operation: OPERATIONS[f.operation].section, title: def.title };
  const nothing = { checks: [], exchanges: [], durationMs: 0, parameters: {} };
  return { ...head, requirements: def.requirements, outcome, reason, ...nothing, ...(setup ? { setup } : {}) };
}
