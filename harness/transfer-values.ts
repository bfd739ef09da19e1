import type { Verifier } from './rules/exchange';
import { shown_value } from './checks';
import type { HttpResult } from './log/entry';
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

/** Members a target may answer in another representation of the same value (masked, shortened). */
const MASKABLE = ['fromAccountId', 'toAccountId', 'fromAccountHolderId', 'toAccountHolderId'];

/**
 * An account or holder id answered masked: as long as the id sent, or longer or shorter only by the mask, its
 * unmasked characters those of the id sent at the same place from the end (****0300, XXXX-0300, •••0300).
 */
function masked(answered: string, sent: string): boolean {
  const m = /^([*Xx•#.\- ]+)(.+)$/.exec(answered);
  return !!m && m[1]!.replace(/[\- ]/g, '').length > 0 && sent.endsWith(m[2]!) && m[2]!.length < sent.length;
}

/**
 * What the answer must repeat (sentValues) less the members it answers in another representation of the value
 * sent, which the spec leaves open: an account or holder id masked (banks show account numbers so), a memo
 * shortened to a prefix of the one sent or with its surrounding white space trimmed ("size limits: not shown").
 */
export function reflectedValues(answer: unknown, body: Json): Record<string, unknown> {
  const expected = sentValues(body);
  if (answer === null || typeof answer !== 'object') return expected;
  const a = answer as Json;
  for (const k of MASKABLE)
    if (typeof a[k] === 'string' && typeof expected[k] === 'string' && masked(a[k], expected[k] as string))
      delete expected[k];
  const memo = expected.memo;
  if (typeof a.memo === 'string' && typeof memo === 'string' && a.memo !== memo) {
    const shown = a.memo.trim();
    if (shown.length > 0 && memo.trim().startsWith(shown)) delete expected.memo;
  }
  return expected;
}

/**
 * Enumerations whose value sets are open: an unlisted value is an observation. A currency the request
 * carried is the client's choice (testData.transfer.currencyCode, or the explorer's), so a Money of the
 * answer is observed only where its currency is none the request sent.
 */
export function observeEnumerations(t: Verifier, res: HttpResult, tr: Json, sent: Json): void {
  const sentCurrencies = new Set([sent.amount?.currencyCode, sent.fee?.currencyCode, sent.payoffAmount?.currencyCode]);
  const currency = (m: Json | undefined) => (sentCurrencies.has(m?.currencyCode) ? undefined : m?.currencyCode);
  const seen: Array<[unknown, readonly string[], string]> = [
    [currency(tr.amount), SHOWN.currencyCode, 'amount.currencyCode'],
    [currency(tr.fee), SHOWN.currencyCode, 'fee.currencyCode'],
    [currency(tr.payoffAmount), SHOWN.currencyCode, 'payoffAmount.currencyCode'],
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
