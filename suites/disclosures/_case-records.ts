import { slot } from '../../harness/run-state';
import type { CaseContext } from '../../harness/case';
import { nothingSent, TransportError, type HttpResult, type SendOptions } from '../../harness/http/client';
import { RUN_LOG } from '../../harness/log/run-log';
import { isUserWrite } from '../../harness/state/user-disclosures';

/** What the run's log says of a record now (_known-records.ts, caseKnows): its documented members, or absent. */
export type Known = Record<string, unknown> | 'absent';

/** The target refused the request and changed nothing: a 4xx other than 429. */
export const refused = (res: HttpResult): boolean => res.status >= 400 && res.status < 500 && res.status !== 429;

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
 * Whether every write of a user disclosure the run sent, other than `own`, that ran while [from, to] did (from the
 * start of `from` to the end of `to`) has its answer in the run's log, once answered (awaited): false where one of
 * them went unanswered, or its answer is not in the log (what it did cannot be told). The writes in flight and those
 * that went unanswered are known from the run's requests (RUN_WRITES): the log holds answered exchanges only.
 */
export async function writesMeanwhileLogged(
  t: CaseContext,
  from: HttpResult,
  to: HttpResult,
  own: HttpResult[],
): Promise<boolean> {
  const start = from.logged?.x.startMs ?? 0;
  const end = to.logged?.x.endMs ?? Date.now();
  const called = t.run.get(RUN_WRITES).filter((w) => w.calledMs <= end);
  for (const a of await Promise.all(called.map((w) => w.answer))) {
    if (a === 'not sent' || ('status' in a && own.includes(a))) continue;
    if ('status' in a && !a.logged) return false;
    if ('unanswered' in a && a.unanswered.startMs <= end && a.unanswered.endMs > start) return false;
  }
  return true;
}

/**
 * The run's writes of user disclosures, other than `own`, that ran while [from, to] did, once answered: the
 * entries of the run's log; undefined where one of them went unanswered (writesMeanwhileLogged).
 */
export async function writesMeanwhile(
  t: CaseContext,
  from: HttpResult,
  to: HttpResult,
  own: HttpResult[],
): Promise<HttpResult[] | undefined> {
  if (!(await writesMeanwhileLogged(t, from, to, own))) return undefined;
  const start = from.logged?.x.startMs ?? 0;
  const end = to.logged?.x.endMs ?? Date.now();
  const mine = new Set(own.map((r) => r.logged?.x.index));
  return t.run
    .get(RUN_LOG)
    .entries()
    .filter((s) => isUserWrite(s.mapped.operation) && !s.undocumentedPath && !mine.has(s.x.index))
    .filter((s) => s.x.startMs <= end && s.x.endMs >= start)
    .map((s) => s.res);
}
