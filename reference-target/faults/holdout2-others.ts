import { faultsOf, type FaultDef } from './types';

const auth = faultsOf('authentication');
const money = faultsOf('money-movement');
const contact = faultsOf('contact-info');

/**
 * The second hold-out set's faults of operations 8–10 (docs/hold-out.md, "The second set"): written from the spec
 * alone, kept once caught. Their behaviour is in reference-target/areas/holdout2-others.ts.
 */
export const HOLDOUT2_OTHER_FAULTS: FaultDef[] = [
  auth('ho2-op8-checks-shared-key-only', 'The revocation looks up the shared key and never compares the secret.', [
    'OP8-AUTH-401',
  ]),
  auth('ho2-op8-missing-transaction-id-ok', 'The revocation serves a request without transactionId (200).', [
    'OP8-HEADER-REQUIRED-400',
  ]),
  auth(
    'ho2-op8-refresh-expiry-number',
    'The token record gives refresh_token_expires_in as a number when the body carries a refresh_token.',
    ['OP8-RESPONSE-TOKEN-RECORD'],
  ),
  money('ho2-op9-authorization-cached', 'After a served transfer, one without Authorization is served (200).', [
    'OP9-AUTH-401',
  ]),
  money('ho2-op9-401-token-error-shape', 'The 401 body is the token error record, not code and message.', [
    'OP9-ERROR-SHAPE',
  ]),
  money('ho2-op9-previous-year-true-string', 'previousYearContribution true is answered as the string "true".', [
    'OP9-RESPONSE-TRANSFER',
  ]),
  money('ho2-op9-several-days-as-strings', 'schedule.daysOfMonth of more than one day is answered as strings.', [
    'OP9-RESPONSE-TRANSFER',
  ]),
  money(
    'ho2-op9-final-date-time-with-end',
    'With an endDate, schedule.finalExecutionDate is answered as a date-time.',
    ['OP9-RESPONSE-TRANSFER'],
  ),
  money('ho2-op9-fee-string-other-currency', 'The fee amount is a string when the currency is not AED.', [
    'OP9-RESPONSE-TRANSFER',
  ]),
  contact('ho2-op10-login-id-refused', 'An update with userIdType LOGIN_ID is refused (400).', [
    'OP10-USERIDTYPE-LOGIN-ID',
  ]),
  contact('ho2-op10-postal-alone-200', 'An update of the postal address alone answers 200 with a body.', [
    'OP10-SUCCESS-NO-CONTENT',
  ]),
  contact('ho2-op10-old-phone-prefix', 'oldPhoneNumber is accepted when the number on record begins with it.', [
    'OP10-RULE2-OLD-PHONE-MATCH',
  ]),
  contact(
    'ho2-op10-unchecked-after-email',
    "After an update of the e-mail address alone, the customer's next phone update skips the oldPhoneNumber check.",
    ['OP10-RULE2-OLD-PHONE-MATCH'],
  ),
  money(
    'op9-refuses-unshown-values',
    'Variant: a transfer in a currency other than AED, or with previousYearContribution true, is refused (400). ' +
      '"Value sets of currencyCode, … beyond the values listed, …: not shown"; the conditions of a 400: not shown.',
    [],
    { variant: true, strict: true },
  ),
];
