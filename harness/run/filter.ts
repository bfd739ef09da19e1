import type { CaseDef, Feature } from '../case';
import { OPERATIONS } from '../operations';
import { requirement } from '../../requirements';

/** Which cases a run selects: a text pattern and tags (requirement ids, grades, operation keys), and what to leave out.
 * */
export interface CaseFilter {
  grep?: string;
  tags?: string[];
  excludeGrep?: string;
  excludeTags?: string[];
}

export function caseTags(f: Feature, c: CaseDef): string[] {
  return [f.area, f.operation, ...c.requirements, ...new Set(c.requirements.map((r) => requirement(r).grade))];
}

/**
 * What --grep looks at: the operation as the reports show it ("1. List institution disclosures",
 * the Allure feature and the summary's operation), its key (listInstitutionDisclosures), the test's
 * title and its requirement ids. Each on its own line, so that a pattern matches within one of them.
 */
export function grepText(f: Feature, c: CaseDef): string {
  const op = OPERATIONS[f.operation];
  return [`${op.number}. ${op.name}`, f.operation, c.title, ...c.requirements].join('\n');
}

/** A pattern matches as a regular expression or as plain text (a title copied from a report, parentheses and all);
 * case-insensitive. */
export function textMatches(pattern: string, text: string): boolean {
  if (text.toLowerCase().includes(pattern.toLowerCase())) return true;
  try {
    return new RegExp(pattern, 'im').test(text);
  } catch {
    return false;
  }
}

/** A console line copied whole, read back into the test it names (see consoleLineTest). */
export interface ConsoleLineTest {
  area: string;
  operation: string;
  title: string;
}

/**
 * The test a console line names, where `pattern` is one copied whole: a progress line ("✓ disclosures › 1. List
 * institution disclosures › title (12 ms)") or a failure line ("✗ OP1-REQUEST [MUST] disclosures › 1. List … ›
 * title (spec section "…"): …"). Undefined for any other pattern.
 */
export function consoleLineTest(pattern: string): ConsoleLineTest | undefined {
  const parts = pattern.trim().split(' › ');
  if (parts.length < 3) return undefined;
  const area = parts[0]!.trim().split(/\s+/).at(-1)!;
  const operation = parts[1]!.trim();
  const title = parts
    .slice(2)
    .join(' › ')
    .replace(/ \(spec section "[\s\S]*$/, '')
    .replace(/ \((?:\d+(?:\.\d+)? ?(?:ms|s)|not run)\)$/, '')
    .trim();
  if (!/^\d+\. /.test(operation) || title === '') return undefined;
  return { area, operation, title };
}

/** --grep: a console line copied whole selects exactly its test; any other pattern, as textMatches says. */
export function grepSelects(pattern: string, f: Feature, c: CaseDef): boolean {
  const line = consoleLineTest(pattern);
  const op = OPERATIONS[f.operation];
  if (line && line.area === f.area)
    return line.operation === `${op.number}. ${op.name}` && line.title.toLowerCase() === c.title.toLowerCase();
  return textMatches(pattern, grepText(f, c));
}

function hasTag(tags: string[], f: Feature, c: CaseDef): boolean {
  const mine = caseTags(f, c).map((t) => t.toLowerCase());
  return tags.some((t) => mine.includes(t.toLowerCase()));
}

export function selects(filter: CaseFilter | undefined, f: Feature, c: CaseDef): boolean {
  if (!filter) return true;
  if (filter.grep && !grepSelects(filter.grep, f, c)) return false;
  if (filter.tags?.length && !hasTag(filter.tags, f, c)) return false;
  if (filter.excludeGrep && grepSelects(filter.excludeGrep, f, c)) return false;
  if (filter.excludeTags?.length && hasTag(filter.excludeTags, f, c)) return false;
  return true;
}
