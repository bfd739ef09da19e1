import type { CaseContext } from '../../harness/case';
import type { HttpResult } from '../../harness/http/client';
import { RUN_LOG } from '../../harness/log/run-log';
import { writesMeanwhile as meanwhileInLog, writesWithoutAnswer } from '../../harness/state/user-disclosure-flights';

/** What the run's log says of a record now (_known-records.ts, caseKnows): its documented members, or absent. */
export type Known = Record<string, unknown> | 'absent';

/** The target refused the request and changed nothing: a 4xx other than 429. */
export const refused = (res: HttpResult): boolean => res.status >= 400 && res.status < 500 && res.status !== 429;

/**
 * The window of the run's log from the start of `from` to the end of `to`, and the log's indexes of `own`: the
 * writes of user disclosures sent meanwhile are asked of the run's log (harness/state/user-disclosure-flights.ts),
 * which the client tells of every request as it leaves and as it ends (the explorer's included).
 */
function windowOf(from: HttpResult, to: HttpResult, own: HttpResult[]) {
  const w = { startMs: from.logged?.x.startMs ?? 0, endMs: to.logged?.x.endMs ?? Date.now() };
  return { w, own: new Set(own.map((r) => r.exchange.seq)) };
}

/**
 * Whether every write of a user disclosure the run sent, other than `own`, that ran while [from, to] did (from the
 * start of `from` to the end of `to`) has its answer in the run's log, once those in flight are settled (awaited):
 * else the first of them that went unanswered, or has no entry in the log (what it did cannot be told), named.
 */
export async function writesMeanwhileLogged(
  t: CaseContext,
  from: HttpResult,
  to: HttpResult,
  own: HttpResult[],
): Promise<string | undefined> {
  const { w, own: mine } = windowOf(from, to, own);
  const without = await writesWithoutAnswer(t.run.get(RUN_LOG), w, mine);
  if (without.length === 0) return undefined;
  const first = without[0]!;
  const more = without.length > 1 ? ` and ${without.length - 1} more` : '';
  return `${first.x.method} ${first.x.url} (exchange ${first.x.index}: ${first.why})${more}`;
}

/**
 * The run's writes of user disclosures, other than `own`, that ran while [from, to] did, once answered: the
 * entries of the run's log; undefined where one of them has no answered entry (writesMeanwhileLogged).
 */
export async function writesMeanwhile(
  t: CaseContext,
  from: HttpResult,
  to: HttpResult,
  own: HttpResult[],
): Promise<HttpResult[] | undefined> {
  const { w, own: mine } = windowOf(from, to, own);
  return (await meanwhileInLog(t.run.get(RUN_LOG), w, mine))?.map((s) => s.res);
}
