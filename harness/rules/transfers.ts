import { json_object_body, not_served, reflects_request, schema_conformance, status_code_conformance } from '../checks';
import { validate } from '../schemas';
import { bodyTypesRule } from '../transfer-assigned';
import { observeEnumerations, sentValues } from '../transfer-values';
import { SCHEDULE_MEMBERS, TRANSFER_MEMBERS } from '../transfer-members';
import { header, type Seen, type Verifier } from './exchange';
import { has, is2xx, is4xx, isObject, requestJson, withoutCredentials } from './request';

/** A Transfer that carries every member the spec documents for Transfer and Schedule (OP9-REQUEST-EVERY-MEMBER). */
const carriesEveryMember = (b: unknown) =>
  isObject(b) &&
  TRANSFER_MEMBERS.every((m) => b[m] !== undefined) &&
  isObject(b.schedule) &&
  SCHEDULE_MEMBERS.every((m) => b.schedule[m] !== undefined);

/** Operation 9. */
export function createTransfer(s: Seen, v: Verifier): void {
  const status = s.x.status;
  const body = requestJson(s);
  const badBody = !body.ok || !isObject(body.json) || validate('transfer', body.json).length > 0;
  const noTransactionId = !has(s, 'transactionId');
  const bearer = /^bearer\s/i.test(header(s.x.requestHeaders, 'authorization') ?? '');
  if (noTransactionId && (is2xx(status) || is4xx(status)))
    v.verify('OP9-TRANSACTIONID-REQUIRED', not_served(s.res, 'no transactionId header'));
  if (body.ok && badBody && (is2xx(status) || is4xx(status)))
    v.verify(
      bodyTypesRule(body.json),
      not_served(s.res, 'a body that breaks the documented types ' + 'of the Transfer'),
    );
  // 400 is expected for those (SHOULD); a 401/403 may be about the token, which cannot be judged.
  if ((noTransactionId || (body.ok && badBody)) && bearer && is4xx(status) && status !== 401 && status !== 403)
    v.verify('OP9-INVALID-ANSWERS-400', status_code_conformance(s.res, 400));
  if (!noTransactionId && !badBody && withoutCredentials(s) && (is2xx(status) || is4xx(status)))
    v.verify('OP9-AUTH-401', status_code_conformance(s.res, 401));
  if (is2xx(status) && !noTransactionId && !badBody && bearer) {
    v.verify(
      carriesEveryMember(body.json) ? 'OP9-REQUEST-EVERY-MEMBER' : 'OP9-REQUEST',
      status_code_conformance(s.res, 200),
    );
    v.verify('CONV-JSON-BODIES', json_object_body(s.res));
    if (!v.verify('OP9-RESPONSE-TRANSFER', schema_conformance(s.res, 'transfer'))) return;
    const sent = body.json as Record<string, any>;
    if (isObject(sent.amount)) {
      v.verify(
        'OP9-RESPONSE-REFLECTS-REQUEST',
        reflects_request(s.res.json, sentValues(sent), 'the Transfer answered', s.res),
      );
      if (isObject(s.res.json)) observeEnumerations(v, s.res, s.res.json, sent);
    }
  }
  if ([400, 401, 403, 500].includes(status)) {
    v.verify('CONV-JSON-BODIES', json_object_body(s.res));
    v.verify('OP9-ERROR-SHAPE', schema_conformance(s.res, 'transfer-error'));
  }
}
