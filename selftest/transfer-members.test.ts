import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { SPEC_FILE } from '../harness/spec-location';
import { parseHar } from '../harness/traffic/har';
import { judgeHar } from '../harness/traffic/run';
import { SCHEDULE_MEMBERS, TRANSFER_MEMBERS } from '../harness/transfer-members';

/**
 * One list of the members the spec documents for Transfer and Schedule, read by the active suite
 * and by the traffic judge alike (OP9-REQUEST-EVERY-MEMBER).
 */

/** The field names of a resource's table in the spec ("### Transfer" … "| Field | …"). */
function specFields(resource: string): string[] {
  const spec = readFileSync(SPEC_FILE, 'utf8');
  const section = spec.split(`\n### ${resource}\n`)[1]!.split('\n### ')[0]!;
  return [...section.matchAll(/^\| (\w+) \|/gm)].map((m) => m[1]!).filter((f) => f !== 'Field');
}

const schedule = {
  lifeType: 'ENDDATE',
  startDate: '2026-12-07',
  endDate: '2026-12-07',
  numberOfExecutions: 1,
  frequency: 'ONETIME',
  dayOfWeek: 1,
  daysOfMonth: [7],
  nextExecutionDate: '2026-12-07',
  finalExecutionDate: '2026-12-07',
  remainingNumberOfExecutions: 1,
};
const money = { currencyCode: 'AED', amount: 0.01 };
const transfer = {
  id: 't-1',
  fromAccountHolderId: 'holder-1',
  toAccountHolderId: 'holder-2',
  fromAccountId: 'a-1',
  toAccountId: 'a-2',
  amount: money,
  memo: 'rent',
  paymentOption: 'DEFAULT',
  previousYearContribution: false,
  status: 'SUCCESS',
  confirmation: 'c-1',
  fee: money,
  payoffAmount: money,
  notificationMessage: 'done',
  schedule,
};

function judgeTransfer(body: object) {
  const entry = {
    startedDateTime: '2026-11-20T10:00:00.000Z',
    time: 5,
    request: {
      method: 'POST',
      url: 'https://bank.example/fin/db-transfers/v1/transfers',
      headers: [
        { name: 'authorization', value: 'Bearer t-0123456789' },
        { name: 'transactionid', value: 'x-1' },
      ],
      postData: { mimeType: 'application/json', text: JSON.stringify(body) },
    },
    response: { status: 200, headers: [], content: { text: JSON.stringify({ ...body, status: 'SUCCESS' }) } },
  };
  const har = parseHar(JSON.stringify({ log: { entries: [entry] } }));
  return judgeHar(har, undefined, { file: 'x.har', strict: false, specUrl: 's' });
}
const requirementsOf = async (body: object) => (await judgeTransfer(body)).cases.flatMap((c) => c.requirements);

describe('the members of a Transfer', () => {
  test("are the fields of the spec's Transfer and Schedule tables, as the schemas list them", () => {
    expect(TRANSFER_MEMBERS).toEqual(specFields('Transfer'));
    expect(SCHEDULE_MEMBERS).toEqual(specFields('Schedule'));
  });

  test(
    'the traffic judge holds a transfer to OP9-REQUEST-EVERY-MEMBER when it carries all of them, the account ' +
      'holder ids only where configured (without them, to OP9-REQUEST too: a log cannot tell)',
    async () => {
      const every = await requirementsOf(transfer);
      expect(every).toContain('OP9-REQUEST-EVERY-MEMBER');
      expect(every).not.toContain('OP9-REQUEST');
      const { fromAccountHolderId: _from, toAccountHolderId: _to, ...withoutHolders } = transfer;
      const holdersUnsent = await requirementsOf(withoutHolders);
      expect(holdersUnsent).toContain('OP9-REQUEST-EVERY-MEMBER');
      expect(holdersUnsent).toContain('OP9-REQUEST');
      const { dayOfWeek: _day, ...scheduleWithoutDay } = schedule;
      const { memo: _memo, ...withoutMemo } = transfer;
      for (const partial of [{ ...transfer, schedule: scheduleWithoutDay }, withoutMemo]) {
        const judged = await requirementsOf(partial);
        expect(judged).toContain('OP9-REQUEST');
        expect(judged).not.toContain('OP9-REQUEST-EVERY-MEMBER');
      }
    },
  );
});
