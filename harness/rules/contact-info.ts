import { empty_body, not_served, status_code_conformance, success_status } from '../checks';
import { operation_found } from '../checks/served';
import type { Seen, Verifier, OperationRules } from './exchange';
import { is2xx, is4xx, isObject, requestJson, withoutCredentials } from './request';

/**
 * Operation 10, per exchange. Its stored-number rules, and every rule whose evidence is the number on
 * record (which only the log shows), are judged across the log (sequence-rules.ts, judgeContactUpdate).
 */

export const DOCUMENTED_PATH = '/customers/{customerId}:contact-info';

/** The objects of a Contact update request that the body supplies, in the order the spec names them. */
export function suppliedObjects(body: unknown): string[] {
  return isObject(body) ? ['phoneNumber', 'email', 'postalAddress'].filter((k) => isObject(body[k])) : [];
}

/**
 * The rule a request that must succeed is an instance of, by the objects it supplies: all three
 * (OP10-RULE3-ALL-THREE), one alone or the e-mail and postal address together (OP10-RULE1-SUPPLIED-OBJECTS).
 * A phone number with one other object is neither.
 */
export function suppliedRule(supplied: string[]): string | undefined {
  if (supplied.length === 3) return 'OP10-RULE3-ALL-THREE';
  const one = supplied.length === 1 || (supplied.length === 2 && !supplied.includes('phoneNumber'));
  if (one) return 'OP10-RULE1-SUPPLIED-OBJECTS';
  return undefined;
}

/** A refusal that the request itself cannot explain: the operator's credentials, at the path (not 404/405). */
export const refusedForNoReason = (s: Seen): boolean =>
  s.x.status > 0 && !is2xx(s.x.status) && s.x.status !== 404 && s.x.status !== 405 && s.authority === 'configured';

export function updateContactInfo(s: Seen, v: Verifier): void {
  const body = requestJson(s).json;
  oldPhoneNumberRequired(s, v, body);
  credentialsExpected(s, v);
  documentedPath(s, v);
  const supplied = suppliedObjects(body);
  if (is2xx(s.x.status)) {
    const rule = suppliedRule(supplied);
    if (rule) v.verify(rule, success_status(s.res));
    noContent(s, v);
  }
  // A refusal of an update with no phone number: nothing in it can be the reason (a phone update's
  // refusal may be rule 2's: the log shows whether it named the number on record).
  if (!supplied.includes('phoneNumber') && refusedForNoReason(s)) {
    const rule = suppliedRule(supplied);
    if (rule) v.verify(rule, success_status(s.res));
  }
  loginId(s, v, body, supplied);
}

/** OP10-RULE2-OLD-PHONE-REQUIRED: a phoneNumber object without oldPhoneNumber is not served. */
function oldPhoneNumberRequired(s: Seen, v: Verifier, body: unknown): void {
  const phone = isObject(body) ? body.phoneNumber : undefined;
  if (!isObject(phone) || phone.oldPhoneNumber !== undefined) return;
  if (!is2xx(s.x.status) && !is4xx(s.x.status)) return;
  v.verify('OP10-RULE2-OLD-PHONE-REQUIRED', not_served(s.res, 'a phoneNumber object without oldPhoneNumber'));
}

/**
 * OP10-AUTH-EXPECTED (a SHOULD: the spec shows no authentication): a request that carries no
 * Authorization header, nor the operator's contact-info credentials, is not served.
 */
function credentialsExpected(s: Seen, v: Verifier): void {
  if (!withoutCredentials(s) || s.authority === 'configured') return;
  if (!is2xx(s.x.status) && !is4xx(s.x.status)) return;
  v.verify('OP10-AUTH-EXPECTED', not_served(s.res, 'no Authorization header, nor the configured credentials'));
}

/**
 * OP10-PATH at the documented path: served there, or answered anything but 404/405 with the operator's
 * credentials, the operation is found; a 405 says it is not served there (no such method). A 404 may
 * also mean the customer is not on record: the log decides (sequence-rules.ts, versionedPath).
 */
function documentedPath(s: Seen, v: Verifier): void {
  const st = s.x.status;
  const judged = is2xx(st) || st === 405 || (st > 0 && st !== 404 && s.authority === 'configured');
  if (judged) v.verify('OP10-PATH', operation_found(s.res, `{baseUrl}${DOCUMENTED_PATH}`));
}

/** OP10-SUCCESS-NO-CONTENT: "Response: 204, no content, on success." */
function noContent(s: Seen, v: Verifier): void {
  v.verify('OP10-SUCCESS-NO-CONTENT', status_code_conformance(s.res, 204));
  v.verify('OP10-SUCCESS-NO-CONTENT', empty_body(s.res));
}

/**
 * OP10-USERIDTYPE-LOGIN-ID: an update with userIdType LOGIN_ID is served like any other. Served, it
 * passes; a refusal of one without a phone number breaks it where the request cannot explain it (a
 * phone update's refusal is judged across the log, where it named the number on record).
 */
function loginId(s: Seen, v: Verifier, body: unknown, supplied: string[]): void {
  if (!isObject(body) || body.userIdType !== 'LOGIN_ID') return;
  if (is2xx(s.x.status) || (!supplied.includes('phoneNumber') && refusedForNoReason(s))) {
    v.verify('OP10-USERIDTYPE-LOGIN-ID', success_status(s.res));
  }
}

/** The per-exchange rules of this file's operations; harness/rules/exchange-rules.ts gathers every area's. */
export const CONTACT_INFO_RULES: OperationRules = { updateContactInfo };
