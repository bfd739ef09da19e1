import { runHoldoutRow, type HoldoutOutcome, type HoldoutRow } from './_diagnosis-holdout-run';

/**
 * Session 41: one case of the fifth hold-out set of the diagnosis (docs/diagnosis.md, "A hold-out set (session 41)").
 * A row of session 40's shape (_diagnosis-holdout-run.ts), judged on the configuration keys the DIAGNOSIS names: the
 * set of keys its findings name (a group such as testData.transfer counts as itself, not as its members) must be
 * exactly the expected set. Two mistakes at once: both named, nothing else.
 */
export interface Holdout5Row extends Omit<HoldoutRow, 'keys'> {
  /** Exactly the configuration keys or variables the DIAGNOSIS names (as written, e.g. testData.accountId). */
  keys: string[];
  /** Expected before the fixes (the "before" table): exit code and keys, where the suite said something else. */
  before?: { exit: number; keys: string[]; failed?: string[] };
}

/** The configuration keys and variables a text names: testData.…, credentials' variables, base URLs, paths, http. */
const KEY = new RegExp(
  [
    /testData\.[A-Za-z]+(?:\[\d+\])?(?:\.[A-Za-z_]+)*/,
    /DBSI_[A-Z_]+/,
    /(?:base|authBase|transfersBase|contactInfoBase)Url/,
    /callingAppId|paths\.[A-Za-z]+|http\.[A-Za-z]+/,
  ]
    .map((p) => p.source)
    .join('|')
    .replace(/^/, '\\b(')
    .replace(/$/, ')\\b'),
  'g',
);

/** The keys a finding's key names (its own words, not the members a group lists in parentheses). */
export function keysOf(findingKey: string): string[] {
  const own = findingKey.replace(/(testData\.[\w.[\]]+)\s*\([^)]*\)/g, '$1');
  return [...new Set([...own.matchAll(KEY)].map((m) => m[1]!))];
}

/** Every key the findings name, once each, sorted. */
export function namedKeys(o: HoldoutOutcome): string[] {
  return [...new Set(o.keys.flatMap(keysOf))].sort();
}

export async function runHoldout5Row(r: Holdout5Row): Promise<HoldoutOutcome> {
  return runHoldoutRow({ ...r, keys: [] });
}

/** One line per row for the before/after table. */
export function outcome5Line(r: Holdout5Row, o: HoldoutOutcome): string {
  const named = namedKeys(o);
  const right =
    o.exit === r.exit &&
    named.join() === [...r.keys].sort().join() &&
    (r.failed ?? []).every((f) => o.failed.includes(f));
  const verdict = right ? (r.left ? 'left' : 'right') : 'WRONG';
  return `| ${r.id} | exit ${o.exit} | ${o.failed.join(', ') || '-'} | ${named.join('; ') || '-'} | ${verdict} |`;
}
