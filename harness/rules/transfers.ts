import { json_object_body, not_served, reflects_request, schema_conformance, status_code_conformance } from '../checks';
import { validate } from '../schemas';
import { bodyTypesRule } from '../transfer-assigned';
import { observeEnumerations, reflectedValues } from '../transfer-values';
import { SCHEDULE_MEMBERS, TRANSFER_MEMBERS } from '../transfer-members';
import { header, type Seen, type Verifier, type OperationRules } from './exchange';
import { has, is2xx, is4xx, isObject, requestJson, withoutCredentials } from './request';

/** Sent only where configured (the builders' oneTimeTransfer), which the log cannot tell. */
const HOLDERS = ['fromAccountHolderId', 'toAccountHolderId'];

/**
 * The request rule a well-formed body is held to: OP9-REQUEST-EVERY-MEMBER where it carries every member the
 * spec documents for Transfer and Schedule, the account holder ids only "where configured": a body that
 * carries every other member is held to OP9-REQUEST too (the log cannot tell whether they were configured).
 */
function requestRules(b: unknown): Array<'OP9-REQUEST' | 'OP9-REQUEST-EVERY-MEMBER'> {
  if (!isObject(b) || !isObject(b.schedule) || !SCHEDULE_MEMBERS.every((m) => b.schedule[m] !== undefined))
    return ['OP9-REQUEST'];
  const unsent = TRANSFER_MEMBERS.filter((m) => b[m] === undefined);
  if (unsent.length === 0) return ['OP9-REQUEST-EVERY-MEMBER'];
  return unsent.every((m) => HOLDERS.includes(m)) ? ['OP9-REQUEST-EVERY-MEMBER', 'OP9-REQUEST'] : ['OP9-REQUEST'];
}

/**
 * Operation 9. The documented statuses apply only where the request shows which rule is in play. In a
 * capture a refusal may be about the token, and only a 2xx or 4xx answer is judged; where the log knows the
 * credentials (Seen.authority: an active run) every answer is: a refusal of a request carrying the operator's
 * token breaks the rule the request is about, made-up credentials or none are answered 401, the configured
 * token that lacks authorization 403.
 */
export function createTransfer(s: Seen, v: Verifier): void {
  const status = s.x.status;
  const body = requestJson(s);
  const badBody = !body.ok || !isObject(body.json) || validate('transfer', body.json).length > 0;
  const noTransactionId = !has(s, 'transactionId');
  const bearer = /^bearer\s/i.test(header(s.x.requestHeaders, 'authorization') ?? '');
  const configured = s.authority === 'configured' && status > 0;
  // What a capture shows the rule in play by; where the log knows the credentials, any answer.
  const shows = is2xx(status) || is4xx(status) || (s.authority !== undefined && status > 0);
  if (noTransactionId && shows) v.verify('OP9-TRANSACTIONID-REQUIRED', not_served(s.res, 'no transactionId header'));
  if (body.ok && badBody && shows)
    v.verify(
      bodyTypesRule(body.json),
      not_served(s.res, 'a body that breaks the documented types ' + 'of the Transfer'),
    );
  // 400 is expected for those (SHOULD); in a capture a 401/403 may be about the token, which cannot be judged.
  // An answer that is not the 400 expected is not held to the error body as well (one report of it).
  const invalid = noTransactionId || (body.ok && badBody);
  if (invalid && bearer && ((is4xx(status) && status !== 401 && status !== 403) || configured))
    if (!v.verify('OP9-INVALID-ANSWERS-400', status_code_conformance(s.res, 400))) return;
  const wellFormed = !noTransactionId && !badBody;
  if (wellFormed && (withoutCredentials(s) || s.authority === 'made-up') && shows)
    v.verify('OP9-AUTH-401', status_code_conformance(s.res, 401));
  if (wellFormed && s.authority === 'unauthorized' && shows)
    v.verify('OP9-AUTH-403', status_code_conformance(s.res, 403));
  const asDocumented = wellFormed && bearer && (s.authority === undefined || configured);
  if (asDocumented && (is2xx(status) || configured))
    for (const rule of requestRules(body.json)) v.verify(rule, status_code_conformance(s.res, 200));
  if (asDocumented && is2xx(status)) {
    v.verify('CONV-JSON-BODIES', json_object_body(s.res));
    if (!v.verify('OP9-RESPONSE-TRANSFER', schema_conformance(s.res, 'transfer'))) return;
    const sent = body.json as Record<string, any>;
    if (isObject(sent.amount)) {
      v.verify(
        'OP9-RESPONSE-REFLECTS-REQUEST',
        reflects_request(s.res.json, reflectedValues(s.res.json, sent), 'the Transfer answered', s.res),
      );
      if (isObject(s.res.json)) observeEnumerations(v, s.res, s.res.json, sent);
    }
  }
  if ([400, 401, 403, 500].includes(status)) {
    v.verify('CONV-JSON-BODIES', json_object_body(s.res));
    v.verify('OP9-ERROR-SHAPE', schema_conformance(s.res, 'transfer-error'));
  }
}

/** The per-exchange rules of this file's operations; harness/rules/exchange-rules.ts gathers every area's. */
export const TRANSFER_RULES: OperationRules = { createTransfer };
