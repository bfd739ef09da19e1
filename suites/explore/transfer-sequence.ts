import { isoDate, scheduledTransfer, oneTimeTransfer, transferHeaders } from '../../data-builders/transfers';
import type { CaseContext } from '../../harness/case';
import type { HttpResult } from '../../harness/http/client';
import type { Seen } from '../../harness/rules/exchange';
import type { Sender } from './sequence';
import { StopSequence } from './sequence';

/**
 * One explored sequence of transfers (operation 9): the requests the commands send, the log the rules judge and the
 * numbered lines a report shows. The interface has no read of a transfer: its answer is the read-back (the Transfer
 * it answers reflects what was sent, OP9-RESPONSE-REFLECTS-REQUEST). Which schedules a target takes is not shown:
 * every exchange is judged as a capture would judge it (authority unknown), so a refusal is accepted and only a
 * 2xx answer is held to the rules.
 */

/** Amounts with fractions: one and two decimals, small and large (the configured amount is sent too). */
export const AMOUNTS = [0.01, 0.1, 1.25, 10.5, 1234.56] as const;

/** A schedule: the values the spec shows (frequency ONETIME, lifeType ENDDATE) with the integers it leaves free. */
export interface ScheduleChoice {
  dayOfWeek: number;
  /** How many days of the month (1: the start date's day). */
  days: number;
  numberOfExecutions: number;
}

/** In the memo of every transfer the explorer sends: a person (and a self-test) tells them from the others. */
export const EXPLORER_MEMO = 'explored';

export interface TransferGround {
  t: CaseContext;
}

export class TransferSequence {
  readonly log: Seen[] = [];
  readonly results: HttpResult[] = [];
  readonly lines: string[] = [];
  /** The bodies sent, in order (a command may send one again). */
  readonly bodies: Array<Record<string, unknown>> = [];
  /** The bodies a 2xx answered: a repeat without Authorization takes the last (the target took it). */
  readonly served: Array<Record<string, unknown>> = [];
  /** The answers other than 2xx (a refusal of a schedule is the target's choice), as evidence. */
  readonly refusals: HttpResult[] = [];
  /** The target answered 429 or 5xx (why): the sequence ends, and no other starts. */
  unsteady?: string;

  constructor(
    readonly ground: TransferGround,
    private readonly sender: Sender,
    private readonly fails: (log: readonly Seen[]) => boolean = () => false,
  ) {}

  private async send(line: string, body: Record<string, unknown>, unauthenticated = false): Promise<void> {
    const { t } = this.ground;
    body.memo = `dbsi-conformance ${t.settings.runId} ${EXPLORER_MEMO} ${t.faker.string.alphanumeric(6)}`;
    const headers = transferHeaders(t.faker, t.config, unauthenticated ? { credentials: 'none' } : {});
    const res = await this.sender({
      operation: 'createTransfer',
      headers,
      body,
      label: `explore: ${line}`,
    });
    this.bodies.push(body);
    this.results.push(res);
    if (res.status < 200 || res.status >= 300) this.refusals.push(res);
    else if (!unauthenticated) this.served.push(body);
    if (res.logged) this.log.push({ ...res.logged, keepsAuthorization: true, authority: undefined });
    this.lines.push(`${this.lines.length + 1}. ${line} → ${res.status}`);
    if (res.status === 429 || res.status >= 500) this.unsteady ??= `answered ${res.status}`;
    if (this.unsteady !== undefined || this.fails(this.log)) throw new StopSequence();
  }

  /** A one-time transfer (no schedule) of `amount`. */
  oneTime(amount: number): Promise<void> {
    const { t } = this.ground;
    const body = oneTimeTransfer(t.faker, t.config, t.settings.runId);
    body.amount = { ...(body.amount as object), amount };
    return this.send(`one-time transfer of ${amount}`, body);
  }

  /** A scheduled transfer of `amount`: every member documented, the schedule as chosen. */
  scheduled(amount: number, s: ScheduleChoice): Promise<void> {
    const { t } = this.ground;
    const body = scheduledTransfer(t.faker, t.config, t.settings.runId);
    const schedule = body.schedule as Record<string, unknown>;
    const start = String(schedule.startDate);
    const first = Number(start.slice(8, 10));
    const daysOfMonth = Array.from({ length: s.days }, (_, i) => ((first - 1 + 7 * i) % 28) + 1);
    const end = s.numberOfExecutions > 1 ? isoDate(31 * s.numberOfExecutions) : start;
    Object.assign(schedule, {
      dayOfWeek: s.dayOfWeek,
      daysOfMonth,
      numberOfExecutions: s.numberOfExecutions,
      remainingNumberOfExecutions: s.numberOfExecutions,
      endDate: end,
      finalExecutionDate: end,
    });
    body.amount = { ...(body.amount as object), amount };
    body.payoffAmount = { ...(body.payoffAmount as object), amount };
    const shown =
      `scheduled transfer of ${amount} (dayOfWeek ${s.dayOfWeek}, daysOfMonth ${JSON.stringify(daysOfMonth)}, ` +
      `${s.numberOfExecutions} execution${s.numberOfExecutions === 1 ? '' : 's'})`;
    return this.send(shown, body);
  }

  /**
   * A one-time transfer with a value the other commands never send: previousYearContribution true or false (a
   * boolean, "true" as well as false), and a currency code other than the one shown (AED) where `currencyCode` says
   * so. Which values a target takes is not shown: a refusal is accepted, a 2xx answer held to the rules.
   */
  varied(amount: number, previousYearContribution: boolean, currencyCode: string): Promise<void> {
    const { t } = this.ground;
    const body = oneTimeTransfer(t.faker, t.config, t.settings.runId);
    body.amount = { ...(body.amount as object), amount, currencyCode };
    for (const k of ['fee', 'payoffAmount'])
      if (typeof body[k] === 'object' && body[k] !== null) body[k] = { ...(body[k] as object), currencyCode };
    body.previousYearContribution = previousYearContribution;
    return this.send(
      `one-time transfer of ${amount} ${currencyCode}, previousYearContribution ${previousYearContribution}`,
      body,
    );
  }

  /**
   * The last body a 2xx answered, again without Authorization: "an unauthenticated transfer request returns 401"
   * after any sequence, not only as a first request. A body the target took (which checks it runs first is not
   * shown: a body it refuses might be refused before the credentials are read).
   */
  unauthenticated(): Promise<void> {
    const last = this.served.at(-1)!;
    return this.send('the same transfer again without Authorization', structuredClone(last), true);
  }

  /** The last body again, with a new transactionId (a repeated transfer). */
  again(): Promise<void> {
    const last = this.bodies.at(-1)!;
    return this.send('the same transfer again (a new transactionId)', structuredClone(last));
  }
}
