import { belongs_to_user, empty_body, json_object_body, not_served, required_members, schema_conformance, shown_value, status_code_conformance, success_status, value_equals, reflects_request, type CheckVerdict } from '../checks';
import { operation_found } from '../checks/served';
import type { OperationKey } from '../operations';
import { validate } from '../schemas';
import { observeEnumerations, sentValues } from '../transfer-values';
import { header, type Seen, type Verifier } from './exchange';
import { SHOWN } from '../shown-values';
import { SCHEDULE_MEMBERS, TRANSFER_MEMBERS } from '../transfer-members';

/**
 * Per exchange: which of the active suite's checks an observed answer can be held to, and only
 * those. The checks are the same functions (harness/checks); what differs from an active case is
 * that the judge did not choose the request, so a check applies only where the request itself
 * shows that the rule is in play. Never a verdict from a guess: a refused request may have had an
 * invalid token (which cannot be told from a valid one), a 404 may mean "not found".
 */

const is2xx = (s: number) => s >= 200 && s < 300;
const is4xx = (s: number) => s >= 400 && s < 500;
const has = (s: Seen, name: string) => header(s.x.requestHeaders, name) !== undefined;
/** A request that carries no credentials at all, in a capture that keeps them. */
const withoutCredentials = (s: Seen) => s.keepsAuthorization && !has(s, 'authorization');

function requestJson(s: Seen): { json?: unknown; ok: boolean } {
  if (s.x.requestBody === undefined || s.x.requestBody.trim() === '') return { ok: false };
  try {
    return { json: JSON.parse(s.x.requestBody), ok: true };
  } catch {
    return { ok: false };
  }
}

const isObject = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);

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

function listInstitutionDisclosures(s: Seen, v: Verifier): void {
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

function writeInstitutionDisclosure(requestRule: string, responseRule: string, schema: string) {
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

function listUserDisclosures(s: Seen, v: Verifier): void {
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
function noContentWrite(requestRule: string, statusRule: string) {
  return (s: Seen, v: Verifier): void => {
    disclosureAuthentication(s, v);
    if (!is2xx(s.x.status)) return;
    served(s, v, requestRule);
    v.verify(statusRule, status_code_conformance(s.res, 204));
    v.verify(statusRule, empty_body(s.res));
  };
}

const REVOCATION_HEADERS = ['institutionId', 'transactionId', 'Content-Type'];

/** A value sent both as a header and as a body member: known only where the two agree ("which wins: not shown"). */
export function sentOnce(s: Seen, headerName: string, member: string): { known: boolean; value?: string } {
  const h = header(s.x.requestHeaders, headerName);
  const parsed = requestJson(s).json;
  const b = isObject(parsed) ? parsed[member] : undefined;
  const bv = b === undefined ? undefined : String(b);
  if (h !== undefined && bv !== undefined && h !== bv) return { known: false };
  const value = h ?? bv;
  return { known: value !== undefined, value };
}

/** Operation 8. The documented statuses apply only where the request shows which rule is in play. */
function revokeToken(s: Seen, v: Verifier): void {
  const status = s.x.status;
  const missing = REVOCATION_HEADERS.filter((h) => !has(s, h));
  const body = requestJson(s);
  const badBody = s.x.requestBody !== undefined && s.x.requestBody.trim() !== '' && (!body.ok || !isObject(body.json) || validate('token-request', body.json).length > 0);
  const c = s.x.credential;
  // "the word Basic, a space, then the base64 encoding of the shared key, a colon and the secret key".
  const basic = c?.scheme === 'basic' && c.wellFormedBasic !== false;
  // Credentials that are certainly not that (another scheme, or Basic that does not decode to key:secret): unauthenticated, whatever their validity.
  const notBasic = c !== undefined && (c.scheme !== 'basic' || c.wellFormedBasic === false);
  if (missing.length && basic && (is2xx(status) || status === 400)) v.verify('OP8-HEADER-REQUIRED-400', status_code_conformance(s.res, 400));
  if (!missing.length && badBody && basic && (is2xx(status) || status === 400)) v.verify('OP8-BODY-400', status_code_conformance(s.res, 400));
  if (!missing.length && !badBody && (withoutCredentials(s) || notBasic) && (is2xx(status) || is4xx(status))) v.verify('OP8-AUTH-401', status_code_conformance(s.res, 401));
  const institutionId = header(s.x.requestHeaders, 'institutionId');
  if (institutionId !== undefined && !/^\d+$/.test(institutionId.trim()) && basic && (is2xx(status) || is4xx(status))) v.verify('OP8-INSTITUTIONID-NUMERIC', not_served(s.res, `institutionId ${JSON.stringify(institutionId)} is not the "Numeric unique identifier of the FI"`));
  if (is2xx(status) && !missing.length && !badBody && basic) {
    v.verify('OP8-REQUEST', status_code_conformance(s.res, 200));
    v.verify('CONV-JSON-BODIES', json_object_body(s.res));
    v.verify('OP8-RESPONSE-TOKEN-RECORD', schema_conformance(s.res, 'token-record'));
  }
  if (status === 400 || status === 401) {
    v.verify('CONV-JSON-BODIES', json_object_body(s.res));
    v.verify('OP8-ERROR-SHAPE', schema_conformance(s.res, 'token-revocation-error'));
    const errorType = (s.res.json as { errorInfo?: { errorType?: unknown } } | undefined)?.errorInfo?.errorType;
    if (errorType !== undefined) v.verify('OP8-ERROR-TYPE-VALUES', shown_value(errorType, SHOWN.tokenErrorType, 'errorInfo.errorType', s.res));
  }
}

/** A Transfer that carries every member the spec documents for Transfer and Schedule (OP9-REQUEST-EVERY-MEMBER). */
const carriesEveryMember = (b: unknown) =>
  isObject(b) && TRANSFER_MEMBERS.every((m) => b[m] !== undefined)
  && isObject(b.schedule) && SCHEDULE_MEMBERS.every((m) => b.schedule[m] !== undefined);

/** Operation 9. */
function createTransfer(s: Seen, v: Verifier): void {
  const status = s.x.status;
  const body = requestJson(s);
  const badBody = !body.ok || !isObject(body.json) || validate('transfer', body.json).length > 0;
  const noTransactionId = !has(s, 'transactionId');
  const bearer = /^bearer\s/i.test(header(s.x.requestHeaders, 'authorization') ?? '');
  if (noTransactionId && (is2xx(status) || is4xx(status))) v.verify('OP9-TRANSACTIONID-REQUIRED', not_served(s.res, 'no transactionId header'));
  if (body.ok && badBody && (is2xx(status) || is4xx(status))) v.verify('OP9-BODY-TYPES', not_served(s.res, 'a body that breaks the documented types of the Transfer'));
  // 400 is expected for those (SHOULD); a 401/403 may be about the token, which cannot be judged.
  if ((noTransactionId || (body.ok && badBody)) && bearer && is4xx(status) && status !== 401 && status !== 403) v.verify('OP9-INVALID-ANSWERS-400', status_code_conformance(s.res, 400));
  if (!noTransactionId && !badBody && withoutCredentials(s) && (is2xx(status) || is4xx(status))) v.verify('OP9-AUTH-401', status_code_conformance(s.res, 401));
  if (is2xx(status) && !noTransactionId && !badBody && bearer) {
    v.verify(carriesEveryMember(body.json) ? 'OP9-REQUEST-EVERY-MEMBER' : 'OP9-REQUEST', status_code_conformance(s.res, 200));
    v.verify('CONV-JSON-BODIES', json_object_body(s.res));
    if (!v.verify('OP9-RESPONSE-TRANSFER', schema_conformance(s.res, 'transfer'))) return;
    const sent = body.json as Record<string, any>;
    if (isObject(sent.amount)) {
      v.verify('OP9-RESPONSE-REFLECTS-REQUEST', reflects_request(s.res.json, sentValues(sent), 'the Transfer answered', s.res));
      if (isObject(s.res.json)) observeEnumerations(v, s.res, s.res.json, sent);
    }
  }
  if ([400, 401, 403, 500].includes(status)) {
    v.verify('CONV-JSON-BODIES', json_object_body(s.res));
    v.verify('OP9-ERROR-SHAPE', schema_conformance(s.res, 'transfer-error'));
  }
}

/** Operation 10, per exchange (its stored-number rules are judged across the sequence). */
function updateContactInfo(s: Seen, v: Verifier): void {
  const status = s.x.status;
  const body = requestJson(s).json;
  const phone = isObject(body) ? body.phoneNumber : undefined;
  if (isObject(phone) && phone.oldPhoneNumber === undefined && (is2xx(status) || is4xx(status))) v.verify('OP10-RULE2-OLD-PHONE-REQUIRED', not_served(s.res, 'a phoneNumber object without oldPhoneNumber'));
  if (withoutCredentials(s) && (is2xx(status) || is4xx(status))) v.verify('OP10-AUTH-EXPECTED', not_served(s.res, 'no Authorization header'));
  if (!is2xx(status)) return;
  v.verify('OP10-PATH', operation_found(s.res, '/customers/{customerId}:contact-info'));
  v.verify('OP10-SUCCESS-NO-CONTENT', status_code_conformance(s.res, 204));
  v.verify('OP10-SUCCESS-NO-CONTENT', empty_body(s.res));
  if (!isObject(body)) return;
  const supplied = ['phoneNumber', 'email', 'postalAddress'].filter((k) => isObject(body[k]));
  if (supplied.length === 3) v.verify('OP10-RULE3-ALL-THREE', success_status(s.res));
  else if (supplied.length === 1 || (supplied.length === 2 && !supplied.includes('phoneNumber'))) v.verify('OP10-RULE1-SUPPLIED-OBJECTS', success_status(s.res));
}

/** The per-exchange rules of each documented operation. */
export const EXCHANGE_RULES: Record<OperationKey, (s: Seen, v: Verifier) => void> = {
  listInstitutionDisclosures,
  createInstitutionDisclosure: writeInstitutionDisclosure('OP2-REQUEST', 'OP2-RESPONSE', 'institution-disclosure-create-response'),
  changeInstitutionDisclosure: writeInstitutionDisclosure('OP3-REQUEST', 'OP3-RESPONSE', 'institution-disclosure-change-response'),
  listUserDisclosures,
  createUserDisclosure: noContentWrite('OP5-REQUEST', 'OP5-STATUS-204'),
  changeUserDisclosure: noContentWrite('OP6-REQUEST', 'OP6-STATUS-204'),
  changeUserDisclosureById: noContentWrite('OP6-REQUEST-BY-ID', 'OP6-STATUS-204'),
  deleteUserDisclosure: noContentWrite('OP7-REQUEST', 'OP7-STATUS-204'),
  deleteUserDisclosureById: noContentWrite('OP7-REQUEST-BY-ID', 'OP7-STATUS-204'),
  revokeToken,
  createTransfer,
  updateContactInfo,
};
