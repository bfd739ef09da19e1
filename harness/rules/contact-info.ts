import { empty_body, not_served, status_code_conformance, success_status } from '../checks';
import { operation_found } from '../checks/served';
import type { Seen, Verifier } from './exchange';
import { is2xx, is4xx, isObject, requestJson, withoutCredentials } from './request';

/** Operation 10, per exchange (its stored-number rules are judged across the sequence). */
export function updateContactInfo(s: Seen, v: Verifier): void {
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

