import type { DisclosureRef } from '../../data-builders/disclosures';
import type { CaseContext } from '../../harness/case';
import { nothingSent, type HttpResult } from '../../harness/http/client';
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
const WRITES = new Set(['createUserDisclosure', 'changeUserDisclosure', 'changeUserDisclosureById', 'deleteUserDisclosure', 'deleteUserDisclosureById']);
/** A write the case sent (one that never left the machine, e.g. a refused connection, changed nothing). */
const isWrite = (e: Exchange) => WRITES.has(e.operation) && !e.notSent;

function of(t: CaseContext): CaseState {
  let s = cases.get(t);
  if (!s) cases.set(t, (s = { records: [], writes: t.exchanges.filter(isWrite).length }));
  return s;
}

const sameName = (r: Record<string, unknown>, d: DisclosureRef) => r.institutionDisclosureName === d.institutionDisclosureName && (r.institutionId === undefined || r.institutionId === d.institutionId);

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

const knownOutcome = (res: HttpResult | undefined) => res !== undefined && ((res.status >= 200 && res.status < 300) || refused(res));

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
export function sawWrite(t: CaseContext, on: DisclosureRef | Record<string, unknown>, kind: 'create' | 'change' | 'delete', res: HttpResult | undefined, status?: string): void {
  const s = cases.get(t);
  if (!s) return;
  s.writes++;
  const r = s.records.find((x) => sameName(on as Record<string, unknown>, x.d));
  if (!r) return;
  if (!knownOutcome(res) || kind === 'delete') r.known = undefined;
  else if (res!.status >= 200 && res!.status < 300) r.known = { ...(r.known === 'absent' ? {} : r.known), institutionDisclosureName: r.d.institutionDisclosureName, institutionUserDisclosureStatus: status };
}

/** What the case knows about its record of d now; undefined where it does not know, or sent a write this tracker did not see. */
export function caseKnows(t: CaseContext, d: DisclosureRef): Known | undefined {
  const s = cases.get(t);
  if (!s || t.exchanges.filter(isWrite).length !== s.writes) return undefined;
  return s.records.find((r) => r.d.institutionDisclosureId === d.institutionDisclosureId)?.known;
}
