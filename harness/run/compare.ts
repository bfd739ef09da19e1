import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import type { TargetConfig } from '../config';
import { join } from 'node:path';
import { LocalFileError, readRegularFile } from '../local-files';
import { validate } from '../schemas';
import type { RequirementRow } from './results';
import { UsageError } from './args';
import type { WaiverReport } from './waivers';

/**
 * --compare PREVIOUS: what changed since an earlier run (its conformance-summary.json, or its reports
 * folder). Requirements newly failed, fixed, still failing, newly could not test, and the waivers that
 * expire soon. Information only: the exit code does not change.
 */
export interface PreviousRun {
  file: string;
  startedAt: string;
  verdict: string;
  exitCode: number;
  verdicts: Map<string, string>;
  /** What the run was of: compared with this run's, a difference is named first (RunIdentity). */
  identity?: RunIdentity;
}

/** What a run was of, as its summary's facts say: its target, configuration, spec and selection. */
export interface RunIdentity {
  target?: { name?: string; baseUrl?: string; authBaseUrl?: string; transfersBaseUrl?: string; embedded?: boolean };
  configSha256?: string;
  spec?: { sha256?: string };
  areas?: string[];
  filter?: Record<string, unknown>;
}

/**
 * A fingerprint of the configuration that decides what a run is of, without any secret (no credentials, no
 * revocation password or refresh token, no proxy): two runs with the same one ran the same selection of cases
 * against the same URLs, test data, switches and declared deviations.
 */
export function configFingerprint(cfg: TargetConfig): string {
  const { password: _p, refresh_token: _r, ...revocation } = cfg.testData.revocation;
  const shown = {
    urls: [cfg.baseUrl, cfg.authBaseUrl, cfg.transfersBaseUrl, cfg.contactInfoBaseUrl ?? null],
    paths: cfg.paths ?? {},
    testData: { ...cfg.testData, revocation },
    allow: cfg.allow,
    budgets: cfg.budgets ?? {},
  };
  return createHash('sha256').update(JSON.stringify(shown)).digest('hex');
}

/** What differs between two runs' identities, in words ("target", "configuration", …); none when unknown. */
export function differences(before: RunIdentity | undefined, now: RunIdentity): string[] {
  if (!before) return [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  // The embedded target is one target, wherever it listened (a free port each run), with the suite's own
  // configuration.
  const embedded = before.target?.embedded === true && now.target?.embedded === true;
  const t = (x: RunIdentity) =>
    x.target && (embedded || [x.target.name, x.target.baseUrl, x.target.authBaseUrl, x.target.transfersBaseUrl]);
  const selection = (x: RunIdentity) => ({ areas: [...(x.areas ?? [])].sort(), filter: x.filter ?? {} });
  const out: string[] = [];
  if (!same(t(before), t(now))) out.push('target');
  if (!embedded && before.configSha256 && now.configSha256 && before.configSha256 !== now.configSha256)
    out.push('configuration');
  if (!same(before.spec?.sha256, now.spec?.sha256)) out.push('spec');
  if (!same(selection(before), selection(now))) out.push('area selection');
  return out;
}

export interface Comparison {
  previous: { file: string; startedAt: string; verdict: string; exitCode: number };
  /** What the earlier run was of that this one is not (target, configuration, spec, area selection): said first. */
  differs?: string[];
  newlyFailed: string[];
  fixed: string[];
  stillFailing: string[];
  newlyCouldNotTest: string[];
  /** Waived now (a failure accepted by a waiver), not waived then. */
  newlyWaived: string[];
  /** Live waivers that expire within EXPIRY_WARNING_DAYS of the run's date. */
  expiringSoon: Array<{ requirement: string; test?: string; reference: string; expires: string }>;
}

export const EXPIRY_WARNING_DAYS = 14;
const SUMMARY = 'conformance-summary.json';
/** A summary holds a line per test and per requirement: larger than a configuration, still bounded. */
const MAX_SUMMARY_BYTES = 64 * 1024 * 1024;

/** Read an earlier summary; every problem is one UsageError naming --compare (exit 2). */
export function loadPrevious(path: string): PreviousRun {
  let file = path;
  try {
    if (statSync(path).isDirectory()) file = join(path, SUMMARY);
  } catch {
    // readRegularFile names what is wrong with the path
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readRegularFile(file, '--compare', MAX_SUMMARY_BYTES).toString('utf8'));
  } catch (e) {
    if (e instanceof LocalFileError) {
      throw new UsageError(`${e.message} (a previous ${SUMMARY}, or its reports folder)`);
    }
    throw new UsageError(`--compare: ${file} is not valid JSON: ${(e as Error).message}`);
  }
  const errors = validate('conformance-summary', raw);
  if (errors.length) {
    const shown = errors.slice(0, 3).join('; ');
    throw new UsageError(`--compare: ${file} is not a conformance summary (conformance-summary.schema.json): ${shown}`);
  }
  const s = raw as {
    facts: { startedAt: string; verdict: string; exitCode: number } & RunIdentity;
    requirements: RequirementRow[];
  };
  const { target, configSha256, spec, areas, filter } = s.facts;
  return {
    identity: { target, configSha256, spec, areas, filter },
    file,
    startedAt: s.facts.startedAt,
    verdict: s.facts.verdict,
    exitCode: s.facts.exitCode,
    verdicts: new Map(s.requirements.map((r) => [r.id, r.verdict])),
  };
}

const DAY_MS = 86_400_000;

export function compareRuns(
  prev: PreviousRun,
  rows: RequirementRow[],
  waivers: WaiverReport | undefined,
  now: Date,
  identity?: RunIdentity,
): Comparison {
  const differs = identity ? differences(prev.identity, identity) : [];
  const before = (id: string) => prev.verdicts.get(id);
  const ids = (p: (r: RequirementRow) => boolean) => rows.filter(p).map((r) => r.id);
  const today = now.toISOString().slice(0, 10);
  const horizon = new Date(Date.parse(today) + EXPIRY_WARNING_DAYS * DAY_MS).toISOString().slice(0, 10);
  return {
    previous: { file: prev.file, startedAt: prev.startedAt, verdict: prev.verdict, exitCode: prev.exitCode },
    ...(differs.length ? { differs } : {}),
    newlyFailed: ids((r) => r.verdict === 'failed' && before(r.id) !== 'failed'),
    fixed: ids(
      (r) =>
        (r.verdict === 'passed' || r.verdict === 'observed') &&
        (before(r.id) === 'failed' || before(r.id) === 'waived'),
    ),
    stillFailing: ids((r) => r.verdict === 'failed' && before(r.id) === 'failed'),
    newlyCouldNotTest: ids((r) => r.verdict === 'could-not-test' && before(r.id) !== 'could-not-test'),
    newlyWaived: ids((r) => r.verdict === 'waived' && before(r.id) !== 'waived'),
    expiringSoon: (waivers?.waivers ?? [])
      .filter((w) => w.state !== 'expired' && w.expires <= horizon)
      .map(({ requirement, test, reference, expires }) => ({
        requirement,
        ...(test ? { test } : {}),
        reference,
        expires,
      })),
  };
}

const list = (xs: string[]) => (xs.length ? xs.join(', ') : 'none');

/** Lines for the console and the summary. */
export function comparisonLines(c: Comparison): string[] {
  const p = c.previous;
  const expiring = c.expiringSoon.map((w) => `${w.requirement} (${w.reference}, ${w.expires})`);
  const other = c.differs?.length
    ? ` — a run of another ${c.differs.join(', another ')}: what changed may come from that, not from the target`
    : '';
  return [
    `Compared with the run of ${p.startedAt} (${p.verdict}, exit ${p.exitCode}; ${p.file})${other}:`,
    `  newly failed: ${list(c.newlyFailed)}`,
    `  fixed: ${list(c.fixed)}`,
    `  still failing: ${list(c.stillFailing)}`,
    `  newly could not test: ${list(c.newlyCouldNotTest)}`,
    `  newly waived: ${list(c.newlyWaived)}`,
    `  waivers expiring within ${EXPIRY_WARNING_DAYS} days: ${list(expiring)}`,
  ];
}
