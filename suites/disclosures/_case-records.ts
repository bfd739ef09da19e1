import { slot } from '../../harness/run-state';
import type { DisclosureRef } from '../../data-builders/disclosures';
import type { CaseContext } from '../../harness/case';
import { nothingSent, TransportError, type HttpResult, type SendOptions } from '../../harness/http/client';
import type { Exchange } from '../../harness/model';

/**
 * What one case knows about the records it works on (it holds their disclosures' locks), so that its
 * clean-up asks the target only what it does not know: the record as the case last listed it, after
 * the writes it sent since whose outcome is known (an answer, 2xx or 4xx other than 429). A write
 * with an unknown outcome (no answer, a cut-off one, 5xx, 429), a delete (gone only once a list shows
 * it), or any write of a user disclosure the case sent without telling this tracker makes the state
 * unknown: the clean-up then lists, deletes what is there and lists again.
 */
export type Known = Record<string, unknown> | 'absent';

interface Tracked {
  d: DisclosureRef;
  known?: Known;
}

interface CaseState {
  records: Tracked[];
  /** Writes of user disclosures this tracker saw; compared with the case's exchanges. */
  writes: number;
}

const cases = new WeakMap<CaseContext, CaseState>();
const WRITES = new Set([
  'createUserDisclosure',
  'changeUserDisclosure',
  'changeUserDisclosureById',
  'deleteUserDisclosure',
  'deleteUserDisclosureById',
]);
/** A write the case sent (one that never left the machine, e.g. a refused connection, changed nothing). */
const isWrite = (e: Exchange) => WRITES.has(e.operation) && !e.notSent;

function of(t: CaseContext): CaseState {
  let s = cases.get(t);
  if (!s) cases.set(t, (s = { records: [], writes: t.exchanges.filter(isWrite).length }));
  return s;
}

const sameName = (r: Record<string, unknown>, d: DisclosureRef) =>
  r.institutionDisclosureName === d.institutionDisclosureName &&
  (r.institutionId === undefined || r.institutionId === d.institutionId);

/** The case now holds the disclosure's lock, and knows this about the user's record (undefined: nothing). */
export function track(t: CaseContext, d: DisclosureRef, known: Known | undefined): void {
  const s = of(t);
  s.records = s.records.filter((r) => r.d.institutionDisclosureId !== d.institutionDisclosureId);
  s.records.push({ d, known });
}

/** A list of the user's records the case received. */
export function sawList(t: CaseContext, records: Array<Record<string, unknown>>): void {
  const s = cases.get(t);
  if (!s) return;
  for (const r of s.records) r.known = records.find((x) => sameName(x, r.d)) ?? 'absent';
}

/** The target refused the request and changed nothing: a 4xx other than 429. */
export const refused = (res: HttpResult): boolean => res.status >= 400 && res.status < 500 && res.status !== 429;

const knownOutcome = (res: HttpResult | undefined) =>
  res !== undefined && ((res.status >= 200 && res.status < 300) || refused(res));

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

/**
 * A write the case sent on a disclosure's record (by the disclosure, or by the record's name): a
 * create or change answered 2xx leaves the record with the status sent; a refusal leaves it as it
 * was; anything else (and any delete) leaves it unknown.
 */
export function sawWrite(
  t: CaseContext,
  on: DisclosureRef | Record<string, unknown>,
  kind: 'create' | 'change' | 'delete',
  res: HttpResult | undefined,
  status?: string,
): void {
  const s = cases.get(t);
  if (!s) return;
  s.writes++;
  const r = s.records.find((x) => sameName(on as Record<string, unknown>, x.d));
  if (!r) return;
  if (!knownOutcome(res) || kind === 'delete') r.known = undefined;
  else if (res!.status >= 200 && res!.status < 300)
    r.known = {
      ...(r.known === 'absent' ? {} : r.known),
      institutionDisclosureName: r.d.institutionDisclosureName,
      institutionUserDisclosureStatus: status,
    };
}

/** What the case knows about its record of d now; undefined where it does not know, or sent a write this tracker did
 * not see. */
export function caseKnows(t: CaseContext, d: DisclosureRef): Known | undefined {
  const s = cases.get(t);
  if (!s || t.exchanges.filter(isWrite).length !== s.writes) return undefined;
  return s.records.find((r) => r.d.institutionDisclosureId === d.institutionDisclosureId)?.known;
}

/** A write of a user disclosure the run sent: its answer, or when it ran where it got none. */
type Answer = HttpResult | { unanswered: { startMs: number; endMs: number } } | 'not sent';

/** Per run (t.run): every write of a user disclosure its cases sent, as the client was called. */
const RUN_WRITES = slot('user-disclosure writes', () => [] as Array<{ calledMs: number; answer: Promise<Answer> }>);

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
  return runWrite(t, t.send(o));
}

/** A write of a user disclosure sent another way (the explorer's client): one of the run's writes too. */
export function runWrite(t: CaseContext, sent: Promise<HttpResult>): Promise<HttpResult> {
  t.run.get(RUN_WRITES).push({ calledMs: Date.now(), answer: sent.then((r) => r, unanswered) });
  return sent;
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
