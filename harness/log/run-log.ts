import type { TargetConfig } from '../config';
import type { Exchange } from '../model';
import { slot } from '../run-state';
import type { Known, Logged, Seen } from './entry';
import { Flights, type Sending, type WithoutAnswer } from './in-flight';

export type { Sending, WithoutAnswer } from './in-flight';

/**
 * One run-wide log (issue 32, "judge as entries arrive"): every exchange of an active run (every case, clean-ups,
 * probes) is registered here by the client (harness/http/flight.ts) as it leaves, and settled by its entry, in clear
 * and in memory only, annotated with what only the active run knows (Seen.authority, Seen.undocumentedPath): in
 * flight, answered (the entries), or without an answer (requestsWithoutAnswer). It judges nothing (the log sits
 * below the rules): the run's log is judged whole once the cases are over (harness/verdict/run-log-verdicts.ts), the
 * way a capture is, each entry by its exchange rules.
 */
export class RunLog {
  private readonly held: Seen[] = [];
  /** Entries appended after the run was judged are not judged (a late clean-up retry): their requests have no entry. */
  private closed = false;
  /** The requests in flight, and those settled with no entry (in-flight.ts). */
  private readonly flights = new Flights();

  /** A request of a documented operation leaves the client: in flight until settled. */
  sending(s: Sending | undefined): void {
    if (s) this.flights.leave(s);
  }

  /** The client is done with the request: where no entry settled it, dropped if nothing was sent, else kept. */
  ended(index: number, sentNothing: boolean): void {
    this.flights.ended(index, sentNothing, Date.now());
  }

  append(logged: Logged | undefined): void {
    if (!logged) return;
    if (this.closed) return this.flights.ended(logged.x.index, false, logged.x.endMs);
    this.flights.settle(logged.x.index);
    this.held.push({ ...logged, keepsAuthorization: true });
  }

  /**
   * Requests that left the machine and got no answer the client returned (status 0: a timeout, a reset, 502/503/504,
   * a burst of 429/5xx): kept apart from the answered entries, so that no rule, no judged view and no capture
   * comparison sees them; a fold asks for them (withUnanswered, requestsWithoutAnswer) where a write that may have
   * landed matters.
   */
  private readonly unanswered: Seen[] = [];

  appendUnanswered(logged: Logged | undefined): void {
    if (!logged) return;
    if (this.closed) return this.flights.ended(logged.x.index, false, logged.x.endMs);
    this.flights.settle(logged.x.index);
    this.unanswered.push({ ...logged, keepsAuthorization: true });
  }

  /** The answered entries and the unanswered ones (status 0), in the order sent. */
  withUnanswered(): Seen[] {
    return [...this.held, ...this.unanswered].sort((a, b) => a.x.index - b.x.index);
  }

  /** The requests sent and not yet settled, in the order sent. */
  inFlight(): Sending[] {
    return this.flights.inFlight();
  }

  /**
   * Every request sent that has no answered entry, in the order sent: in flight (no end yet), unanswered (status 0),
   * or settled with no entry (not processed, or answered after the log was closed).
   */
  requestsWithoutAnswer(): WithoutAnswer[] {
    const unanswered = this.unanswered.map((s): WithoutAnswer => {
      const { x, mapped, undocumentedPath } = s;
      return { x, mapped, ...(undocumentedPath ? { undocumentedPath } : {}), why: 'unanswered', endMs: x.endMs };
    });
    const flying = this.flights.inFlight().map((s): WithoutAnswer => ({ ...s, why: 'in flight' }));
    return [...flying, ...unanswered, ...this.flights.withoutEntry()].sort((a, b) => a.x.index - b.x.index);
  }

  /** Resolves once every request in flight now that `which` selects is settled (the client bounds each one). */
  settled(which: (s: Sending) => boolean): Promise<void> {
    return this.flights.settled(which);
  }

  /**
   * A write of the run whose outcome the log does not hold: sent, and answered 502/503/504 (a target may have
   * applied it first) or not at all. The state rules then cannot fold the whole log (stateKnown).
   */
  private outcomeLost?: string;

  /** Every exchange the client records (answered or not): notes a write whose outcome the log cannot hold. */
  recorded(ex: Exchange): void {
    if (ex.notSent || ex.request.method === 'GET' || this.outcomeLost) return;
    const status = ex.response?.status;
    if (status === undefined || status === 502 || status === 503 || status === 504)
      this.outcomeLost = `${ex.request.method} ${ex.label ?? ex.operation} ${status ?? `(${ex.error?.kind})`}`;
  }

  /** Whether the log holds the outcome of every write the run sent (else: which write it lacks). */
  get stateKnown(): true | string {
    return this.outcomeLost === undefined ? true : this.outcomeLost;
  }

  /** The log in the order sent (the client's sequence number), and closed: it is judged now. */
  close(): Seen[] {
    this.closed = true;
    return this.entries();
  }

  /** The entries as the run's log is judged (judgedView), in the order sent. */
  judged(): Seen[] {
    return this.entries().flatMap((s) => judgedView(s) ?? []);
  }

  /** The entries so far, in the order sent. */
  entries(): Seen[] {
    return [...this.held].sort((a, b) => a.x.index - b.x.index);
  }

  get size(): number {
    return this.held.length;
  }
}

/**
 * An entry as the whole run's log is judged, with no case to say what it drove the exchange for:
 * - credentials the log knows to be the operator's are not taken to vouch for the rest of the request (a case
 *   sends them with an unknown id or a body built to be refused, on purpose): judged as a capture judges it.
 *   Credentials the suite made up, none, or the token that lacks authorization stay known (whatever a case
 *   meant, a 2xx to them breaks the rule);
 * - a probe at a path other than the documented one is left out, as a capture leaves it unmapped.
 */
export function judgedView(s: Seen): Seen | undefined {
  if (s.undocumentedPath) return undefined;
  if (s.authority !== 'configured') return s;
  const { authority: _vouches, ...rest } = s;
  return rest;
}

/** The run's log, one per run (harness/run-state.ts): the client's RunState holds it. */
export const RUN_LOG = slot('run log', () => new RunLog());

/**
 * What the run knows of the state before its log begins, from the configuration (a capture knows none of it):
 * the phone number on record of every configured customer.
 */
export function knownFromConfig(config: Pick<TargetConfig, 'testData'>): Known {
  const customers = [
    { c: config.testData.customer, key: 'testData.customer' },
    ...(config.testData.moreCustomers ?? []).map((c, i) => ({ c, key: `testData.moreCustomers[${i}]` })),
  ];
  const phonesOnRecord: NonNullable<Known['phonesOnRecord']> = {};
  for (const { c, key } of customers) {
    if (!c?.customerId || !c.phoneNumber || phonesOnRecord[c.customerId]) continue;
    phonesOnRecord[c.customerId] = { number: c.phoneNumber, from: `configured in ${key}.phoneNumber` };
  }
  return Object.keys(phonesOnRecord).length ? { phonesOnRecord } : {};
}
