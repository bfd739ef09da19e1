import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPORT_FILES } from './report';
import { CONTRACT_COVERAGE_FILES } from '../contract-coverage/files';

const CONTRACT_FILES = Object.values(CONTRACT_COVERAGE_FILES);

/** The files a run writes in its reports folder, each run anew (allure-results/ is cleared by clearResults). */
const RUN_OUTPUTS = [
  'conformance-summary.md',
  'conformance-summary.json',
  'junit.xml',
  REPORT_FILES.html,
  ...CONTRACT_FILES,
];
const BUNDLE = /^dbsi-evidence-.*\.tar\.gz$/;

/**
 * Remove what an earlier run wrote in the reports folder before this run writes its own, so that a
 * folder never mixes runs (a green HTML report beside a red summary). Kept: Allure's history
 * (allure-history.jsonl and its marker, the trend of every test), a dry run's plan and the OpenAPI
 * document, which other commands write. Returns the names removed.
 */
export function removePreviousOutputs(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const gone = names.filter((n) => RUN_OUTPUTS.includes(n) || BUNDLE.test(n));
  for (const n of gone) rmSync(join(dir, n), { force: true });
  return gone;
}
