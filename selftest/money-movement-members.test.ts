import { describe, expect, test } from 'vitest';
import { validate } from '../harness/schemas';
import { REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { runAreas } from './_reference';
import { explored } from './_explored-transfers';

const TRANSFER = [
  'id',
  'fromAccountHolderId',
  'toAccountHolderId',
  'fromAccountId',
  'toAccountId',
  'amount',
  'memo',
  'paymentOption',
  'previousYearContribution',
  'status',
  'confirmation',
  'fee',
  'payoffAmount',
  'notificationMessage',
  'schedule',
];
const MONEY = ['currencyCode', 'amount'];
const SCHEDULE = [
  'lifeType',
  'startDate',
  'endDate',
  'numberOfExecutions',
  'frequency',
  'dayOfWeek',
  'daysOfMonth',
  'nextExecutionDate',
  'finalExecutionDate',
  'remainingNumberOfExecutions',
];

/** What the transfer cases put on the wire, seen from the reference target: every documented member, within the safety
 * budget. */
describe('the transfer requests of a run', () => {
  test(
    'send every member of Transfer, Money and Schedule at least once, typed as documented; no ' +
      'transfer that can succeed beyond the two; no amount above the configured one',
    async () => {
      const { target } = await runAreas({ areas: ['money-movement'] });
      // The hand-written tests' transfers (the explorer's, on the embedded target only, name themselves in the memo).
      const transfers = target.state.seenRequests.filter(
        (r) => r.path.endsWith('/db-transfers/v1/transfers') && !explored(r.text),
      );
      const bodies = transfers
        .map((r) => {
          try {
            return JSON.parse(r.text) as Record<string, any>;
          } catch {
            return undefined;
          }
        })
        .filter((b) => b !== undefined);
      const sent = new Set(bodies.flatMap((b) => Object.keys(b)));
      expect(TRANSFER.filter((m) => !sent.has(m))).toEqual([]);
      const monies = bodies.flatMap((b) =>
        ['amount', 'fee', 'payoffAmount'].map((k) => b[k]).filter((m) => m && typeof m === 'object'),
      );
      expect(MONEY.filter((m) => !monies.some((x) => m in x))).toEqual([]);
      const schedules = bodies.map((b) => b.schedule).filter(Boolean);
      expect(SCHEDULE.filter((m) => !schedules.some((s) => m in s))).toEqual([]);
      // Every member typed as documented, in the body that carries them all.
      const full = bodies.find((b) => TRANSFER.every((m) => m in b));
      expect(full && validate('transfer', full)).toEqual([]);
      const created = target.state.transfers.filter((t) => !explored(JSON.stringify(t)));
      expect(created.length, 'transfers created on a conformant target: no more than before').toBe(2);
      for (const m of monies)
        if (typeof m.amount === 'number') expect(m.amount).toBeLessThanOrEqual(REFERENCE_TEST_DATA.transfer.amount);
      // The day of the week falls on Monday–Friday, where the two usual numberings agree (in the schedules whose
      // dates and day are of their documented types: the generated cases break them one at a time).
      const typed = schedules.filter(
        (s) => typeof s === 'object' && typeof s.startDate === 'string' && Number.isInteger(s.dayOfWeek),
      );
      expect(typed.length).toBeGreaterThan(0);
      for (const s of typed) expect(new Date(`${s.startDate}T00:00:00Z`).getUTCDay()).toBe(s.dayOfWeek);
    },
  );
});
