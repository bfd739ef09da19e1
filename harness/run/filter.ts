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

function hasTag(tags: string[], f: Feature, c: CaseDef): boolean {
  const mine = caseTags(f, c).map((t) => t.toLowerCase());
  return tags.some((t) => mine.includes(t.toLowerCase()));
}

export function selects(filter: CaseFilter | undefined, f: Feature, c: CaseDef): boolean {
  if (!filter) return true;
  if (filter.grep && !textMatches(filter.grep, grepText(f, c))) return false;
  if (filter.tags?.length && !hasTag(filter.tags, f, c)) return false;
  if (filter.excludeGrep && textMatches(filter.excludeGrep, grepText(f, c))) return false;
  if (filter.excludeTags?.length && hasTag(filter.excludeTags, f, c)) return false;
  return true;
}
