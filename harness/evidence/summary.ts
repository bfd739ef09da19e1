import type { CaseReport, Exploration, Leftover } from '../model';
import { openLeftovers, setToConfigured, type OpenLeftover } from '../run/leftovers';
import type { Coverage } from '../run/coverage';
import {
  countByArea,
  countVerdicts,
  type AreaCounts,
  type RequirementRow,
  type RequirementVerdict,
} from '../run/results';
import { trafficSection, type TrafficSummary } from '../traffic/summary-section';
import type { SetupFinding } from '../setup/diagnosis';
import type { UnremovableRecord } from '../run/unremovable';
import type { WaiverReport } from '../run/waivers';
import type { DeclaredDeviation } from '../run/deviations';
import type { Comparison } from '../run/compare';
import { contractFigureMarkdown, type ContractFigure } from './summary-coverage';
import {
  areasTable,
  comparisonSection,
  coversSection,
  deviationsSection,
  exploredSection,
  factsTable,
  failuresSection,
  requirementsSection,
  retriesSection,
  setupSections,
  titleLines,
  waiversSection,
} from './summary-sections';

export interface RunFacts {
  target: {
    name: string;
    baseUrl: string;
    authBaseUrl: string;
    transfersBaseUrl: string;
    embedded: boolean;
    faults: string[];
  };
  suiteVersion: string;
  /** SHA-256 of the configuration without its secrets (harness/run/compare.ts configFingerprint). */
  configSha256?: string;
  /** The spec the suite was built from: its file, SHA-256 (the spec version), and where its sections are linked. */
  spec: { file: string; sha256: string; url?: string };
  seed: number;
  strict: boolean;
  areas: string[];
  filter: { grep?: string; tags?: string[]; excludeGrep?: string; excludeTags?: string[] };
  startedAt: string;
  durationMs: number;
  node: string;
  exitCode: number;
  verdict:
    | 'conformant'
    | 'conformant with waived deviations'
    | 'conformant in the areas tested'
    | 'non-conformant'
    | 'could not test'
    | 'interrupted'
    | 'left changes on the target'
    | 'waiver no longer needed';
  /** The verdict and what it covers: "conformant in the areas tested (1 of 4); not tested: …". */
  headline?: string;
  /** What the verdict is about where it is not the run's own tests: "in what the traffic shows (40 of 70 …)". */
  scope?: string;
  /** Which selected areas verified something, and why the others did not (a CI reads coverage.notTested). */
  coverage?: Coverage;
  /** Problems outside any case (a suite file that failed to load, an interruption). */
  problems: string[];
  /** What the configuration declares the target does differently from the spec (paths). */
  deviations?: DeclaredDeviation[];
}

export interface ConformanceSummary {
  $schema: string;
  facts: RunFacts;
  /** --waivers: the deviations accepted by agreement (listed first: a waived deviation is never a pass). */
  waivers?: WaiverReport;
  /** --compare: what changed since an earlier run. */
  comparison?: Comparison;
  /** The contract-coverage figure of the selected areas, with the files of the coverage table. */
  contractCoverage?: ContractFigure;
  areas: Record<string, AreaCounts>;
  /** How many catalog requirements ended with each verdict. */
  requirementTotals: Record<RequirementVerdict, number>;
  requirements: RequirementRow[];
  /** What the run changed on the target and could not put back, with the values to restore by hand (empty when
   * everything is as found). */
  leftovers: OpenLeftover[];
  /** What the run set back to the values configured as on record (e-mail, postal address): the interface cannot
   * confirm what was there before. */
  setToConfigured?: OpenLeftover[];
  /** What the run created that the interface cannot remove (institution disclosures, transfers). */
  unremovable: UnremovableRecord[];
  /** What the operator's setup kept from a verdict, and which key or variable to check. */
  diagnosis: SetupFinding[];
  cases: Array<
    Pick<CaseReport, 'id' | 'area' | 'operation' | 'title' | 'requirements' | 'outcome' | 'reason' | 'durationMs'> & {
      exchanges: number;
      curl?: string;
      retries?: string[];
      leftovers?: Leftover[];
    }
  >;
  /** Judging recorded traffic (--traffic): the capture, coverage per operation, a line per exchange. */
  traffic?: TrafficSummary;
  /** The model-based explorer: what it reached (docs/explorer.md). */
  exploration?: Exploration;
}

export function buildSummary(
  facts: RunFacts,
  cases: CaseReport[],
  rows: RequirementRow[],
  setup: {
    diagnosis?: SetupFinding[];
    unremovable?: UnremovableRecord[];
    waivers?: WaiverReport;
    comparison?: Comparison;
    contractCoverage?: ContractFigure;
  } = {},
): ConformanceSummary {
  return {
    $schema: 'https://dbsi-conformance.dev/schemas/conformance-summary.schema.json',
    facts,
    ...(setup.waivers ? { waivers: setup.waivers } : {}),
    ...(setup.comparison ? { comparison: setup.comparison } : {}),
    ...(setup.contractCoverage ? { contractCoverage: setup.contractCoverage } : {}),
    areas: countByArea(cases),
    requirementTotals: countVerdicts(rows),
    requirements: rows,
    leftovers: openLeftovers(cases),
    ...(setToConfigured(cases).length ? { setToConfigured: setToConfigured(cases) } : {}),
    unremovable: setup.unremovable ?? [],
    diagnosis: setup.diagnosis ?? [],
    cases: cases.map((c) => ({
      id: c.id,
      area: c.area,
      operation: c.operation,
      title: c.title,
      requirements: c.requirements,
      outcome: c.outcome,
      reason: c.reason,
      durationMs: c.durationMs,
      exchanges: c.exchanges.length,
      curl: c.checks.find((k) => k.outcome === 'failed')?.curl,
      ...retriesOf(c),
      ...(c.leftovers?.length ? { leftovers: c.leftovers } : {}),
    })),
  };
}

/** The safe retries that happened in a case (429, 503 on a read, connection refused), one line each. */
function retriesOf(c: CaseReport): { retries?: string[] } {
  const lines = c.exchanges.flatMap((e) => e.retries.map((r) => `${e.request.method} ${e.request.url}: ${r}`));
  return lines.length ? { retries: lines } : {};
}

/** The summary as Markdown: its sections (summary-sections.ts) in the order a reviewer reads them. */
export function summaryMarkdown(s: ConformanceSummary): string {
  const out = [
    ...titleLines(s.facts),
    ...contractFigureMarkdown(s.contractCoverage),
    ...coversSection(s),
    ...waiversSection(s),
    ...deviationsSection(s.facts),
    ...comparisonSection(s),
    ...factsTable(s),
    ...setupSections(s),
    ...areasTable(s),
    ...requirementsSection(s),
    ...failuresSection(s),
    ...retriesSection(s),
    ...(s.traffic ? trafficSection(s.traffic) : []),
    ...exploredSection(s.exploration),
  ];
  return out.join('\n') + '\n';
}
