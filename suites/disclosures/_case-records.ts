import { slot } from '../../harness/run-state';
import type { DisclosureRef } from '../../data-builders/disclosures';
import type { CaseContext } from '../../harness/case';
import { nothingSent, TransportError, type HttpResult, type SendOptions } from '../../harness/http/client';
import type { Exchange } from '../../harness/model';
import { isUserWrite, UserDisclosureState } from '../../harness/state/user-disclosures';

/**
 * What one case knows about the records it works on (it holds their disclosures' locks), so that its
 * clean-up asks the target only what it does not know: a query on the fold of the users' acceptance records
 * (harness/state/user-disclosures.ts, `known`) over the case's own log since it took the record's lock, from what
 * the run knew then (no record, or nothing). A 2xx create or change leaves the record with the status sent; a
 * refusal leaves it as it was; a delete (gone only once a list shows it) or a write whose outcome is unknown (no
 * answer, a cut-off one, another 5xx) makes it unknown: the clean-up then lists, deletes what is there and lists
 * again.
 */
export type Known = Record<string, unknown> | 'absent';

/** Where the case took a record's lock: the length of its log and exchanges then, and what the run knew. */
interface Held {
  d: DisclosureRef;
  logged: number;
  exchanges: number;
  absent: boolean;
}

const cases = new WeakMap<CaseContext, Map<string, Held>>();
/** A write of a user disclosure that left the machine (one refused before it, e.g. a connection refused, changed
 * nothing). */
const isWrite = (e: Exchange) => isUserWrite(e.operation) && !e.notSent;

/** The case now holds the disclosure's lock, and knows this about the user's record (undefined: nothing). */
export function track(t: CaseContext, d: DisclosureRef, known: Known | undefined): void {
  const held = cases.get(t) ?? cases.set(t, new Map()).get(t)!;
  const absent = known === 'absent';
  held.set(d.institutionDisclosureId, { d, logged: t.logged.length, exchanges: t.exchanges.length, absent });
}

/** What the case knows about its record of d now; undefined where it does not know. */
export function caseKnows(t: CaseContext, d: DisclosureRef): Known | undefined {
  const held = cases.get(t)?.get(d.institutionDisclosureId);
  if (!held) return undefined;
  const log = t.logged.slice(held.logged);
  // A write the log holds no answer to (it went unanswered): what it did cannot be told.
  const sent = t.exchanges.slice(held.exchanges).filter(isWrite).length;
  if (sent !== log.filter((s) => isUserWrite(s.mapped.operation)).length) return undefined;
  const user = t.config.testData.institutionUserId;
  const state = new UserDisclosureState(user);
  if (held.absent) state.assumeAbsent(user, d.institutionDisclosureName);
  for (const s of log) state.add(s);
  return state.known(user, d.institutionDisclosureName);
}

/** The target refused the request and changed nothing: a 4xx other than 429. */
export const refused = (res: HttpResult): boolean => res.status >= 400 && res.status < 500 && res.status !== 429;

/**
 * Send a write a conformant target refuses, on a record other cases rely on: `spoiled` is told where
 * it may have changed the record (served, or no answer after it was sent), so that whoever deletes it
 * looks first.
 */
export async function sendToBeRefused(send: () => Promise<HttpResult>, spoiled: () => void): Promise<HttpResult> {
  try {
    const res = await send();
    if (!refused(res)) spoiled();
    return res;
  } catch (e) {
    if (!nothingSent(e)) spoiled();
    throw e;
  }
}

/** A write of a user disclosure the run sent: its answer, or when it ran where it got none. */
type Answer = HttpResult | { unanswered: { startMs: number; endMs: number } } | 'not sent';

/** A write of a user disclosure the run sent: when the client was called, the record a create names, its answer. */
interface RunWrite {
  calledMs: number;
  creates?: string;
  answer: Promise<Answer>;
  /** Answered, or given up on: no longer in flight. */
  settled: boolean;
}

/**
 * Per run (t.run): every write of a user disclosure its cases sent, as the client was called. A record of the
 * requests (what ran meanwhile, what is still in flight), not of the target's state: the run's log
 * (harness/log/run-log.ts) holds only answered exchanges.
 */
const RUN_WRITES = slot('user-disclosure writes', () => [] as RunWrite[]);

type WriteOperation =
  | 'createUserDisclosure'
  | 'changeUserDisclosure'
  | 'changeUserDisclosureById'
  | 'deleteUserDisclosure'
  | 'deleteUserDisclosureById';

/** A write that went unanswered: when it ran (to the moment the client gave up), else it was never sent. */
function unanswered(e: unknown): Answer {
  if (!(e instanceof TransportError) || nothingSent(e)) return 'not sent';
  const startMs = e.exchange ? Date.parse(e.exchange.startedAt) : 0;
  return { unanswered: { startMs, endMs: Date.now() } };
}

/**
 * Send a write of a user disclosure (operations 5–7) as one of the run's writes: the state rules that
 * judge a step of another case see it where it ran meanwhile, as a capture of the run would show it.
 */
export function sendWrite(t: CaseContext, o: SendOptions & { operation: WriteOperation }): Promise<HttpResult> {
  const member = (o.body as { institutionDisclosureName?: unknown } | undefined)?.institutionDisclosureName;
  const named = o.headers?.InstitutionDisclosureName ?? (typeof member === 'string' ? member : undefined);
  return runWrite(t, t.send(o), o.operation === 'createUserDisclosure' ? named : undefined);
}

/** A write of a user disclosure sent another way (the explorer's client): one of the run's writes too. */
export function runWrite(t: CaseContext, sent: Promise<HttpResult>, creates?: string): Promise<HttpResult> {
  const w: RunWrite = {
    calledMs: Date.now(),
    ...(creates ? { creates } : {}),
    answer: Promise.resolve('not sent'),
    settled: false,
  };
  w.answer = sent.then((r) => r, unanswered).finally(() => (w.settled = true));
  t.run.get(RUN_WRITES).push(w);
  return sent;
}

/** A create of the user's record of `name` the run sent that is still in flight (its answer is not in the log yet). */
export function createInFlight(t: CaseContext, name: string): boolean {
  return t.run.get(RUN_WRITES).some((w) => !w.settled && w.creates === name);
}

/**
 * The run's writes of user disclosures, other than `own`, that ran while [from, to] did (from the start
 * of `from` to the end of `to`), once answered; undefined where one of them went unanswered (what it
 * did cannot be told).
 */
export async function writesMeanwhile(
  t: CaseContext,
  from: HttpResult,
  to: HttpResult,
  own: HttpResult[],
): Promise<HttpResult[] | undefined> {
  const start = from.logged?.x.startMs ?? 0;
  const end = to.logged?.x.endMs ?? Date.now();
  const called = t.run.get(RUN_WRITES).filter((w) => w.calledMs <= end);
  const answers = await Promise.all(called.map((w) => w.answer));
  const meanwhile: HttpResult[] = [];
  for (const a of answers) {
    if (a === 'not sent' || ('status' in a && own.includes(a))) continue;
    const ran = 'unanswered' in a ? a.unanswered : a.logged?.x;
    if (!ran) return undefined;
    if (ran.startMs > end || ran.endMs < start || ('unanswered' in a && ran.endMs === start)) continue;
    if ('unanswered' in a) return undefined;
    meanwhile.push(a);
  }
  return meanwhile;
}
