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

/**
 * Amounts with fractions: one and two decimals, small and large, up to seven digits before the point (the configured
 * amount is sent too). Limits: not shown, so a refusal of any of them is accepted; the explorer sends transfers to the
 * embedded reference target only.
 */
export const LARGE_AMOUNT = 1234567.89;
export const AMOUNTS = [0.01, 0.1, 1.25, 10.5, 1234.56, LARGE_AMOUNT] as const;

/** A schedule: the values the spec shows (frequency ONETIME, lifeType ENDDATE) with the integers it leaves free. */
export interface ScheduleChoice {
  dayOfWeek: number;
  /** How many days of the month (1: the start date's day). */
  days: number;
  numberOfExecutions: number;
}

/** In the memo of every transfer the explorer sends: a person (and a self-test) tells them from the others. */
export const EXPLORER_MEMO = 'explored';

/** Credentials a refusal is documented for (see TransferSequence.refused). */
export type Refused = 'none' | 'invalid' | 'forbidden' | 'basic';

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

  /**
   * Send `body` (a string: sent as it is) with the configured token, or with `refused` credentials: none, an
   * invalid token, the configured token that lacks authorization, or another scheme (Basic). A refused request keeps
   * what the log knows of its credentials (made up, unauthorized): the 401/403 rules judge it; every other exchange
   * is judged as a capture would judge it.
   */
  private async send(line: string, body: Record<string, unknown> | string, refused?: Refused): Promise<void> {
    const { t } = this.ground;
    if (typeof body === 'object' && !this.keepsMemo) body.memo = this.memo();
    this.keepsMemo = false;
    const credentials = refused === 'basic' ? 'none' : refused;
    const headers = transferHeaders(t.faker, t.config, credentials ? { credentials } : {});
    // Both halves made up: a capture's judge hides what a Basic credential decodes to, wherever it appears.
    const madeUp = `${t.faker.string.alphanumeric(12)}:${t.faker.string.alphanumeric(20)}`;
    if (refused === 'basic') headers.Authorization = `Basic ${Buffer.from(madeUp).toString('base64')}`;
    const res = await this.sender({
      operation: 'createTransfer',
      headers,
      body,
      label: `explore: ${line}`,
    });
    if (typeof body === 'object') this.bodies.push(body);
    this.results.push(res);
    if (res.status < 200 || res.status >= 300) this.refusals.push(res);
    else if (!refused && typeof body === 'object') this.served.push(body);
    const authority = refused && refused !== 'none' ? {} : { authority: undefined };
    if (res.logged) this.log.push({ ...res.logged, keepsAuthorization: true, ...authority });
    this.lines.push(`${this.lines.length + 1}. ${line} → ${res.status}`);
    if (res.status === 429 || res.status >= 500) this.unsteady ??= `answered ${res.status}`;
    if (this.unsteady !== undefined || this.fails(this.log)) throw new StopSequence();
  }

  /** The memo of every transfer the explorer sends: it names the run and the explorer. */
  private memo(): string {
    const { t } = this.ground;
    return `dbsi-conformance ${t.settings.runId} ${EXPLORER_MEMO} ${t.faker.string.alphanumeric(6)}`;
  }

  /** The next body's memo is the one it carries (memo()). */
  private keepsMemo = false;

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
    return this.send('the same transfer again without Authorization', structuredClone(last), 'none');
  }

  /**
   * A one-time transfer with credentials the spec documents a refusal for, sent at any point of a sequence (after
   * successes, after the same refusal): none or an invalid token ("an unauthenticated transfer request returns 401"),
   * another scheme than the OAuth2 access token (Basic, made up: 401), the configured token that lacks authorization
   * ("an unauthorized one 403"; only where one is configured).
   */
  refused(refused: Refused): Promise<void> {
    const { t } = this.ground;
    const words: Record<Refused, string> = {
      none: 'without Authorization',
      invalid: 'with a token never issued',
      forbidden: 'with the configured token that lacks authorization',
      basic: 'with Basic credentials (another scheme)',
    };
    return this.send(
      `one-time transfer ${words[refused]}`,
      oneTimeTransfer(t.faker, t.config, t.settings.runId),
      refused,
    );
  }

  /**
   * A one-time transfer whose memo is the empty string (memo: string; an empty one is a string). The memo that names
   * the explorer's transfers is then absent: a self-test tells this one by its empty memo. Which memos a target
   * takes is not shown: a refusal is accepted.
   */
  emptyMemo(): Promise<void> {
    const { t } = this.ground;
    const body = oneTimeTransfer(t.faker, t.config, t.settings.runId);
    body.memo = '';
    this.keepsMemo = true;
    return this.send('one-time transfer with an empty memo', body);
  }

  /** A body that is not JSON: "Bodies are JSON objects"; a 400 answered to it has the body code and message. */
  notJson(): Promise<void> {
    return this.send('a transfer whose body is not JSON', `{"memo": "dbsi-conformance ${EXPLORER_MEMO} -", "amount": `);
  }

  /** The last body again, with a new transactionId (a repeated transfer). */
  again(): Promise<void> {
    const last = this.bodies.at(-1)!;
    return this.send('the same transfer again (a new transactionId)', structuredClone(last));
  }
}
