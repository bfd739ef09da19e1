import type { TargetConfig } from '../config';
import type { Exchange } from '../model';
import { slot } from '../run-state';
import type { Known, Logged, Seen } from './entry';

/**
 * One run-wide log (issue 32, "judge as entries arrive"): every answered exchange of an active run (every
 * case, clean-ups, probes) is appended here by the client (harness/http/client.ts), in clear and in memory
 * only, annotated with what only the active run knows (Seen.authority, Seen.undocumentedPath). It judges
 * nothing (the log sits below the rules): the run's log is judged whole once the cases are over
 * (harness/verdict/run-log-verdicts.ts), the way a capture is, each entry by its exchange rules.
 */
export class RunLog {
  private readonly held: Seen[] = [];
  /** Entries appended after the run was judged are kept but not judged (a late clean-up retry). */
  private closed = false;

  append(logged: Logged | undefined): void {
    if (!logged || this.closed) return;
    this.held.push({ ...logged, keepsAuthorization: true });
  }

  /**
   * Requests that left the machine and got no answer the client returned (status 0: a timeout, a reset, 502/503/504,
   * a burst of 429/5xx): kept apart from the answered entries, so that no rule, no judged view and no capture
   * comparison sees them; a fold asks for them (withUnanswered) where a write that may have landed matters.
   */
  private readonly unanswered: Seen[] = [];

  appendUnanswered(logged: Logged | undefined): void {
    if (!logged || this.closed) return;
    this.unanswered.push({ ...logged, keepsAuthorization: true });
  }

  /** The answered entries and the unanswered ones (status 0), in the order sent. */
  withUnanswered(): Seen[] {
    return [...this.held, ...this.unanswered].sort((a, b) => a.x.index - b.x.index);
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
