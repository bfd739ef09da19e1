import fc from 'fast-check';
import { AMOUNTS, LARGE_AMOUNT, type Refused, type ScheduleChoice, type TransferSequence } from './transfer-sequence';

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
 * A transfer with credentials a refusal is documented for (none, a token never issued, Basic, the token that lacks
 * authorization where one is configured), at any point: after successes, after the same refusal.
 */
class RefusedCredentials implements Cmd {
  constructor(readonly refused: Refused) {}
  check = (m: TransferModel) =>
    this.refused !== 'forbidden' || !!m.seq.ground.t.config.credentials.transfersForbiddenToken;
  run = (_m: TransferModel, r: TransferSequence) => r.refused(this.refused);
  toString = () => `refused ${this.refused}`;
}

/** A transfer whose memo is the empty string. */
class EmptyMemo implements Cmd {
  check = () => true;
  run = (_m: TransferModel, r: TransferSequence) => r.emptyMemo();
  toString = () => 'empty memo';
}

/** A body that is not JSON. */
class NotJson implements Cmd {
  check = () => true;
  run = (_m: TransferModel, r: TransferSequence) => r.notJson();
  toString = () => 'not JSON';
}

const REFUSED: Refused[] = ['none', 'invalid', 'forbidden', 'basic'];

/**
 * Tours, run before the random sequences: each refusal the spec documents twice in a row and after a success (a
 * target whose answer to a credential depends on what it answered before shows there), then the boundaries of the
 * body (an empty memo, a body that is not JSON, the largest amount).
 */
export function transferTours(configured: number): Cmd[][] {
  return [
    [
      ...REFUSED.flatMap((r) => [new RefusedCredentials(r), new RefusedCredentials(r)]),
      new OneTime(configured),
      ...REFUSED.map((r) => new RefusedCredentials(r)),
    ],
    [new EmptyMemo(), new NotJson(), new OneTime(configured), new NotJson(), new EmptyMemo()],
    // The largest amount, alone and scheduled (a value a target may serialise another way past some size).
    [new OneTime(LARGE_AMOUNT), new Scheduled(LARGE_AMOUNT, { dayOfWeek: 2, days: 1, numberOfExecutions: 2 })],
  ];
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
    fc.constantFrom(...REFUSED).map((r): Cmd => new RefusedCredentials(r)),
    fc.constant<Cmd>(new EmptyMemo()),
    fc.constant<Cmd>(new NotJson()),
  ];
}
