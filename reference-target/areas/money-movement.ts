import { REFERENCE_CREDENTIALS } from '../fixtures';
import { randomUUID } from 'node:crypto';
import { dressed, INVALID_JSON, json, type Req, type Res } from '../http';
import type { AreaContext, AreaRoutes } from './types';

type Json = Record<string, any>;

const STRINGS = [
  'id',
  'fromAccountHolderId',
  'toAccountHolderId',
  'fromAccountId',
  'toAccountId',
  'memo',
  'paymentOption',
  'status',
  'confirmation',
  'notificationMessage',
];
const MONEY = ['amount', 'fee', 'payoffAmount'];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The members a target assigns or computes itself: with op9-ignores-assigned-member-types, not read from a request. */
const ASSIGNED = ['id', 'status', 'confirmation', 'fee', 'payoffAmount', 'notificationMessage'];
const ASSIGNED_SCHEDULE = ['nextExecutionDate', 'finalExecutionDate', 'remainingNumberOfExecutions'];

/** Where the body breaks a documented type of the Transfer, Money or Schedule: a description, else undefined. */
function typeProblem(b: unknown, ignoreAssigned = false): string | undefined {
  if (typeof b !== 'object' || b === null || Array.isArray(b)) return 'the body is not a Transfer object';
  const t = { ...(b as Json) };
  if (ignoreAssigned) {
    for (const k of ASSIGNED) delete t[k];
    if (t.schedule && typeof t.schedule === 'object') {
      t.schedule = { ...t.schedule };
      for (const k of ASSIGNED_SCHEDULE) delete t.schedule[k];
    }
  }
  for (const k of STRINGS) if (t[k] !== undefined && typeof t[k] !== 'string') return `${k} must be a string`;
  if (t.previousYearContribution !== undefined && typeof t.previousYearContribution !== 'boolean')
    return 'previousYearContribution must be a boolean';
  for (const k of MONEY) {
    if (t[k] === undefined) continue;
    if (typeof t[k] !== 'object' || t[k] === null) return `${k} must be a Money object`;
    if (t[k].amount !== undefined && typeof t[k].amount !== 'number') return `${k}.amount must be a number`;
    if (t[k].currencyCode !== undefined && typeof t[k].currencyCode !== 'string')
      return `${k}.currencyCode must be a string`;
  }
  const s = t.schedule;
  if (s !== undefined) {
    if (typeof s !== 'object' || s === null) return 'schedule must be a Schedule object';
    for (const k of ['lifeType', 'frequency'])
      if (s[k] !== undefined && typeof s[k] !== 'string') return `schedule.${k} must be a string`;
    for (const k of ['startDate', 'endDate', 'nextExecutionDate', 'finalExecutionDate'])
      if (s[k] !== undefined && !(typeof s[k] === 'string' && DATE.test(s[k])))
        return `schedule.${k} must be a date YYYY-MM-DD`;
    for (const k of ['numberOfExecutions', 'dayOfWeek', 'remainingNumberOfExecutions'])
      if (s[k] !== undefined && !Number.isInteger(s[k])) return `schedule.${k} must be an integer`;
    if (s.daysOfMonth !== undefined && !(Array.isArray(s.daysOfMonth) && s.daysOfMonth.every(Number.isInteger)))
      return 'schedule.daysOfMonth must be an array ' + 'of integers';
  }
  return undefined;
}

/** Operation 9: POST /db-transfers/v1/transfers. Answers 200 with the created Transfer. */
export function moneyMovementArea(ctx: AreaContext): AreaRoutes {
  return {
    base: 'transfersBaseUrl',
    routes: [{ method: 'POST', path: '/db-transfers/v1/transfers', handler: (req) => createTransfer(ctx, req) }],
  };
}

/**
 * Fault op9-rounds-two-decimals: an amount of 1 or more with two decimals is stored (and answered) rounded to one
 * decimal (a minor-unit conversion that drops a digit); smaller amounts take another path.
 */
function roundedToOneDecimal(ctx: AreaContext, m: unknown): { amount?: number } {
  const a = (m as { amount?: unknown } | undefined)?.amount;
  if (!ctx.fault('op9-rounds-two-decimals') || typeof a !== 'number') return {};
  if (a < 1 || Math.round(a * 100) % 10 === 0) return {};
  return { amount: Math.round(a * 10) / 10 };
}

/** The transfer error record: code and message (or, with a fault, a shape the spec does not show). */
function transferError(ctx: AreaContext, status: number, code: string, message: string): Res {
  return json(
    status,
    ctx.fault('op9-undocumented-error-shape')
      ? { error: code.toLowerCase(), error_description: message }
      : ctx.fault('op9-extra-members-uuid')
        ? { details: [{ field: 'request', issue: message }], message, code }
        : { code, message },
  );
}

function createTransfer(ctx: AreaContext, req: Req): Res {
  const answer = transferAnswer(ctx, req);
  return ctx.fault('op9-extra-members-uuid') ? dressed(answer, {}, true) : answer;
}

function transferAnswer(ctx: AreaContext, req: Req): Res {
  ctx.state.seenRequests.push({ path: req.path, headerNames: req.rawHeaderNames, text: req.text });
  const refused = refusedToken(ctx, req) ?? refusedTransfer(ctx, req);
  if (refused) return refused;
  const t = storedTransfer(ctx, req.body as Json);
  if (ctx.fault('op9-extra-members-uuid'))
    Object.assign(t, { createdAt: '2026-01-02T03:04:05Z', transactionId: req.headers['transactionid'] });
  if (ctx.fault('op9-minimal-answer')) return json(200, { id: t.id, status: t.status, confirmation: t.confirmation });
  if (ctx.fault('op9-masks-accounts-shortens-memo')) {
    const shown: Record<string, any> = JSON.parse(JSON.stringify(t));
    for (const k of ['fromAccountId', 'toAccountId'])
      if (typeof shown[k] === 'string') shown[k] = `****${shown[k].slice(-4)}`;
    if (typeof shown.memo === 'string') shown.memo = shown.memo.slice(0, 12);
    return json(200, shown);
  }
  const labelled: Record<string, string> = ctx.fault('op9-json-labelled-text') ? { 'content-type': 'text/plain' } : {};
  return json(ctx.fault('op9-answers-201') ? 201 : 200, JSON.parse(JSON.stringify(t)), labelled);
}

/** The OAuth2 access token: none, the one that lacks authorization, or one never issued. */
function refusedToken(ctx: AreaContext, req: Req): Res | undefined {
  const m = /^Bearer\s+(.+)$/i.exec(req.headers['authorization'] ?? '');
  const token = m?.[1];
  if (!req.headers['authorization']) {
    if (!ctx.fault('op9-serves-without-token'))
      return transferError(ctx, 401, 'UNAUTHENTICATED', 'an OAuth2 access token is required');
  } else if (token === REFERENCE_CREDENTIALS.transfersForbiddenToken) {
    return transferError(
      ctx,
      ctx.fault('op9-forbidden-token-401') ? 401 : 403,
      'FORBIDDEN',
      'this token is not authorized to create transfers',
    );
  } else if (
    token !== REFERENCE_CREDENTIALS.transfersToken &&
    !(ctx.fault('op9-token-prefix-match') && token?.startsWith(REFERENCE_CREDENTIALS.transfersToken))
  ) {
    const status = ctx.fault('op9-invalid-token-403') ? 403 : 401;
    return transferError(ctx, status, 'UNAUTHENTICATED', 'the access token is not valid');
  }
  return undefined;
}

/** The transactionId header, the body's types, the accounts and the schedule. */
function refusedTransfer(ctx: AreaContext, req: Req): Res | undefined {
  const { state } = ctx;
  const invalid = ctx.fault('op9-invalid-answered-422') ? 422 : 400;
  if (!req.headers['transactionid'] && !ctx.fault('op9-accepts-missing-transactionId'))
    return transferError(ctx, invalid, 'TRANSACTION_ID_REQUIRED', 'the transactionId header is required');
  if (req.body === INVALID_JSON || req.body === undefined)
    return transferError(ctx, invalid, 'INVALID_BODY', 'the body must be a JSON Transfer object');
  const problem = typeProblem(req.body, ctx.fault('op9-ignores-assigned-member-types'));
  if (problem && !ctx.fault('op9-accepts-mistyped-body')) return transferError(ctx, invalid, 'INVALID_FIELD', problem);
  const b = req.body as Json;
  const unknown = [b.fromAccountId, b.toAccountId].find(
    (a) => state.transferAccounts && !state.transferAccounts.has(String(a)),
  );
  if (unknown !== undefined)
    return transferError(ctx, 400, 'ACCOUNT_NOT_FOUND', `no account ${JSON.stringify(unknown)}`);
  if (b.schedule?.dayOfWeek !== undefined && ctx.fault('op9-refuses-day-of-week'))
    return transferError(ctx, invalid, 'INVALID_FIELD', 'schedule.dayOfWeek must be a day name');
  // Variant op9-single-execution-schedules: a schedule of more than one execution or day of the month is refused.
  const many = (s: Json | undefined) =>
    !!s && ((s.numberOfExecutions ?? 1) > 1 || (Array.isArray(s.daysOfMonth) && s.daysOfMonth.length > 1));
  if (many(b.schedule) && ctx.fault('op9-single-execution-schedules'))
    return transferError(ctx, invalid, 'INVALID_FIELD', 'only schedules of one execution are supported');
  return undefined;
}

/** The Transfer created from the request's body, stored (with a fault, other values than the request's). */
function storedTransfer(ctx: AreaContext, b: Json): Json {
  const id = ctx.fault('op9-extra-members-uuid') ? randomUUID() : ctx.state.nextId('trf');
  const t: Json = {
    id,
    fromAccountHolderId: b.fromAccountHolderId,
    toAccountHolderId: b.toAccountHolderId,
    fromAccountId: b.fromAccountId,
    toAccountId: b.toAccountId,
    amount: { ...b.amount, ...roundedToOneDecimal(ctx, b.amount) },
    memo: b.memo,
    paymentOption: b.paymentOption ?? 'DEFAULT',
    previousYearContribution: b.previousYearContribution ?? false,
    status: ctx.fault('op9-unlisted-status') ? 'COMPLETED' : 'SUCCESS',
    confirmation: `CONF-${id}`,
    fee: { currencyCode: b.amount?.currencyCode ?? 'AED', amount: 0 },
    notificationMessage: 'Transfer accepted',
  };
  if (b.schedule) t.schedule = scheduleOf(ctx, b.schedule as Json);
  if (ctx.fault('op9-assigns-own-values')) assignsOwnValues(t, id);
  if (ctx.fault('op9-amount-as-string')) t.amount.amount = String(t.amount.amount);
  if (ctx.fault('op9-response-not-reflecting')) t.amount.amount = Number(t.amount.amount) * 100;
  ctx.state.transfers.push(t);
  return t;
}

function scheduleOf(ctx: AreaContext, s: Json): Json {
  const schedule: Json = {
    ...s,
    nextExecutionDate: s.startDate,
    finalExecutionDate: s.endDate ?? s.startDate,
    remainingNumberOfExecutions: s.numberOfExecutions ?? 1,
  };
  if (ctx.fault('op9-days-of-month-zero-based') && Array.isArray(schedule.daysOfMonth))
    schedule.daysOfMonth = schedule.daysOfMonth.map((d: number) => d - 1);
  if (ctx.fault('op9-counts-as-strings'))
    for (const k of ['numberOfExecutions', 'remainingNumberOfExecutions'])
      if (schedule[k] !== undefined) schedule[k] = String(schedule[k]);
  if (ctx.fault('op9-date-time-for-date'))
    for (const k of ['startDate', 'endDate', 'nextExecutionDate', 'finalExecutionDate'])
      if (schedule[k]) schedule[k] = `${schedule[k]}T00:00:00Z`;
  return schedule;
}

/** Fault op9-assigns-own-values: what a target assigns or computes itself, whatever the request carried. */
function assignsOwnValues(t: Json, id: string): void {
  Object.assign(t, {
    confirmation: `C${id.replace(/\D/g, '')}`,
    fee: { currencyCode: t.amount?.currencyCode ?? 'AED', amount: 0.25 },
    payoffAmount: { currencyCode: t.amount?.currencyCode ?? 'AED', amount: 0 },
    notificationMessage: 'Your transfer is scheduled',
  });
  if (t.schedule)
    Object.assign(t.schedule, {
      nextExecutionDate: t.schedule.startDate,
      finalExecutionDate: t.schedule.startDate,
      remainingNumberOfExecutions: 0,
    });
}
