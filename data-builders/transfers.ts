import type { Faker } from '@faker-js/faker';
import type { TargetConfig } from '../harness/config';
import type { NearVariant } from '../harness/credential-variants';
import { nearOf } from './disclosures';

/** Which token a transfer request carries. */
export type TransferCredentials = 'valid' | 'none' | 'invalid' | 'forbidden' | `near-${NearVariant}`;

/**
 * Operation 9's headers: Authorization (Bearer, an OAuth2 access token), transactionId (unique per
 * request), Accept and Content-Type with the value application/json.
 */
export function transferHeaders(
  f: Faker,
  cfg: TargetConfig,
  o: { credentials?: TransferCredentials; omitTransactionId?: boolean } = {},
): Record<string, string> {
  const h: Record<string, string> = {
    Accept: 'application/json',
    'Content-Type': 'application/json',
    transactionId: f.string.uuid(),
  };
  const credentials = o.credentials ?? 'valid';
  if (credentials === 'valid') h.Authorization = `Bearer ${cfg.credentials.transfersToken ?? ''}`;
  if (credentials === 'forbidden') h.Authorization = `Bearer ${cfg.credentials.transfersForbiddenToken ?? ''}`;
  if (credentials === 'invalid') h.Authorization = `Bearer invalid-${f.string.alphanumeric(24)}`;
  if (credentials.startsWith('near-'))
    h.Authorization = `Bearer ${nearOf(cfg.credentials.transfersToken, credentials.slice(5) as NearVariant)}`;
  if (o.omitTransactionId) delete h.transactionId;
  return h;
}

/** A date as the spec writes it, YYYY-MM-DD, days from today (UTC). */
export function isoDate(daysFromToday: number, now = new Date()): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + daysFromToday));
  return d.toISOString().slice(0, 10);
}

/**
 * A one-time transfer between the configured accounts, of the configured amount (the smallest the
 * target permits), with a memo that names the run.
 */
export function oneTimeTransfer(f: Faker, cfg: TargetConfig, runId: string): Record<string, unknown> {
  const t = cfg.testData.transfer;
  const body: Record<string, unknown> = {
    fromAccountId: t.fromAccountId,
    toAccountId: t.toAccountId,
    amount: { currencyCode: t.currencyCode, amount: t.amount },
    memo: `dbsi-conformance ${runId} ${f.string.alphanumeric(6)}`,
  };
  if (t.fromAccountHolderId) body.fromAccountHolderId = t.fromAccountHolderId;
  if (t.toAccountHolderId) body.toAccountHolderId = t.toAccountHolderId;
  return body;
}

/**
 * The first weekday (Monday to Friday) at least a week from today. On those days the two usual
 * numberings of dayOfWeek ("not shown"), 0–6 from Sunday and 1–7 from Monday (ISO), give the same number.
 */
export function weekdayAWeekAhead(now = new Date()): { date: string; dayOfWeek: number } {
  for (let days = 7; ; days++) {
    const date = isoDate(days, now);
    const dayOfWeek = new Date(`${date}T00:00:00Z`).getUTCDay();
    if (dayOfWeek >= 1 && dayOfWeek <= 5) return { date, dayOfWeek };
  }
}

/**
 * A scheduled transfer that carries every member the spec documents for Transfer, Money and Schedule,
 * each with its documented type, and only the enumeration values the spec shows: one execution
 * (frequency ONETIME, lifeType ENDDATE) on a weekday a week or more ahead. Money stays within the
 * configured amount: amount and payoffAmount are that amount, the fee is 0. The members the target
 * assigns itself (id, status, confirmation, notificationMessage, the execution dates and the remaining
 * count) carry values that name the run or repeat the schedule. The account holder ids are sent only
 * where configured (a made-up holder would be refused).
 */
export function scheduledTransfer(
  f: Faker,
  cfg: TargetConfig,
  runId: string,
  now = new Date(),
): Record<string, unknown> {
  const { date, dayOfWeek } = weekdayAWeekAhead(now);
  const t = cfg.testData.transfer;
  return {
    id: `dbsi-${runId}-${f.string.alphanumeric({ length: 10, casing: 'lower' })}`,
    ...oneTimeTransfer(f, cfg, runId),
    paymentOption: 'DEFAULT',
    previousYearContribution: false,
    status: 'SUCCESS',
    confirmation: `dbsi-conformance ${runId}`,
    fee: { currencyCode: t.currencyCode, amount: 0 },
    payoffAmount: { currencyCode: t.currencyCode, amount: t.amount },
    notificationMessage: `dbsi-conformance ${runId}: a conformance test transfer`,
    schedule: {
      lifeType: 'ENDDATE',
      startDate: date,
      endDate: date,
      numberOfExecutions: 1,
      frequency: 'ONETIME',
      dayOfWeek,
      daysOfMonth: [Number(date.slice(8, 10))],
      nextExecutionDate: date,
      finalExecutionDate: date,
      remainingNumberOfExecutions: 1,
    },
  };
}
