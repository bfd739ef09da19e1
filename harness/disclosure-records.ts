import { notApplicable, value_equals, type CheckVerdict } from './checks';
import type { HttpResult } from './log/entry';

/**
 * What the disclosure cases (suites/disclosures/) and the traffic judge's sequence rules
 * (harness/rules/sequence-rules.ts) both compare: the listed institution disclosure a run created and
 * its status, and the members an acceptance record is judged "unchanged" on.
 */

export type Listed = Record<string, unknown>;

type UserRecord = Record<string, unknown>;

/** The listed disclosure the run created: by id when known, else by name (and institution). */
export function findDisclosure(
  items: Listed[],
  id: string | undefined,
  name: string,
  institutionId: string,
): Listed | undefined {
  if (id !== undefined) {
    const byId = items.find((i) => i.institutionDisclosureId === id);
    if (byId) return byId;
  }
  return items.find(
    (i) => i.institutionDisclosureName === name && (i.institutionId === undefined || i.institutionId === institutionId),
  );
}

/**
 * The listed status is the one sent. A list element may omit the status (the spec allows it), and a
 * status that is not a boolean is reported once, by RES-DISCLOSURE-FIELD-TYPES.
 */
export function listedStatus(found: Listed, expected: boolean, res: HttpResult): CheckVerdict {
  const d = `the listed institutionDisclosureStatus is ${expected}`;
  const v = found.institutionDisclosureStatus;
  if (v === undefined)
    return notApplicable(
      'value_equals',
      d,
      'the list element omits ' + 'institutionDisclosureStatus, as the spec allows',
      res,
    );
  if (typeof v !== 'boolean')
    return notApplicable(
      'value_equals',
      d,
      `the listed status is not a boolean (${JSON.stringify(v)}; ` + `reported by RES-DISCLOSURE-FIELD-TYPES)`,
      res,
    );
  return value_equals(v, expected, 'the listed institutionDisclosureStatus', res);
}

/** The members the spec documents for an acceptance record: what "unchanged" is judged on. */
const DOCUMENTED = [
  'institutionId',
  'institutionUserId',
  'institutionUserDisclosureStatus',
  'institutionDisclosureName',
  'institutionUserDisclosureId',
  'institutionDisclosureId',
  'accountId',
];

export function documentedMembers(r: UserRecord): UserRecord {
  return Object.fromEntries(DOCUMENTED.filter((m) => r[m] !== undefined).map((m) => [m, r[m]]));
}
