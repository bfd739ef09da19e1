import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What the composition root (main.ts) and the recorded-traffic source (harness/traffic/run.ts,
 * harness/traffic/recorder/main.ts) share: the package's folder and version, the terminal they write to,
 * the Allure categories. Kept out of main.ts so that neither source imports the composition root.
 */

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Io {
  out(line: string): void;
  err(line: string): void;
  /** Raw output for the progress display, and whether it is a terminal. */
  write?(text: string): void;
  tty?: boolean;
  /** Colour the verdict line (harness/run/colour.ts): a terminal, and no NO_COLOR. */
  colour?: boolean;
}

/** Allure 2 categories.json (allure-vitest writes it); the Allure 3 report uses ALLURE_CATEGORIES of report.ts. */
export const CATEGORIES = [
  { name: 'Non-conformance (a MUST check failed)', matchedStatuses: ['failed'], messageRegex: '^MUST[\\s\\S]*' },
  {
    name: 'Warnings (SHOULD / INFO checks, failing ' + 'under --strict)',
    matchedStatuses: ['failed'],
    messageRegex: '^(SHOULD|INFO)[\\s\\S]*',
  },
  {
    name: 'Could not test (connection refused, ' + 'timeouts, garbage answers)',
    matchedStatuses: ['broken'],
    messageRegex: '^could not test[\\s\\S]*',
  },
  {
    name: 'Suite errors (a bug in dbsi-conformance)',
    matchedStatuses: ['broken'],
    messageRegex: '^suite (error|bug)[\\s\\S]*',
  },
] as const;

export function suiteVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}
