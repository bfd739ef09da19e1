import fc from 'fast-check';
import { AMOUNTS, type ScheduleChoice, type TransferSequence } from './transfer-sequence';

/**
 * The explorer's commands on transfers (operation 9): one-time and scheduled transfers with every amount of
 * AMOUNTS and the configured one, schedules with each value the spec shows and the integers it leaves free, the same
 * transfer again (with and without Authorization), and previousYearContribution true and false with other currency
 * codes. The model is the bodies sent (a repeat needs one); the rules judge every answer.
 */

export interface TransferModel {
  seq: TransferSequence;
}
type Cmd = fc.AsyncCommand<TransferModel, TransferSequence>;

class OneTime implements Cmd {
  constructor(readonly amount: number) {}
  check = () => true;
  run = (_m: TransferModel, r: TransferSequence) => r.oneTime(this.amount);
  toString = () => `one-time ${this.amount}`;
}

class Scheduled implements Cmd {
  constructor(
    readonly amount: number,
    readonly s: ScheduleChoice,
  ) {}
  check = () => true;
  run = (_m: TransferModel, r: TransferSequence) => r.scheduled(this.amount, this.s);
  toString = () =>
    `scheduled ${this.amount} dow ${this.s.dayOfWeek} days ${this.s.days} n ${this.s.numberOfExecutions}`;
}

class Again implements Cmd {
  check = (m: TransferModel) => m.seq.bodies.length > 0;
  run = (_m: TransferModel, r: TransferSequence) => r.again();
  toString = () => 'again';
}

/** A one-time transfer with previousYearContribution true or false, in the currency shown or another. */
class Varied implements Cmd {
  constructor(
    readonly amount: number,
    readonly previousYear: boolean,
    readonly currency: string,
  ) {}
  check = () => true;
  run = (_m: TransferModel, r: TransferSequence) => r.varied(this.amount, this.previousYear, this.currency);
  toString = () => `one-time ${this.amount} ${this.currency} previousYearContribution ${this.previousYear}`;
}

/** The last transfer served again without Authorization (an authentication check after successes). */
class Unauthenticated implements Cmd {
  check = (m: TransferModel) => m.seq.served.length > 0;
  run = (_m: TransferModel, r: TransferSequence) => r.unauthenticated();
  toString = () => 'again without Authorization';
}

/**
 * Currency codes: the one shown (AED), the configured one, and two others ("Value sets of currencyCode beyond the
 * values listed: not shown": a refusal is accepted).
 */
export const CURRENCIES = ['AED', 'USD', 'EUR'] as const;

/** Every command; `configured`: the configured amount (the smallest the target permits), sent too. */
export function transferCommandArbitraries(configured: number, configuredCurrency = 'AED'): fc.Arbitrary<Cmd>[] {
  const amount = fc.constantFrom(configured, ...AMOUNTS.filter((a) => a !== configured));
  // dayOfWeek: weekdays, on which the two usual numberings ("not shown") agree (data-builders/transfers.ts).
  const schedule = fc.record({
    dayOfWeek: fc.integer({ min: 1, max: 5 }),
    days: fc.integer({ min: 1, max: 3 }),
    numberOfExecutions: fc.integer({ min: 1, max: 3 }),
  });
  return [
    amount.map((a): Cmd => new OneTime(a)),
    fc.tuple(amount, schedule).map(([a, s]): Cmd => new Scheduled(a, s)),
    fc.constant<Cmd>(new Again()),
    fc
      .tuple(amount, fc.boolean(), fc.constantFrom(configuredCurrency, ...CURRENCIES))
      .map(([a, p, c]): Cmd => new Varied(a, p, c)),
    fc.constant<Cmd>(new Unauthenticated()),
  ];
}
