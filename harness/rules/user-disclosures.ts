import {
  belongs_to_user,
  empty_body,
  json_object_body,
  required_members,
  schema_conformance,
  shown_value,
  status_code_conformance,
} from '../checks';
import { SHOWN } from '../shown-values';
import { header, type Seen, type Verifier, type OperationRules } from './exchange';
import { disclosureAuthentication, served } from './disclosures';
import { is2xx, isObject } from './request';

/** The rules of the user disclosure operations (4–7), per exchange. */

export function listUserDisclosures(s: Seen, v: Verifier): void {
  disclosureAuthentication(s, v);
  if (s.mapped.query.has('InstitutionConsumerId')) served(s, v, 'OP4-REQUEST');
  if (!is2xx(s.x.status)) return;
  v.verify('CONV-JSON-BODIES', json_object_body(s.res));
  if (!v.verify('OP4-RESPONSE-ENVELOPE', schema_conformance(s.res, 'institution-user-disclosure-list'))) return;
  const records =
    (s.res.json as { institutionUserDisclosures?: unknown[] } | undefined)?.institutionUserDisclosures ?? [];
  records.forEach((r, i) =>
    v.verify(
      'OP4-RESPONSE-MEMBERS',
      required_members(
        r,
        ['institutionId', 'institutionUserId', 'institutionUserDisclosureStatus', 'institutionDisclosureName'],
        `institutionUserDisclosures[${i}]`,
        s.res,
      ),
    ),
  );
  records.forEach((r, i) =>
    v.verify(
      'RES-USERDISC-FIELD-TYPES',
      schema_conformance(s.res, 'institution-user-disclosure', r, `institutionUserDisclosures[${i}]`),
    ),
  );
  theUsersRecords(s, v, records);
  records.forEach((r, i) => {
    if (isObject(r) && r.institutionUserDisclosureStatus !== undefined)
      v.verify(
        'RES-USERDISC-STATUS-VALUES',
        shown_value(
          r.institutionUserDisclosureStatus,
          SHOWN.institutionUserDisclosureStatus,
          `institutionUserDisclosures[${i}].institutionUserDisclosureStatus`,
          s.res,
        ),
      );
  });
}

/**
 * OP4-ONLY-THE-USERS-RECORDS: "List the disclosures accepted by a user": the list is one user's. The
 * user asked for is the one the request names (InstitutionConsumerId, else an InstitutionUserId
 * header), where some record carries that id (a target may give users ids of its own). Where the
 * request names none that a record carries (the token's user), a list holding records of several
 * users is not one user's list whoever was asked for: the records of all but the user most of them
 * are of break the rule.
 */
function theUsersRecords(s: Seen, v: Verifier, records: unknown[]): void {
  const objs = records.map((r, i) => [r, i] as const).filter((p): p is [Record<string, any>, number] => isObject(p[0]));
  const ids = objs.map(([r]) => r.institutionUserId).filter((u): u is string => typeof u === 'string');
  const consumer = s.mapped.query.get('InstitutionConsumerId') ?? undefined;
  const named = [consumer, header(s.x.requestHeaders, 'InstitutionUserId')];
  const asked = named.find((u): u is string => u !== undefined && ids.includes(u));
  let user: string | undefined = asked;
  let who = '';
  if (user === undefined) {
    const counts = new Map<string, number>();
    for (const u of ids) counts.set(u, (counts.get(u) ?? 0) + 1);
    if (counts.size < 2) return;
    user = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    const why = named.some((u) => u !== undefined)
      ? 'no record carries the id the request names'
      : 'the request names no user';
    who = ` (${why}: the list's user is the one most of its records are of)`;
  }
  for (const [r, i] of objs) {
    const where = `institutionUserDisclosures[${i}]${who}`;
    v.verify('OP4-ONLY-THE-USERS-RECORDS', belongs_to_user(r, new Set([user]), where, s.res));
  }
}

/**
 * The query parameters operations 6 and 7 make mandatory under a condition no request shows: InstitutionCustomerId
 * "mandatory for business banking requests" (both), AccountType "mandatory for multi-statement disclosures" (7).
 */
const CONDITIONALLY_MANDATORY: Readonly<Record<string, readonly string[]>> = {
  'OP6-REQUEST': ['InstitutionCustomerId'],
  'OP6-REQUEST-BY-ID': ['InstitutionCustomerId'],
  'OP7-REQUEST': ['InstitutionCustomerId', 'AccountType'],
  'OP7-REQUEST-BY-ID': ['InstitutionCustomerId', 'AccountType'],
};

/**
 * A request without one of them, refused as a request that does not meet the requirements (400 or 422), may be
 * refused rightly (a business banking target, a multi-statement disclosure): the exchange says nothing of the
 * request rule. Any other refusal (404, 405, 403, 5xx) is judged as ever.
 */
function refusedForLackingConditional(s: Seen, requestRule: string): boolean {
  const lacking = (CONDITIONALLY_MANDATORY[requestRule] ?? []).some((q) => !s.mapped.query.get(q));
  return lacking && (s.x.status === 400 || s.x.status === 422);
}

/** Operations 5–7: a request with the common headers is served; a 2xx is the documented 204 with no content. */
export function noContentWrite(requestRule: string, statusRule: string) {
  return (s: Seen, v: Verifier): void => {
    disclosureAuthentication(s, v);
    if (!refusedForLackingConditional(s, requestRule)) served(s, v, requestRule);
    if (!is2xx(s.x.status)) return;
    v.verify(statusRule, status_code_conformance(s.res, 204));
    v.verify(statusRule, empty_body(s.res));
  };
}

/** The per-exchange rules of this file's operations; harness/rules/exchange-rules.ts gathers every area's. */
export const USER_DISCLOSURE_RULES: OperationRules = {
  listUserDisclosures,
  createUserDisclosure: noContentWrite('OP5-REQUEST', 'OP5-STATUS-204'),
  changeUserDisclosure: noContentWrite('OP6-REQUEST', 'OP6-STATUS-204'),
  changeUserDisclosureById: noContentWrite('OP6-REQUEST-BY-ID', 'OP6-STATUS-204'),
  deleteUserDisclosure: noContentWrite('OP7-REQUEST', 'OP7-STATUS-204'),
  deleteUserDisclosureById: noContentWrite('OP7-REQUEST-BY-ID', 'OP7-STATUS-204'),
};
