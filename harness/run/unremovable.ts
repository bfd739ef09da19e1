import type { CaseReport, Exchange } from '../model';
import { parseJson } from '../json-depth';

/**
 * What the run created that the interface cannot remove: institution disclosures (no delete
 * operation) and transfers (no cancel operation), from the exchanges a target served.
 */
export interface UnremovableRecord {
  kind: 'institution disclosure' | 'transfer';
  /** Name, amount and accounts: what a person searches for. */
  what: string;
  /** The id the target gave it, when its answer shows one. */
  id?: string;
  /** The test that created it. */
  test: string;
  /**
   * The request's outcome is unknown (no answer, or a 5xx, a throttling 500 included): it may have been created, and
   * a target that said so may still have stored it (session 40's safety hold-out, rows D5, M1, M2). Why, in words.
   */
  unknown?: string;
}

const json = (s: string | undefined): Record<string, unknown> | undefined => {
  try {
    const v: unknown = parseJson(s ?? '');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};
const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);
const CREATES = new Set(['createInstitutionDisclosure', 'createTransfer']);
const served = (e: Exchange) =>
  CREATES.has(e.operation) && !!e.response && e.response.status >= 200 && e.response.status < 300;

/**
 * Why a create's outcome is unknown (it may have landed): no answer, a 5xx, or a 429 (a target that says it did not
 * process a request may have all the same: session 41's safety hold-out, row H10); undefined when it is known.
 */
function unknownOutcome(e: Exchange): string | undefined {
  if (!CREATES.has(e.operation ?? '') || e.notSent) return undefined;
  const status = e.response?.status ?? 0;
  if (status === 0) return 'no answer (it may have landed)';
  if (status >= 500 || status === 429) return `answered ${status} (it may have landed all the same)`;
  return undefined;
}

/**
 * Earlier attempts of a create that were answered 5xx or 429 and sent again (a 429 is repeated after Retry-After,
 * harness/http/flight.ts; a throttling 500 is re-checked alone, harness/http/throttling.ts): a target that said it
 * did not process one may have stored it all the same.
 */
function earlierAttempts(e: Exchange): string[] {
  if (!CREATES.has(e.operation ?? '')) return [];
  return e.retries
    .filter((r) => /^(5\d\d|429)\b/.test(r))
    .map((r) => `an earlier attempt was answered ${r.slice(0, 3)} and sent again (it may have landed too)`);
}

export function unremovableRecords(cases: readonly CaseReport[]): UnremovableRecord[] {
  const out: UnremovableRecord[] = [];
  const names = lastNames(cases);
  for (const c of cases) {
    for (const e of c.exchanges) {
      const unknown = unknownOutcome(e);
      if (served(e) || unknown) out.push(renamed(recordOf(e, c.title, unknown), names));
      if (served(e)) for (const why of earlierAttempts(e)) out.push({ ...recordOf(e, c.title, why), id: undefined });
    }
  }
  return out;
}

/**
 * The name each institution disclosure was last changed to (operation 3, by id), where a change was served or may
 * have landed: a person looks for the record by the name it has now, not the one it was created with (session 40's
 * safety hold-out: the change tests rename what the create tests made).
 */
function lastNames(cases: readonly CaseReport[]): Map<string, { name: string; at: string; sure: boolean }> {
  const out = new Map<string, { name: string; at: string; sure: boolean }>();
  for (const e of cases.flatMap((c) => c.exchanges)) {
    if (e.operation !== 'changeInstitutionDisclosure' || e.notSent) continue;
    const status = e.response?.status ?? 0;
    const sure = status >= 200 && status < 300;
    if (!sure && status !== 0 && status < 500) continue;
    const name = str(json(e.request.body)?.institutionDisclosureName);
    const id = decodeURIComponent(new URL(e.request.url).pathname.split('/').pop() ?? '');
    const seen = out.get(id);
    if (name !== undefined && (!seen || seen.at <= e.startedAt)) out.set(id, { name, at: e.startedAt, sure });
  }
  return out;
}

/** The record with the name it was last changed to, where that is another than the one it was created with. */
function renamed(r: UnremovableRecord, names: ReturnType<typeof lastNames>): UnremovableRecord {
  const now = r.kind === 'institution disclosure' && r.id !== undefined ? names.get(r.id) : undefined;
  if (!now || r.what.startsWith(`"${now.name}"`)) return r;
  return { ...r, what: `${r.what}, now named "${now.name}"${now.sure ? '' : ' if its last change landed'}` };
}

/** The record a create made, or may have made (`unknown`: why its outcome is unknown). */
function recordOf(e: Exchange, test: string, unknown: string | undefined): UnremovableRecord {
  const sent = json(e.request.body);
  const got = json(e.response?.body);
  const maybe = unknown ? { unknown } : {};
  if (e.operation === 'createInstitutionDisclosure') {
    const name = str(sent?.institutionDisclosureName) ?? '(no name sent)';
    return {
      kind: 'institution disclosure',
      what: `"${name}" of institution ${str(sent?.institutionId) ?? '?'}`,
      id: str(got?.institutionDisclosureId),
      test,
      ...maybe,
    };
  }
  const amount = sent?.amount as Record<string, unknown> | undefined;
  const money = amount ? `${str(amount.amount) ?? '?'} ${str(amount.currency) ?? ''}`.trim() : '?';
  return {
    kind: 'transfer',
    what: `${money} from ${str(sent?.fromAccountId) ?? '?'} to ${str(sent?.toAccountId) ?? '?'}`,
    id: str(got?.id),
    test,
    ...maybe,
  };
}

/** The block for the console and the summary (plain lines). */
export function unremovableBlock(list: readonly UnremovableRecord[]): string[] {
  if (list.length === 0) return [];
  const out = [
    `CREATED, CANNOT BE REMOVED THROUGH THE INTERFACE: ${list.length} record${list.length === 1 ? '' : 's'}` +
      ' this run made:',
  ];
  for (const r of list) {
    const maybe = r.unknown ? ` MAY HAVE BEEN CREATED: ${r.unknown}; look for it` : '';
    out.push(`  • ${r.kind} ${r.what}${r.id ? ` (id ${r.id})` : ''}${maybe} (test: ${r.test})`);
  }
  return out;
}
