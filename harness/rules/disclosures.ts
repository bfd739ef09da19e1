import { not_served, success_status } from '../checks';
import type { Seen, Verifier } from './exchange';
import { has, is2xx, withoutCredentials } from './request';

/** What every disclosures operation (1–7) is held to, per exchange. */

/** "Disclosures: headers sent with every operation", each under its name (any case: HTTP/2 lower-cases names). */
const COMMON = ['authorization', 'transactionid', 'callingappid'];
const carriesCommonHeaders = (s: Seen) => COMMON.every((h) => has(s, h));

/**
 * DISC-AUTH-REQUIRED: a request without credentials, or with a bearer token the target never issued,
 * is not served (any answer but a 2xx).
 */
export function disclosureAuthentication(s: Seen, v: Verifier): void {
  if (withoutCredentials(s)) v.verify('DISC-AUTH-REQUIRED', not_served(s.res, 'no Authorization header'));
  else if (s.authority === 'made-up')
    v.verify('DISC-AUTH-REQUIRED', not_served(s.res, 'a bearer token the target never issued'));
}

/**
 * The request rule of a disclosures operation: a request carrying the common headers is served (any
 * 2xx). A refusal breaks it only where the log knows the credentials are the operator's.
 */
export function served(s: Seen, v: Verifier, requirement: string): void {
  const vouched = is2xx(s.x.status) || s.authority === 'configured';
  if (vouched && carriesCommonHeaders(s)) v.verify(requirement, success_status(s.res));
}
