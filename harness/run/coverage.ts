import type { Area, CaseReport } from '../model';

/** Which of the selected areas the run actually verified something in, and why the others were not. */
export interface Coverage {
  /** The areas with at least one selected test. */
  selected: Area[];
  /** Areas where some test reached a verdict (passed, warning or failed). */
  tested: Area[];
  notTested: Array<{ area: Area; reason: string }>;
  /**
   * Operations of a tested area whose selected tests reached no verdict (issue 32: an area counts as tested when
   * one of its operations was; the headline names the operations that were not), as the reports name them.
   */
  operationsWithoutVerdict?: Array<{ area: Area; operation: string; reason: string }>;
}

const VERIFIED = new Set(['passed', 'warning', 'failed', 'waived']);

/** Why an area verified nothing: the switches that were off, could not test, not applicable. */
function whyNotTested(cases: CaseReport[]): string {
  const reasons = new Set<string>();
  const switches = new Set<string>();
  for (const c of cases) {
    if (c.outcome === 'not-allowed') {
      const m = /allow\.(\w+)/.exec(c.reason ?? '');
      // A skip of the harness's own (contact data nobody confirmed) names the key it needs.
      const key = /\b(testData\.[\w.[\]]+Confirmed)\b/.exec(c.reason ?? '');
      if (!m && key) reasons.add(`${key[1]} not set`);
      else switches.add(m ? `allow.${m[1]}` : 'allow.*');
    } else if (c.outcome === 'not-applicable') reasons.add('not applicable on this target');
    else reasons.add('could not test');
  }
  if (switches.size) reasons.add(`${[...switches].join(', ')} off`);
  return [...reasons].join('; ');
}

export function coverageOf(cases: CaseReport[], selected: Area[]): Coverage {
  const tested: Area[] = [];
  const notTested: Coverage['notTested'] = [];
  const operationsWithoutVerdict: NonNullable<Coverage['operationsWithoutVerdict']> = [];
  for (const area of selected) {
    const mine = cases.filter((c) => c.area === area);
    if (!mine.some((c) => VERIFIED.has(c.outcome))) {
      notTested.push({ area, reason: whyNotTested(mine) });
      continue;
    }
    tested.push(area);
    const operations = [...new Set(mine.map((c) => c.operation))];
    for (const operation of operations.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))) {
      const its = mine.filter((c) => c.operation === operation);
      if (!its.some((c) => VERIFIED.has(c.outcome)))
        operationsWithoutVerdict.push({ area, operation, reason: whyNotTested(its) });
    }
  }
  return { selected, tested, notTested, ...(operationsWithoutVerdict.length ? { operationsWithoutVerdict } : {}) };
}

/** The operations of tested areas that reached no verdict, in one clause ("" when there is none). */
export function operationsWithoutVerdictText(cov: Coverage): string {
  const ops = cov.operationsWithoutVerdict ?? [];
  if (!ops.length) return '';
  const byReason = new Map<string, string[]>();
  for (const o of ops) byReason.set(o.reason, [...(byReason.get(o.reason) ?? []), o.operation]);
  const clauses = [...byReason].map(([reason, names]) => `${names.join(', ')} (${reason})`);
  return `no verdict on operation ${clauses.join('; ')}`;
}

const areaName = (a: string) => a.replace(/-/g, ' ');

/**
 * What was not tested, in one clause: "not tested: authentication, contact info (allow.tokenRevocation,
 * allow.contactUpdate off)"; areas that share a reason are listed together.
 */
export function notTestedText(cov: Coverage): string {
  if (!cov.notTested.length) return '';
  const byReason = new Map<string, string[]>();
  for (const n of cov.notTested) byReason.set(n.reason, [...(byReason.get(n.reason) ?? []), areaName(n.area)]);
  return `not tested: ${[...byReason].map(([reason, areas]) => `${areas.join(', ')} (${reason})`).join('; ')}`;
}

/** True when every selected area was tested. */
export function fullyCovered(cov: Coverage): boolean {
  return cov.notTested.length === 0;
}

/** The console's and the summary's headline: the verdict, and what it covers. */
export function headline(verdict: string, cov: Coverage): string {
  const missing = [notTestedText(cov), operationsWithoutVerdictText(cov)].filter(Boolean).join('; ');
  if (!missing || cov.tested.length === 0) return verdict;
  const head =
    verdict === 'conformant in the areas tested'
      ? `${verdict} (${cov.tested.length} of ` + `${cov.selected.length})`
      : verdict;
  return `${head}; ${missing}`;
}
