import { describe, expect, test } from 'vitest';
import { validate } from '../harness/schemas';

/** The Transfer, Money, Schedule and transfer error shapes validate as the spec shows them; wrong types do not. */

const money = { currencyCode: 'AED', amount: 0.01 };
const schedule = {
  lifeType: 'ENDDATE',
  startDate: '2026-12-01',
  endDate: '2026-12-31',
  numberOfExecutions: 2,
  frequency: 'ONETIME',
  dayOfWeek: 1,
  daysOfMonth: [1, 15],
  nextExecutionDate: '2026-12-01',
  finalExecutionDate: '2026-12-15',
  remainingNumberOfExecutions: 2,
};
const transfer = {
  id: 't1',
  fromAccountHolderId: 'h1',
  toAccountHolderId: 'h2',
  fromAccountId: 'a1',
  toAccountId: 'a2',
  amount: money,
  memo: 'm',
  paymentOption: 'DEFAULT',
  previousYearContribution: false,
  status: 'SUCCESS',
  confirmation: 'c',
  fee: { currencyCode: 'AED', amount: 0 },
  payoffAmount: money,
  notificationMessage: 'n',
  schedule,
};

describe('schemas of operation 9 accept the shapes the spec shows', () => {
  test.each([
    ['transfer', transfer],
    ['transfer', {}],
    [
      'transfer',
      {
        ...transfer,
        status: 'PENDING',
        paymentOption: 'EXPEDITED',
        amount: { currencyCode: 'USD', amount: 5 },
        extra: true,
      },
    ],
    ['money', money],
    ['money', { currencyCode: 'AED', amount: 10 }],
    ['schedule', schedule],
    ['schedule', { ...schedule, frequency: 'MONTHLY', lifeType: 'NOEND' }],
    ['transfer-error', { code: 'E1', message: 'm' }],
  ])('%s validates %j', (schema, data) => {
    expect(validate(schema, data)).toEqual([]);
  });
});

describe('schemas of operation 9 reject a wrong type or a missing member', () => {
  test.each([
    ['money', { ...money, amount: '0.01' }, '/amount must be number'],
    ['money', { ...money, currencyCode: 784 }, '/currencyCode must be string'],
    ['transfer', { ...transfer, amount: { ...money, amount: '0.01' } }, '/amount/amount must be number'],
    ['transfer', { ...transfer, fromAccountId: 100 }, '/fromAccountId must be string'],
    ['transfer', { ...transfer, previousYearContribution: 'false' }, '/previousYearContribution must be boolean'],
    ['transfer', { ...transfer, fee: 0 }, '/fee must be object'],
    [
      'transfer',
      { ...transfer, schedule: { ...schedule, startDate: '2026-12-01T00:00:00Z' } },
      '/schedule/startDate must match pattern',
    ],
    ['schedule', { ...schedule, endDate: '2026-12-01T00:00:00Z' }, '/endDate must match pattern'],
    ['schedule', { ...schedule, nextExecutionDate: '01/12/2026' }, '/nextExecutionDate must match pattern'],
    ['schedule', { ...schedule, finalExecutionDate: '2026-13-45' }, '/finalExecutionDate must match format'],
    ['schedule', { ...schedule, numberOfExecutions: 1.5 }, '/numberOfExecutions must be integer'],
    ['schedule', { ...schedule, remainingNumberOfExecutions: '2' }, '/remainingNumberOfExecutions must be integer'],
    ['schedule', { ...schedule, dayOfWeek: '1' }, '/dayOfWeek must be integer'],
    ['schedule', { ...schedule, daysOfMonth: 1 }, '/daysOfMonth must be array'],
    ['schedule', { ...schedule, daysOfMonth: [1, '15'] }, '/daysOfMonth/1 must be integer'],
    ['transfer-error', { code: 'E1' }, 'missing member message'],
    ['transfer-error', { message: 'm' }, 'missing member code'],
    ['transfer-error', { code: 403, message: 'm' }, '/code must be string'],
  ])('%s rejects %j', (schema, data, message) => {
    expect(validate(schema, data).join('; ')).toContain(message);
  });
});
