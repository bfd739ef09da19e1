import type { CaseReport, Exchange } from '../model';

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
}

const json = (s: string | undefined): Record<string, unknown> | undefined => {
  try {
    const v: unknown = JSON.parse(s ?? '');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};
const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);
const served = (e: Exchange) => !!e.response && e.response.status >= 200 && e.response.status < 300;

export function unremovableRecords(cases: readonly CaseReport[]): UnremovableRecord[] {
  const out: UnremovableRecord[] = [];
  for (const c of cases) {
    for (const e of c.exchanges.filter(served)) {
      const sent = json(e.request.body);
      const got = json(e.response!.body);
      if (e.operation === 'createInstitutionDisclosure') {
        const name = str(sent?.institutionDisclosureName) ?? '(no name sent)';
        out.push({
          kind: 'institution disclosure',
          what: `"${name}" of institution ${str(sent?.institutionId) ?? '?'}`,
          id: str(got?.institutionDisclosureId),
          test: c.title,
        });
      } else if (e.operation === 'createTransfer') {
        const amount = sent?.amount as Record<string, unknown> | undefined;
        const money = amount ? `${str(amount.amount) ?? '?'} ${str(amount.currency) ?? ''}`.trim() : '?';
        out.push({
          kind: 'transfer',
          what: `${money} from ${str(sent?.fromAccountId) ?? '?'} to ${str(sent?.toAccountId) ?? '?'}`,
          id: str(got?.id),
          test: c.title,
        });
      }
    }
  }
  return out;
}

/** The block for the console and the summary (plain lines). */
export function unremovableBlock(list: readonly UnremovableRecord[]): string[] {
  if (list.length === 0) return [];
  const out = [
    `CREATED, CANNOT BE REMOVED THROUGH THE INTERFACE: ${list.length} record${list.length === 1 ? '' : 's'}` +
      ' this run made:',
  ];
  for (const r of list) out.push(`  • ${r.kind} ${r.what}${r.id ? ` (id ${r.id})` : ''} (test: ${r.test})`);
  return out;
}
