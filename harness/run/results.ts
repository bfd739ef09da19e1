import { CATALOG, type Requirement } from '../../requirements';
import type { Area, CaseOutcome, CaseReport } from '../model';
import { EXIT } from './exit-codes';
import { openLeftovers } from './leftovers';

export { EXIT } from './exit-codes';

export type RequirementVerdict =
  /** A failure accepted by a live waiver (--waivers): not a pass, not counted towards exit 1. */
  | 'waived'
  | 'passed'
  /** An INFO check saw something the spec does not list (e.g. an unlisted enumeration value): not a failure, not a
   * pass. */
  | 'observed'
  | 'failed'
  | 'warning'
  | 'could-not-test'
  | 'not-applicable'
  | 'skipped-not-allowed'
  | 'not-verified'
  | 'not-run'
  | 'not-testable'
  | 'no-test'
  /** Judging recorded traffic: no exchange of the capture exercised it (never counted as passed). */
  | 'not-observed';

export interface RequirementRow {
  id: string;
  section: string;
  grade: Requirement['grade'];
  statement: string;
  /** Numbers of the spec operations it concerns. */
  operations: number[];
  verdict: RequirementVerdict;
  /** Observations (INFO), reasons (not applicable, skipped), or the failure line. */
  notes: string[];
  /** Ids of the cases that declare this requirement. */
  cases: string[];
}

export interface AreaCounts {
  total: number;
  passed: number;
  failed: number;
  warning: number;
  notApplicable: number;
  notAllowed: number;
  couldNotTest: number;
  error: number;
  /** Failed, and accepted by a waiver (--waivers). */
  waived: number;
}

export function emptyCounts(): AreaCounts {
  const none = { total: 0, passed: 0, failed: 0, warning: 0, notApplicable: 0, notAllowed: 0, couldNotTest: 0 };
  return { ...none, error: 0, waived: 0 };
}

const KEY: Record<CaseOutcome, keyof AreaCounts> = {
  passed: 'passed',
  failed: 'failed',
  warning: 'warning',
  'not-applicable': 'notApplicable',
  'not-allowed': 'notAllowed',
  'could-not-test': 'couldNotTest',
  error: 'error',
  waived: 'waived',
};

export function countByArea(cases: CaseReport[]): Record<string, AreaCounts> {
  const out: Record<string, AreaCounts> = {};
  for (const c of cases) {
    const a = (out[c.area] ??= emptyCounts());
    a.total++;
    a[KEY[c.outcome]]++;
  }
  return out;
}

/**
 * The run's exit code: 1 when a MUST check failed (a verdict: non-conformant), else 3 when a case
 * could not be tested (transport failures), the suite broke, or the run left changes on the target
 * it could not put back (a nightly gate must not read that as green), else 0.
 */
export function exitCodeFor(cases: CaseReport[], extraErrors = 0): number {
  if (cases.some((c) => c.outcome === 'failed')) return EXIT.NON_CONFORMANT;
  if (extraErrors > 0 || cases.some((c) => c.outcome === 'could-not-test' || c.outcome === 'error'))
    return EXIT.COULD_NOT_TEST;
  if (openLeftovers(cases).length > 0) return EXIT.COULD_NOT_TEST;
  // A run in which every test was skipped or not applicable verified nothing: no verdict either.
  if (!nothingVerified(cases)) return EXIT.CONFORMANT;
  return EXIT.COULD_NOT_TEST;
}

/** True when tests ran but none of them verified anything (all skipped: not allowed, or not applicable). */
export function nothingVerified(cases: CaseReport[]): boolean {
  return cases.length > 0 && !cases.some((c) => ['passed', 'warning', 'failed', 'waived'].includes(c.outcome));
}

/** Why nothing was verified, from the outcomes: "61 could not test, 6 skipped (allow.* off)". */
export function nothingVerifiedWhy(cases: CaseReport[]): string {
  const n = (o: CaseOutcome[]) => cases.filter((c) => o.includes(c.outcome)).length;
  const parts = [
    [n(['could-not-test', 'error']), 'could not test'],
    [n(['not-allowed']), 'skipped: not allowed on this target (a switch off, or data not confirmed)'],
    [n(['not-applicable']), 'not applicable'],
  ] as const;
  return parts
    .filter(([k]) => k > 0)
    .map(([k, what]) => `${k} ${what}`)
    .join(', ');
}

const RANK: RequirementVerdict[] = [
  'failed',
  'could-not-test',
  'warning',
  'observed',
  'passed',
  'not-applicable',
  'skipped-not-allowed',
  'not-verified',
  'not-run',
];

/** One row per catalog requirement, with its verdict on this target. */
export function requirementRows(
  cases: CaseReport[],
  declared: Map<string, string[]>,
  strict: boolean,
): RequirementRow[] {
  return CATALOG.map((r) => {
    const row: RequirementRow = {
      id: r.id,
      section: r.section,
      grade: r.grade,
      statement: r.statement,
      operations: r.operations,
      verdict: 'not-run',
      notes: [],
      cases: declared.get(r.id) ?? [],
    };
    if (r.notTestable) return { ...row, verdict: 'not-testable', notes: [r.notTestable] };
    if (row.cases.length === 0)
      return r.judgedInTraffic
        ? {
            ...row,
            verdict: 'not-run',
            notes: [`judged in recorded traffic only (--traffic): ` + `${r.judgedInTraffic}`],
          }
        : { ...row, verdict: 'no-test' };
    // Notes are kept per verdict, and the row shows those of the verdict it ends with: a requirement
    // that passed is not annotated with the failure of another requirement in the same test.
    const notes = new Map<RequirementVerdict, string[]>();
    const note = (v: RequirementVerdict, text: string) => notes.set(v, [...(notes.get(v) ?? []), text]);
    for (const c of cases.filter((c) => c.requirements.includes(r.id))) {
      const mine = c.checks.filter((k) => k.requirement === r.id);
      const failed = mine.filter((k) => k.outcome === 'failed');
      for (const k of failed) {
        const v: RequirementVerdict =
          k.grade === 'MUST' || strict ? 'failed' : k.grade === 'SHOULD' ? 'warning' : 'observed';
        note(v, `${v}: ${k.description}; received ${k.received}`);
      }
      if (mine.some((k) => k.outcome === 'passed')) notes.set('passed', notes.get('passed') ?? []);
      if (mine.length === 0 || mine.every((k) => k.outcome === 'not-applicable')) {
        const v: RequirementVerdict | undefined =
          c.outcome === 'could-not-test' || c.outcome === 'error'
            ? 'could-not-test'
            : c.outcome === 'not-applicable' || mine.length > 0
              ? 'not-applicable'
              : c.outcome === 'not-allowed'
                ? 'skipped-not-allowed'
                : c.outcome === 'failed' || c.outcome === 'waived'
                  ? 'not-verified'
                  : undefined;
        if (v) note(v, `${c.title}: ${(c.reason ?? '').split('\n')[0]}`);
      }
    }
    row.verdict = RANK.find((v) => notes.has(v)) ?? 'not-run';
    row.notes = [...new Set(notes.get(row.verdict) ?? [])];
    return row;
  });
}

export const REQUIREMENT_VERDICTS: RequirementVerdict[] = [
  'waived',
  'passed',
  'observed',
  'failed',
  'warning',
  'could-not-test',
  'not-applicable',
  'skipped-not-allowed',
  'not-verified',
  'not-run',
  'not-testable',
  'no-test',
  'not-observed',
];

/** How many catalog requirements ended with each verdict (every verdict present, zero or more). */
export function countVerdicts(rows: RequirementRow[]): Record<RequirementVerdict, number> {
  const out = Object.fromEntries(REQUIREMENT_VERDICTS.map((v) => [v, 0])) as Record<RequirementVerdict, number>;
  for (const r of rows) out[r.verdict]++;
  return out;
}

export function areasOf(cases: CaseReport[]): Area[] {
  return [...new Set(cases.map((c) => c.area))];
}
