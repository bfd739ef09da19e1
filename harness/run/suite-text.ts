import { readFileSync } from 'node:fs';
import { CATALOG } from '../../requirements';
import { FEATURES_BY_AREA } from '../../suites';
import { OPERATIONS } from '../operations';

/**
 * What the suite writes into its reports by itself, whatever the target: the spec it quotes, the
 * requirement catalog, the operations and the test titles. A secret that occurs in it cannot be
 * told apart from the suite's own words (see secretInSuiteText).
 */
export function suiteText(specFile: string): string {
  const titles = Object.values(FEATURES_BY_AREA).flatMap((fs) => fs.flatMap((f) => f.cases.map((c) => c.title)));
  return [readFileSync(specFile, 'utf8'), JSON.stringify(CATALOG), JSON.stringify(OPERATIONS), ...titles].join('\n');
}
