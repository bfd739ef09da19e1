import { describe, expect, test } from 'vitest';
import { reflectedValues } from '../harness/transfer-values';

/**
 * OP9-RESPONSE-REFLECTS-REQUEST: the values a Transfer answer must repeat. Another representation of the same
 * value (a masked account id, a memo shortened or trimmed: "size limits: not shown") is no difference; another
 * account, another amount or another memo are.
 */
const body = {
  fromAccountId: 'acct-100200',
  toAccountId: 'acct-100300',
  amount: { amount: 0.01, currencyCode: 'USD' },
  memo: 'dbsi-conformance run 42',
};

describe('what a Transfer answer must repeat', () => {
  test('masked account ids and a shortened or trimmed memo are the values sent', () => {
    const answer = { ...body, fromAccountId: '****0200', toAccountId: 'XXXX-0300', memo: 'dbsi-conform' };
    expect(Object.keys(reflectedValues(answer, body)).sort()).toEqual(['amount.amount', 'amount.currencyCode']);
  });

  test('another account, a mask over other digits, another memo and another amount are still compared', () => {
    const answer = { ...body, fromAccountId: 'acct-999999', toAccountId: '****9999', memo: 'something else' };
    expect(Object.keys(reflectedValues(answer, body)).sort()).toEqual([
      'amount.amount',
      'amount.currencyCode',
      'fromAccountId',
      'memo',
      'toAccountId',
    ]);
  });

  test('an empty memo answered for a memo sent is compared (nothing of it shown is not a shortening)', () => {
    expect(reflectedValues({ ...body, memo: '' }, body)).toHaveProperty('memo');
  });
});
