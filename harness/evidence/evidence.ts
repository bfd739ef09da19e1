import { diagnosisBlock } from '../setup/diagnosis';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BundleRefused, scanForSecrets, writeBundle, type ScannedSecret } from './bundle';
import type { ConformancePredicate, SigningKey } from './attestation';
import { signingKeySecret } from './signing-key';
import { buildHtmlReport, REPORT_FILES, type verdictBanner } from './report';
import { CONTRACT_COVERAGE_FILES } from '../contract-coverage/files';
import { addContractCoverage } from './coverage-html';
import { EXIT } from '../run/results';
import type { ConformanceSummary } from './summary';
import { waiverBlock } from '../run/waivers';
import { leftoversBlock } from '../run/leftovers';

export const SUMMARY_FILES = {
  json: 'conformance-summary.json',
  md: 'conformance-summary.md',
  junit: 'junit.xml',
} as const;

/** The waivers file's name inside the evidence bundle. */
export const WAIVERS_ENTRY = 'waivers.json';

/** The bundle's file name: one per run, sortable by time. */
export function bundleName(startedAt: string): string {
  return `dbsi-evidence-${startedAt.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}.tar.gz`;
}

/** The run facts shown on the HTML report's front page. */
export function reportVariables(s: ConformanceSummary): Record<string, string> {
  const f = s.facts;
  const v: Record<string, string> = {
    Verdict: `${f.headline ?? f.verdict} (exit ${f.exitCode})`,
    Target: f.target.embedded ? 'embedded reference target' : f.target.name,
    'Base URL': f.target.baseUrl,
    'Auth base URL': f.target.authBaseUrl,
    'Transfers base URL': f.target.transfersBaseUrl,
    'Suite version': f.suiteVersion,
    'Spec sha256': f.spec.sha256,
    Seed: String(f.seed),
    Strict: String(f.strict),
    Started: f.startedAt,
    Node: f.node,
  };
  if (f.target.faults.length) v['Reference faults'] = f.target.faults.join(', ');
  if (f.deviations?.length) v['Declared deviations'] = f.deviations.map((d) => d.text).join('; ');
  if (s.waivers) {
    v.Waivers = `${s.waivers.waived.length} waived deviation(s): ${s.waivers.file} (sha256 ${s.waivers.sha256})`;
  }
  return v;
}

/** The verdict banner of the HTML report's front page. */
export function reportVerdict(s: ConformanceSummary): Parameters<typeof verdictBanner>[1] {
  const diagnosis = diagnosisBlock(s.diagnosis ?? []);
  const waived = waiverBlock(s.waivers, s.facts.strict);
  const observed = s.requirements.filter((r) => r.verdict === 'observed').length;
  const observations = observed
    ? `${observed} requirement${observed === 1 ? '' : 's'} observed (INFO: ` +
      `something the spec does not list; not a failure)`
    : undefined;
  // The tests as the verdict counts them: Allure's dial leaves skipped tests out (100 % on a run that skipped
  // most of its tests), so the band says what ran and what did not.
  const sum = (k: keyof (typeof s.areas)[string]) => Object.values(s.areas).reduce((n, a) => n + (a[k] ?? 0), 0);
  const parts: Array<[number, string]> = [
    [sum('passed'), 'passed'],
    [sum('warning'), 'with warnings'],
    [sum('failed'), 'failed'],
    [sum('waived'), 'waived'],
    [sum('couldNotTest') + sum('error'), 'could not test'],
    [sum('notApplicable'), 'not applicable'],
    [sum('notAllowed'), 'skipped (not allowed on this target)'],
  ];
  const tests = `${sum('total')} tests: ${parts
    .filter(([n]) => n > 0)
    .map(([n, what]) => `${n} ${what}`)
    .join(', ')}`;
  // What the run left or set on the target: never only in the Markdown (issue 30).
  const leftovers = leftoversBlock(s.leftovers, s.setToConfigured);
  const extra = {
    tests,
    ...(leftovers.length ? { leftovers } : {}),
    ...(waived.length ? { waived } : {}),
    ...(diagnosis.length ? { diagnosis } : {}),
    ...(observations ? { observations } : {}),
  };
  return { headline: s.facts.headline ?? s.facts.verdict, exitCode: s.facts.exitCode, ...extra };
}

export interface EvidenceOptions {
  html: boolean;
  bundle: boolean;
  reportsDir: string;
  resultsDir: string;
  summary: ConformanceSummary;
  secrets: ReadonlyArray<string | ScannedSecret>;
  /** --waivers: the file as read, packed as WAIVERS_ENTRY (its SHA-256 in MANIFEST.json and SHA256SUMS). */
  waivers?: Buffer;
  /** --sign: the key that signs the bundle's attestation (never written anywhere, and scanned for like a secret). */
  sign?: SigningKey;
  io: { out(line: string): void; err(line: string): void };
}

/**
 * After the summary and JUnit files are written: build the single-file HTML report (--html) and
 * the evidence bundle (--bundle). Returns the exit code that overrides the run's, or undefined:
 * EXIT.EVIDENCE_REFUSED when a secret was found in an artifact (the bundle is not written).
 * A report that cannot be built is reported on stderr and leaves the run's verdict alone.
 */
export async function writeEvidence(o: EvidenceOptions): Promise<number | undefined> {
  const written: string[] = [];
  // The history is kept between runs (and cached by CI): a run whose artifacts are refused must not leave its entry
  // there.
  const historyFile = join(o.reportsDir, REPORT_FILES.history);
  const historyBefore = o.bundle && existsSync(historyFile) ? readFileSync(historyFile) : undefined;
  const html = o.html ? await writeHtml(o) : undefined;
  if (html) written.push(html);
  if (o.bundle) {
    const bundle = packBundle(o, html);
    if (typeof bundle !== 'string') {
      restoreHistory(o, bundle, historyFile, historyBefore);
      return EXIT.EVIDENCE_REFUSED;
    }
    written.push(bundle);
  }
  if (written.length) o.io.out(`Evidence: ${written.join(', ')}`);
  return undefined;
}

/** The single-file HTML report (--html), or undefined when it could not be built (said on stderr). */
async function writeHtml(o: EvidenceOptions): Promise<string | undefined> {
  try {
    const html = await buildHtmlReport({
      reportsDir: o.reportsDir,
      resultsDir: o.resultsDir,
      name: `DBSI conformance: ${o.summary.facts.target.name}`,
      variables: reportVariables(o.summary),
      runKey: o.summary.facts.startedAt,
      verdict: reportVerdict(o.summary),
    });
    addContractCoverage(html, o.reportsDir);
    return html;
  } catch (e) {
    o.io.err(`dbsi-conformance: the HTML report could not be built: ${(e as Error).message}`);
    rmSync(join(o.reportsDir, REPORT_FILES.html), { force: true });
    return undefined;
  }
}

/** The evidence bundle (--bundle): its path, or the refusal when a secret was found in an artifact. */
function packBundle(o: EvidenceOptions, html: string | undefined): string | BundleRefused {
  const files = [
    SUMMARY_FILES.md,
    SUMMARY_FILES.json,
    SUMMARY_FILES.junit,
    REPORT_FILES.html,
    ...Object.values(CONTRACT_COVERAGE_FILES),
  ]
    .map((f) => join(o.reportsDir, f))
    .filter((f) => existsSync(f));
  if (!html)
    o.io.err('dbsi-conformance: the evidence bundle is packed without the ' + 'HTML report (it could not be built)');
  const target = join(o.reportsDir, bundleName(o.summary.facts.startedAt));
  try {
    // Every artifact of the run is scanned, not only what is packed: allure-results and the history too.
    const others = artifactFiles(o.reportsDir, o.resultsDir).filter((f) => !files.includes(f));
    const secrets = o.sign ? [...o.secrets, signingKeySecret(o.sign)] : o.secrets;
    const hits = scanForSecrets(
      others.map((f) => ({ name: relative(o.reportsDir, f), data: readFileSync(f) })),
      secrets,
    );
    if (hits.length) throw new BundleRefused(hits);
    const extra = o.waivers ? [{ name: WAIVERS_ENTRY, data: o.waivers }] : [];
    const { suiteVersion, verdict, exitCode, seed } = o.summary.facts;
    const { name, baseUrl, authBaseUrl, transfersBaseUrl, embedded } = o.summary.facts.target;
    const bundleTarget = { name, baseUrl, authBaseUrl, transfersBaseUrl, embedded };
    writeBundle(
      target,
      files,
      secrets,
      { createdAt: new Date().toISOString(), suiteVersion, verdict, exitCode, target: bundleTarget, seed },
      extra,
      o.sign && { signer: o.sign, predicate: predicateOf(o.summary) },
    );
    return target;
  } catch (e) {
    if (e instanceof BundleRefused) return e;
    throw e;
  }
}

/** A refused bundle: said, and the history put back when a secret was found in it. */
function restoreHistory(
  o: EvidenceOptions,
  e: BundleRefused,
  historyFile: string,
  historyBefore: Buffer | undefined,
): void {
  o.io.err(`dbsi-conformance: ${e.message}`);
  if (e.hits.some((h) => h.file === REPORT_FILES.history)) {
    if (historyBefore) writeFileSync(historyFile, historyBefore);
    else rmSync(historyFile, { force: true });
    o.io.err(
      `dbsi-conformance: ${REPORT_FILES.history} is put back as it was before ` +
        `this run, so that no secret is carried into later runs`,
    );
  }
}

/** What the signed attestation says of the run (attestation.ts). */
export function predicateOf(s: ConformanceSummary): ConformancePredicate {
  const f = s.facts;
  const { name, embedded, baseUrl, authBaseUrl, transfersBaseUrl, faults } = f.target;
  return {
    verdict: f.verdict,
    exitCode: f.exitCode,
    ...(f.headline ? { headline: f.headline } : {}),
    target: { name, embedded, baseUrl, authBaseUrl, transfersBaseUrl, faults },
    spec: { file: f.spec.file, sha256: f.spec.sha256 },
    suiteVersion: f.suiteVersion,
    seed: f.seed,
    strict: f.strict,
    startedAt: f.startedAt,
  };
}

/**
 * Every file a run writes in the reports directory: the summaries, JUnit, the HTML report and its
 * history, and allure-results (the directory may hold other things of the user's: only these).
 */
export function artifactFiles(reportsDir: string, resultsDir = join(reportsDir, 'allure-results')): string[] {
  const top = [
    ...Object.values(SUMMARY_FILES),
    ...Object.values(CONTRACT_COVERAGE_FILES),
    REPORT_FILES.html,
    REPORT_FILES.history,
    REPORT_FILES.historyMarker,
  ].map((f) => join(reportsDir, f));
  const results = existsSync(resultsDir) ? readdirSync(resultsDir).map((f) => join(resultsDir, f)) : [];
  return [...top, ...results].filter((f) => existsSync(f) && statSync(f).isFile());
}
