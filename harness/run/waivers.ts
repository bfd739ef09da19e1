import { createHash } from 'node:crypto';
import { ConfigError } from '../config';
import { LocalFileError, readRegularFile } from '../local-files';
import { validate } from '../schemas';
import { hasRequirement } from '../../requirements';
import type { CaseReport, CheckResult } from '../model';
import type { RequirementRow } from './results';
import { plural } from './console';

/**
 * Waivers (--waivers FILE, DBSI_WAIVERS): deviations accepted by agreement. A failed check matched by
 * a live waiver is reported waived (case outcome and requirement verdict "waived"): it does not fail the
 * run, and every report lists it first, so that it is never read as a pass. Applied after the setup
 * re-grading: a could-not-test is never waived.
 */
export interface Waiver {
  requirement: string;
  /** Only the failures of this test (its title, or its id). */
  test?: string;
  reason: string;
  reference: string;
  /** YYYY-MM-DD (UTC), the last day it applies. */
  expires: string;
}

export interface WaiverFile {
  file: string;
  sha256: string;
  /** The file as read: packed into the evidence bundle. */
  data: Buffer;
  waivers: Waiver[];
}

/**
 * applied: it waived a failure of this run. expired: its date has passed, it was ignored. no-longer-needed:
 * its requirement (or test) passed. unused: its requirement has no failure to waive in this run (not run,
 * could not test, only a warning).
 */
export type WaiverState = 'applied' | 'expired' | 'no-longer-needed' | 'unused';

export interface WaiverStatus extends Waiver {
  state: WaiverState;
  /** Ids of the tests whose failure it waived. */
  cases: string[];
  /** One line for a person. */
  note: string;
}

export interface WaiverReport {
  file: string;
  sha256: string;
  /** The date (UTC) the expiry dates were compared with. */
  date: string;
  /** Requirements whose verdict is waived. */
  waived: string[];
  waivers: WaiverStatus[];
}

/** Read and check a waivers file; every problem is one ConfigError naming the option (exit 2). */
export function loadWaivers(path: string, subject = '--waivers'): WaiverFile {
  let data: Buffer;
  try {
    data = readRegularFile(path, subject);
  } catch (e) {
    throw new ConfigError(e instanceof LocalFileError ? `cannot read the waivers file (${e.message})` : String(e));
  }
  let raw: unknown;
  try {
    raw = JSON.parse(data.toString('utf8'));
  } catch (e) {
    throw new ConfigError(`the waivers file ${path} (${subject}) is not valid JSON: ${(e as Error).message}`);
  }
  const errors = validate('waivers', raw);
  if (errors.length) {
    const shown = errors.slice(0, 5).join('; ');
    throw new ConfigError(`the waivers file ${path} (${subject}) is invalid: ${shown} (schemas/waivers.schema.json)`);
  }
  const waivers = (raw as { waivers: Waiver[] }).waivers;
  const unknown = [...new Set(waivers.map((w) => w.requirement).filter((id) => !hasRequirement(id)))];
  if (unknown.length) {
    throw new ConfigError(
      `the waivers file ${path} (${subject}) names ` +
        `${unknown.length === 1 ? 'a requirement' : 'requirements'} the catalog ` +
        `does not hold: ${unknown.join(', ')} (npm run conformance -- --list shows the ids)`,
    );
  }
  return { file: path, sha256: createHash('sha256').update(data).digest('hex'), data, waivers };
}

/** Today as YYYY-MM-DD, UTC. */
export const utcDate = (d: Date) => d.toISOString().slice(0, 10);

const expired = (w: Waiver, today: string) => w.expires < today;
const matches = (w: Waiver, c: Pick<CaseReport, 'id' | 'title'>, k: CheckResult) =>
  w.requirement === k.requirement && (w.test === undefined || w.test === c.title || w.test === c.id);
/** A failed check that fails the run: MUST, or any grade under --strict. */
const counts = (k: CheckResult, strict: boolean) => k.outcome === 'failed' && (k.grade === 'MUST' || strict);

const label = (w: Waiver) => `${w.reference}, expires ${w.expires}`;

/** A failed test whose every failure that fails the run a live waiver matches: waived, with the waivers. */
function waivedCase(c: CaseReport, live: Waiver[], strict: boolean): { report: CaseReport; by: Waiver[] } {
  if (c.outcome !== 'failed') return { report: c, by: [] };
  const failing = c.checks.filter((k) => counts(k, strict));
  const liveFor = (k: CheckResult) => live.filter((w) => matches(w, c, k));
  if (!failing.length || !failing.every((k) => liveFor(k).length > 0)) return { report: c, by: [] };
  const by = [...new Set(failing.flatMap(liveFor))];
  const reason = `WAIVED deviation (${by.map(label).join('; ')}), not a pass: ${c.reason ?? ''}`;
  return { report: { ...c, outcome: 'waived', reason }, by };
}

/**
 * One test as the run will judge it with the waivers: for the progress display and --bail while the run
 * goes on (a waived failure does not count towards --bail N).
 */
export function waiveCase(c: CaseReport, file: WaiverFile, o: { strict: boolean; now: Date }): CaseReport {
  const today = utcDate(o.now);
  return waivedCase(
    c,
    file.waivers.filter((w) => !expired(w, today)),
    o.strict,
  ).report;
}

/**
 * The cases and requirement rows with the live waivers applied. A failed test is waived when every check that
 * fails the run is matched by a live waiver; a requirement is waived when every such failure of it is.
 */
export function applyWaivers(
  cases: CaseReport[],
  rows: RequirementRow[],
  file: WaiverFile,
  o: { strict: boolean; now: Date },
): { cases: CaseReport[]; rows: RequirementRow[]; report: WaiverReport } {
  const today = utcDate(o.now);
  const live = file.waivers.filter((w) => !expired(w, today));
  const used = new Map<Waiver, Set<string>>();
  const liveFor = (c: CaseReport, k: CheckResult) => live.filter((w) => matches(w, c, k));
  const outCases = cases.map((c) => {
    const { report, by } = waivedCase(c, live, o.strict);
    for (const w of by) used.set(w, (used.get(w) ?? new Set()).add(c.id));
    return report;
  });
  const outRows = rows.map((r) => {
    if (r.verdict !== 'failed') return r;
    const failures = outCases.flatMap((c) =>
      c.checks.filter((k) => k.requirement === r.id && counts(k, o.strict)).map((k) => ({ c, k })),
    );
    if (!failures.length || !failures.every(({ c, k }) => c.outcome === 'waived' && liveFor(c, k).length > 0)) return r;
    const by = [...new Set(failures.flatMap(({ c, k }) => liveFor(c, k)))];
    const notes = [...by.map((w) => `waived by ${w.reference} (expires ${w.expires}): ${w.reason}`), ...r.notes];
    return { ...r, verdict: 'waived' as const, notes };
  });
  const verdictOf = new Map(outRows.map((r) => [r.id, r.verdict]));
  const statuses = file.waivers.map((w): WaiverStatus => {
    const base = { ...w, cases: [...(used.get(w) ?? [])] };
    const target = `${w.requirement}${w.test ? ` (test "${w.test}")` : ''}`;
    if (expired(w, today)) {
      const note = `waiver ${w.reference} for ${target} expired on ${w.expires}: ignored`;
      return { ...base, state: 'expired', note };
    }
    if (base.cases.length) {
      const note = `${target} waived by ${w.reference} (expires ${w.expires}): ${w.reason}`;
      return { ...base, state: 'applied', note };
    }
    const passed = w.test
      ? (() => {
          const mine = outCases.filter((c) => c.title === w.test || c.id === w.test);
          const checks = mine.flatMap((c) => c.checks.filter((k) => k.requirement === w.requirement));
          return checks.length > 0 && checks.every((k) => k.outcome === 'passed');
        })()
      : verdictOf.get(w.requirement) === 'passed';
    if (passed) {
      return { ...base, state: 'no-longer-needed', note: `waiver no longer needed: ${target} passed (${w.reference})` };
    }
    const v = verdictOf.get(w.requirement) ?? 'not-run';
    const note = `waiver ${w.reference} for ${target} not used: no failure to waive (${v})`;
    return { ...base, state: 'unused', note };
  });
  const waived = outRows.filter((r) => r.verdict === 'waived').map((r) => r.id);
  const report: WaiverReport = { file: file.file, sha256: file.sha256, date: today, waived, waivers: statuses };
  return { cases: outCases, rows: outRows, report };
}

/**
 * The exit code with the waivers' own rule: a waiver no longer needed fails the run under --strict
 * (as a failure does, it outranks could-not-test and partial coverage).
 */
export function waiverExitCode(exitCode: number, report: WaiverReport | undefined, strict: boolean): number {
  if (!report || !strict || ![0, 3, 5].includes(exitCode)) return exitCode;
  return report.waivers.some((w) => w.state === 'no-longer-needed') ? 1 : exitCode;
}

/** The verdict and headline with the waived deviations named: "conformant with 2 waived deviations". */
export function waivedHeadline<F extends { verdict: string; headline?: string; exitCode: number }>(
  facts: F,
  report?: WaiverReport,
): F {
  const n = report?.waived.length ?? 0;
  if (!n) return facts;
  const what = plural(n, 'waived deviation');
  const headline = facts.headline ?? facts.verdict;
  if (facts.verdict === 'conformant' && facts.exitCode === 0) {
    return { ...facts, verdict: 'conformant with waived deviations', headline: `conformant with ${what}` };
  }
  if (facts.verdict === 'conformant in the areas tested') {
    const head = /^conformant in the areas tested( \(\d+ of \d+\))?/;
    return { ...facts, headline: headline.replace(head, (m) => `${m} with ${what}`) };
  }
  return { ...facts, headline: `${headline} (and ${what})` };
}

/** The console's first block: the waived deviations, then expired waivers and those no longer needed. */
export function waiverBlock(report: WaiverReport | undefined, strict: boolean): string[] {
  if (!report) return [];
  const out: string[] = [];
  const applied = report.waivers.filter((w) => w.state === 'applied');
  if (applied.length) {
    out.push(`Waived deviations (${report.waived.length}; accepted by agreement, NOT passes; from ${report.file}):`);
    for (const w of applied) out.push(`  ~ ${w.note}; ${plural(w.cases.length, 'test')}: ${w.cases.join(', ')}`);
  }
  for (const w of report.waivers.filter((x) => x.state === 'expired')) out.push(`  EXPIRED: ${w.note}`);
  for (const w of report.waivers.filter((x) => x.state === 'no-longer-needed')) {
    out.push(`  ${strict ? 'FAILURE (--strict)' : 'WARNING'}: ${w.note}; remove it from ${report.file}`);
  }
  for (const w of report.waivers.filter((x) => x.state === 'unused')) out.push(`  note: ${w.note}`);
  if (out.length && !applied.length) out.unshift(`Waivers (${report.file}): none applied`);
  return out;
}
