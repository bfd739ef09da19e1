/** The files the contract-coverage report writes in the reports folder (its own module: cheap to import). */
export const CONTRACT_COVERAGE_FILES = { md: 'contract-coverage.md', json: 'contract-coverage.json' } as const;

/** The parameter by which a generated case names the coverage cell it exercises (read by measure.ts). */
export const COVERAGE_CELL = 'coverage cell';
