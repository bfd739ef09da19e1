/**
 * What a run needs beyond parsing its options: the active run (active-target.ts, then active-run.ts and its
 * steps) imports these when it starts, so that --version, --help, --list and a refused configuration do not load
 * them (docs/benchmarks.md).
 */
export { caseId, reportWithoutRun } from '../case';
export { secretInSuiteText } from '../secrets';
export { FEATURES_BY_AREA } from '../../suites';
export { referenceConfig } from '../../reference-target/config';
export { startReferenceTarget } from '../../reference-target/server';
export { AllureReporter, clearResults, reviseResult } from '../evidence/allure-writer';
export { writeEvidence } from '../evidence/evidence';
export { suiteText } from './suite-text';
export { cleanupDeadlineMs } from '../http/cleanup-retry';
export { Redactor } from '../redact';
export { specUrl } from '../spec-location';
export { consoleSummary, plural } from './console';
export { coverageOf, fullyCovered, headline } from './coverage';
export { Progress } from './progress';
export { selects } from './filter';
export { junitXml } from '../evidence/junit';
export { exitCodeFor, nothingVerified, nothingVerifiedWhy, requirementRows } from './results';
export { buildSummary, summaryMarkdown } from '../evidence/summary';
export { casesForTerminal, terminalLine, terminalText } from './terminal-text';
export { leftoversBlock, openLeftovers, setToConfigured } from './leftovers';
export { newRunKey, openCancelChannel } from './cancel-channel';
export { unremovableBlock, unremovableRecords } from './unremovable';
export { regradeCase, SetupProof } from '../setup/proof';
export { diagnosisBlock, setupFindings } from '../setup/diagnosis';
export { preflight } from './reachability';
export { removePreviousOutputs } from '../evidence/previous-outputs';
export { applyWaivers, waiveCase, waivedHeadline, waiverBlock, waiverExitCode } from './waivers';
export { declaredDeviations, deviationHeadline, markDeviations } from './deviations';
export { compareRuns, comparisonLines } from './compare';
export { writeAllureResults } from '../evidence/allure-case-results';
export { finishRun } from './finish';
