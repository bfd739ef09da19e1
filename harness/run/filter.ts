import type { CaseDef, Feature } from '../case';
import { requirement } from '../../requirements';

/** Which cases a run selects: a title pattern and tags (requirement ids, grades, operation keys). */
export interface CaseFilter {
  grep?: string;
  tags?: string[];
}

export function caseTags(f: Feature, c: CaseDef): string[] {
  return [f.area, f.operation, ...c.requirements, ...new Set(c.requirements.map((r) => requirement(r).grade))];
}

export function selects(filter: CaseFilter | undefined, f: Feature, c: CaseDef): boolean {
  if (!filter) return true;
  if (filter.grep && !new RegExp(filter.grep, 'i').test(`${f.operation} ${c.title}`)) return false;
  if (filter.tags?.length) {
    const tags = caseTags(f, c).map((t) => t.toLowerCase());
    if (!filter.tags.some((t) => tags.includes(t.toLowerCase()))) return false;
  }
  return true;
}
