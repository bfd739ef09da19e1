import type { Requirement } from './types';
import { AUTHENTICATION_REQUIREMENTS } from './authentication';
import { CONTACT_INFO_REQUIREMENTS } from './contact-info';
import { DISCLOSURES_REQUIREMENTS } from './disclosures';
import { DISCLOSURES_STATE_REQUIREMENTS } from './disclosures-state';
import { GENERAL_REQUIREMENTS } from './general';
import { MONEY_MOVEMENT_REQUIREMENTS } from './money-movement';

export type { Requirement } from './types';

/** The whole catalog. Each area's file adds its own entries; ids are unique across all of them. */
export const CATALOG: Requirement[] = [
  ...GENERAL_REQUIREMENTS,
  ...DISCLOSURES_REQUIREMENTS,
  ...DISCLOSURES_STATE_REQUIREMENTS,
  ...AUTHENTICATION_REQUIREMENTS,
  ...MONEY_MOVEMENT_REQUIREMENTS,
  ...CONTACT_INFO_REQUIREMENTS,
];

const byId = new Map(CATALOG.map((r) => [r.id, r]));

export function requirement(id: string): Requirement {
  const r = byId.get(id);
  if (!r) throw new Error(`unknown requirement id ${id}: add it to requirements/ first`);
  return r;
}

export function hasRequirement(id: string): boolean {
  return byId.has(id);
}

/** GitHub-style anchor of a spec heading, e.g. "1. List institution disclosures" -> "1-list-institution-disclosures".
 * */
export function sectionAnchor(section: string): string {
  return section
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}
