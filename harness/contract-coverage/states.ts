/**
 * State coverage, the report's side (measured by harness/state/coverage/ on either source's log): per family of
 * the spec's state, which transitions (the state a record was in before a write, the write, the value it sent) the
 * log took, and which of those a later read showed the effect of. The developers' guide: "A coverage figure counts
 * what a fault could hide behind, not what was sent." A transition taken and never read back is where a target that
 * answers 2xx and stores something else hides: it is counted apart, never as covered.
 */

/** 'read back': taken, and a later read showed its effect; 'taken': never read back; 'not taken'. */
export type TransitionStatus = 'read back' | 'taken' | 'not taken';

export interface TransitionResult {
  transition: string;
  status: TransitionStatus;
  /** The first write (exchange number) that took it, and the read that showed its effect. */
  write?: number;
  readBack?: number;
}

export interface FamilyCoverage {
  family: string;
  /** What reads a write back in this family (why a transition counts). */
  readBackBy: string;
  transitions: TransitionResult[];
}

export interface StateCoverage {
  families: FamilyCoverage[];
}

export const STATUS_RANK: Record<TransitionStatus, number> = { 'not taken': 0, taken: 1, 'read back': 2 };

/** Several logs' coverage (one per test file of a run) as one: each transition at the best status any reached. */
export function mergeStateCoverage(all: readonly StateCoverage[]): StateCoverage | undefined {
  if (all.length === 0) return undefined;
  const families = all[0]!.families.map((f, i) => ({
    ...f,
    transitions: f.transitions.map((tr, j) =>
      all
        .map((c) => c.families[i]?.transitions[j] ?? tr)
        .reduce((best, x) => (STATUS_RANK[x.status] > STATUS_RANK[best.status] ? x : best), tr),
    ),
  }));
  return { families };
}

const count = (f: FamilyCoverage, status: TransitionStatus) => f.transitions.filter((t) => t.status === status).length;
/** The families the log took a transition of (a run of some areas counts theirs only). */
const active = (c: StateCoverage) => c.families.filter((f) => count(f, 'read back') + count(f, 'taken') > 0);

/**
 * The console's line: "state coverage: N of M transitions taken and read back (…); K taken and never read back"
 * ("" where the log wrote no record the interface reads back: a run of transfers or token revocation only).
 */
export function stateCoverageLine(c: StateCoverage): string {
  const all = active(c);
  if (all.length === 0) return '';
  const total = all.reduce((n, f) => n + f.transitions.length, 0);
  const read = all.reduce((n, f) => n + count(f, 'read back'), 0);
  const taken = all.reduce((n, f) => n + count(f, 'taken'), 0);
  const each = all.map((f) => `${f.family.replace(/ \(.*\)$/, '')} ${count(f, 'read back')}/${f.transitions.length}`);
  return (
    `state coverage: ${read} of ${total} transitions taken and read back (${each.join(', ')})` +
    (taken ? `; ${taken} taken and never read back` : '')
  );
}

/** The section of reports/contract-coverage.md: per family, every transition, those not read back first. */
export function stateCoverageMarkdown(c: StateCoverage): string[] {
  const out = [
    '',
    '# State coverage',
    '',
    `${(stateCoverageLine(c) || 'state coverage: no write of a record the interface reads back').replace(/^s/, 'S')}.`,
    '',
    'A transition is the state a record was in before a write (as the log knew it), the write and the value it sent.',
    'It counts as covered only where a later read showed its effect: a write answered 2xx and never read back is',
    'where a target that stores something else hides (docs/reports.md, "State coverage").',
  ];
  const order: Record<TransitionStatus, number> = { 'not taken': 0, taken: 1, 'read back': 2 };
  for (const f of c.families) {
    out.push('', `## ${f.family}`, '', `Read back by ${f.readBackBy}.`, '');
    out.push('| transition | status | write | read back by |', '|---|---|---|---|');
    for (const t of [...f.transitions].sort((a, b) => order[a.status] - order[b.status]))
      out.push(`| ${t.transition} | ${t.status} | ${t.write ?? ''} | ${t.readBack ?? ''} |`);
  }
  return out;
}
