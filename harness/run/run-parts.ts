/**
 * What a run needs beyond parsing its options: main.ts imports these when a run starts, so that
 * --version, --help, --list and a refused configuration do not load them (docs/benchmarks.md).
 */
export { caseId } from '../case';
export { secretInSuiteText } from '../secrets';
export { FEATURES_BY_AREA } from '../../suites';
export { referenceConfig } from '../../reference-target/config';
export { startReferenceTarget } from '../../reference-target/server';
export { AllureReporter, clearResults } from '../evidence/allure-writer';
export { writeEvidence } from '../evidence/evidence';
export { suiteText } from './suite-text';
export { cleanupDeadlineMs } from '../http/cleanup-retry';
