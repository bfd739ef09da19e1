import type { Verifier } from './rules/exchange';
import { shown_value } from './checks';
import type { HttpResult } from './http/client';
import { SHOWN } from './shown-values';

/**
 * What operation 9's rule (harness/rules/transfers.ts, for both sources) holds a Transfer answer to, and
 * what the generated cases (harness/transfer-assigned.ts) derive the members a target assigns from.
 */

type Json = Record<string, any>;

/**
 * What the answer must repeat where it carries it: accounts and holders, amount and currency, memo,
 * payment option, previous-year contribution, and what the client chooses of the schedule. Not what a
 * target assigns or computes itself: id, status, confirmation, fee, payoffAmount, notificationMessage,
 * the next and final execution dates and the remaining count.
 */
export function sentValues(body: Json): Record<string, unknown> {
  const sent: Record<string, unknown> = {
    fromAccountId: body.fromAccountId,
    toAccountId: body.toAccountId,
    'amount.amount': body.amount.amount,
    'amount.currencyCode': body.amount.currencyCode,
    memo: body.memo,
  };
  for (const k of ['fromAccountHolderId', 'toAccountHolderId', 'paymentOption', 'previousYearContribution'])
    if (body[k] !== undefined) sent[k] = body[k];
  if (body.schedule)
    for (const k of ['lifeType', 'startDate', 'endDate', 'numberOfExecutions', 'frequency', 'dayOfWeek', 'daysOfMonth'])
      if (body.schedule[k] !== undefined) sent[`schedule.${k}`] = body.schedule[k];
  return sent;
}

/**
 * Enumerations whose value sets are open: an unlisted value is an observation. The amount's currency
 * is the configuration's choice (testData.transfer.currencyCode), so it is observed only where the
 * answer does not simply repeat it.
 */
export function observeEnumerations(t: Verifier, res: HttpResult, tr: Json, sent: Json): void {
  const seen: Array<[unknown, readonly string[], string]> = [
    [
      tr.amount?.currencyCode === sent.amount.currencyCode ? undefined : tr.amount?.currencyCode,
      SHOWN.currencyCode,
      'amount.currencyCode',
    ],
    [tr.fee?.currencyCode, SHOWN.currencyCode, 'fee.currencyCode'],
    [tr.payoffAmount?.currencyCode, SHOWN.currencyCode, 'payoffAmount.currencyCode'],
    [tr.paymentOption, SHOWN.paymentOption, 'paymentOption'],
    [tr.status, SHOWN.transferStatus, 'status'],
    [tr.schedule?.lifeType, SHOWN.lifeType, 'schedule.lifeType'],
    [tr.schedule?.frequency, SHOWN.frequency, 'schedule.frequency'],
  ];
  const present = seen.filter(([v]) => v !== undefined);
  if (present.length === 0)
    t.verify(
      'OP9-ENUM-VALUES',
      shown_value(undefined, [...new Set(seen.flatMap(([, shown]) => shown))], 'the enumerations of the Transfer', res),
    );
  for (const [v, shown, what] of present) t.verify('OP9-ENUM-VALUES', shown_value(v, shown, what, res));
}
