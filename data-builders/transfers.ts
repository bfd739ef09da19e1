import type { Faker } from '@faker-js/faker';
import type { TargetConfig } from '../harness/config';

/** Which token a transfer request carries. */
export type TransferCredentials = 'valid' | 'none' | 'invalid' | 'forbidden';

/**
 * Operation 9's headers: Authorization (Bearer, an OAuth2 access token), transactionId (unique per
 * request), Accept and Content-Type with the value application/json.
 */
export function transferHeaders(f: Faker, cfg: TargetConfig, o: { credentials?: TransferCredentials; omitTransactionId?: boolean } = {}): Record<string, string> {
  const h: Record<string, string> = { Accept: 'application/json', 'Content-Type': 'application/json', transactionId: f.string.uuid() };
  const credentials = o.credentials ?? 'valid';
  if (credentials === 'valid') h.Authorization = `Bearer ${cfg.credentials.transfersToken ?? ''}`;
  if (credentials === 'forbidden') h.Authorization = `Bearer ${cfg.credentials.transfersForbiddenToken ?? ''}`;
  if (credentials === 'invalid') h.Authorization = `Bearer invalid-${f.string.alphanumeric(24)}`;
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
 * A scheduled transfer with only the enumeration values the spec shows: one execution (frequency
 * ONETIME, lifeType ENDDATE) a week from today, on that day of the month.
 */
export function scheduledTransfer(f: Faker, cfg: TargetConfig, runId: string, now = new Date()): Record<string, unknown> {
  const startDate = isoDate(7, now);
  return {
    ...oneTimeTransfer(f, cfg, runId),
    schedule: { lifeType: 'ENDDATE', startDate, endDate: startDate, numberOfExecutions: 1, frequency: 'ONETIME', daysOfMonth: [Number(startDate.slice(8, 10))] },
  };
}
