import { belongs_to_user, empty_body, json_object_body, not_served, reflects_request, required_members, schema_conformance, shown_value, status_code_conformance, success_status, value_equals, type CheckVerdict } from '../checks';
import { SHOWN } from '../shown-values';
import { header, type Seen, type Verifier } from './exchange';
import { has, is2xx, isObject, requestJson, sentOnce, withoutCredentials } from './request';

/** The rules of the disclosures operations (1–7), per exchange. */

/** "Disclosures: headers sent with every operation", each under its name (any case: HTTP/2 lower-cases names). */
const COMMON = ['authorization', 'transactionid', 'callingappid'];
const carriesCommonHeaders = (s: Seen) => COMMON.every((h) => has(s, h));

/**
 * DISC-AUTH-REQUIRED: a request without credentials, or with a bearer token the target never issued,
 * is not served (any answer but a 2xx).
 */
function disclosureAuthentication(s: Seen, v: Verifier): void {
  if (withoutCredentials(s)) v.verify('DISC-AUTH-REQUIRED', not_served(s.res, 'no Authorization header'));
  else if (s.authority === 'made-up') v.verify('DISC-AUTH-REQUIRED', not_served(s.res, 'a bearer token the target never issued'));
}

/**
 * The request rule of a disclosures operation: a request carrying the common headers is served (any
 * 2xx). A refusal breaks it only where the log knows the credentials are the operator's.
 */
function served(s: Seen, v: Verifier, requirement: string): void {
  const vouched = is2xx(s.x.status) || s.authority === 'configured';
  if (vouched && carriesCommonHeaders(s)) v.verify(requirement, success_status(s.res));
}

export function listInstitutionDisclosures(s: Seen, v: Verifier): void {
  disclosureAuthentication(s, v);
  served(s, v, 'OP1-REQUEST');
  if (!is2xx(s.x.status)) return;
  v.verify('CONV-JSON-BODIES', json_object_body(s.res));
  if (!v.verify('OP1-RESPONSE-ENVELOPE', schema_conformance(s.res, 'institution-disclosure-list'))) return;
  const items = (s.res.json as { institutionDisclosures?: unknown[] } | undefined)?.institutionDisclosures ?? [];
  items.forEach((item, i) => v.verify('RES-DISCLOSURE-FIELD-TYPES', schema_conformance(s.res, 'institution-disclosure', item, `institutionDisclosures[${i}]`)));
  items.forEach((item, i) => v.verify('RES-DISCLOSURE-OPTIONAL-MEMBERS', required_members(item, ['institutionDisclosureId', 'institutionId', 'institutionDisclosureName'], `institutionDisclosures[${i}]`, s.res)));
  for (const item of items) {
    const t = isObject(item) ? item.institutionDisclosureDataType : undefined;
    if (t !== undefined) v.verify('RES-DISCLOSURE-DATATYPE-VALUES', shown_value(t, SHOWN.institutionDisclosureDataType, 'institutionDisclosureDataType', s.res));
  }
}

export function writeInstitutionDisclosure(requestRule: string, responseRule: string, schema: string) {
  return (s: Seen, v: Verifier): void => {
    disclosureAuthentication(s, v);
    if (!is2xx(s.x.status)) return;
    served(s, v, requestRule);
    v.verify('CONV-JSON-BODIES', json_object_body(s.res));
    v.verify(responseRule, schema_conformance(s.res, schema));
    const body = s.res.json;
    if (isObject(body) && body.institutionDisclosureDataType !== undefined) v.verify('RES-DISCLOSURE-DATATYPE-VALUES', shown_value(body.institutionDisclosureDataType, SHOWN.institutionDisclosureDataType, 'institutionDisclosureDataType of the response', s.res));
    if (!isObject(body)) return;
    // The response describes the disclosure as sent: the values header and body agree on ("which wins: not shown").
    const sentValues: Record<string, unknown> = {};
    for (const [member, parse] of [['institutionDisclosureName', String], ['institutionId', String], ['institutionDisclosureStatus', (x: string) => x === 'true']] as const) {
      const v2 = sentOnce(s, member, member);
      if (v2.known && (member !== 'institutionDisclosureStatus' || v2.value === 'true' || v2.value === 'false')) sentValues[member] = parse(v2.value!);
    }
    if (Object.keys(sentValues).length) v.verify(requestRule === 'OP3-REQUEST' ? 'OP3-RESPONSE-REFLECTS-REQUEST' : 'OP2-RESPONSE-REFLECTS-REQUEST', reflects_request(body, sentValues, `the ${requestRule === 'OP3-REQUEST' ? 'change' : 'create'} response`, s.res));
    if (requestRule !== 'OP3-REQUEST') return;
    // STATE-ID-CHANGE is a state rule: only a later list shows the change stored (sequence-rules.ts), so
    // the change's own answer never proves it. It can break it: an answer naming another disclosure, or
    // another name than sent, describes a change that was not the one asked for.
    const contradicts = (verdict: CheckVerdict) => verdict.outcome === 'failed' && v.verify('STATE-ID-CHANGE', verdict);
    const changed = s.mapped.pathParams.institutionDisclosureId;
    const what = (member: string) => `${member} of the change response`;
    contradicts(value_equals(body.institutionDisclosureId, changed, what('institutionDisclosureId'), s.res));
    const sent = requestJson(s).json;
    const name = isObject(sent) && typeof sent.institutionDisclosureName === 'string' ? sent.institutionDisclosureName : header(s.x.requestHeaders, 'institutionDisclosureName');
    if (name !== undefined && body.institutionDisclosureName !== undefined) {
      contradicts(value_equals(body.institutionDisclosureName, name, what('institutionDisclosureName'), s.res));
    }
  };
}

export function listUserDisclosures(s: Seen, v: Verifier): void {
  disclosureAuthentication(s, v);
  if (!is2xx(s.x.status)) return;
  if (s.mapped.query.has('InstitutionConsumerId')) served(s, v, 'OP4-REQUEST');
  v.verify('CONV-JSON-BODIES', json_object_body(s.res));
  if (!v.verify('OP4-RESPONSE-ENVELOPE', schema_conformance(s.res, 'institution-user-disclosure-list'))) return;
  const records = (s.res.json as { institutionUserDisclosures?: unknown[] } | undefined)?.institutionUserDisclosures ?? [];
  records.forEach((r, i) => v.verify('OP4-RESPONSE-MEMBERS', required_members(r, ['institutionId', 'institutionUserId', 'institutionUserDisclosureStatus', 'institutionDisclosureName'], `institutionUserDisclosures[${i}]`, s.res)));
  records.forEach((r, i) => v.verify('RES-USERDISC-FIELD-TYPES', schema_conformance(s.res, 'institution-user-disclosure', r, `institutionUserDisclosures[${i}]`)));
  theUsersRecords(s, v, records);
  records.forEach((r, i) => {
    if (isObject(r) && r.institutionUserDisclosureStatus !== undefined) v.verify('RES-USERDISC-STATUS-VALUES', shown_value(r.institutionUserDisclosureStatus, SHOWN.institutionUserDisclosureStatus, `institutionUserDisclosures[${i}].institutionUserDisclosureStatus`, s.res));
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
    const why = named.some((u) => u !== undefined) ? 'no record carries the id the request names'
      : 'the request names no user';
    who = ` (${why}: the list's user is the one most of its records are of)`;
  }
  for (const [r, i] of objs) {
    const where = `institutionUserDisclosures[${i}]${who}`;
    v.verify('OP4-ONLY-THE-USERS-RECORDS', belongs_to_user(r, new Set([user]), where, s.res));
  }
}

/** Operations 5–7: a 2xx is the documented 204 with no content. */
export function noContentWrite(requestRule: string, statusRule: string) {
  return (s: Seen, v: Verifier): void => {
    disclosureAuthentication(s, v);
    if (!is2xx(s.x.status)) return;
    served(s, v, requestRule);
    v.verify(statusRule, status_code_conformance(s.res, 204));
    v.verify(statusRule, empty_body(s.res));
  };
}

