import { faultsOf, type FaultDef } from './types';

const auth = faultsOf('authentication');
const money = faultsOf('money-movement');
const contact = faultsOf('contact-info');

/**
 * Hold-out faults of operations 8–10 (docs/hold-out.md): written from the spec alone, kept once caught. Their
 * behaviour is in reference-target/areas/holdout-others.ts.
 */
export const HOLDOUT_OTHER_FAULTS: FaultDef[] = [
  auth('ho-op8-accepts-bearer', 'The revocation accepts any Bearer authorization.', ['OP8-AUTH-401']),
  auth('ho-op8-secret-first-8', 'The revocation compares only the first 8 characters of the secret key.', [
    'OP8-AUTH-401',
  ]),
  auth(
    'ho-op8-missing-institution-id-ok',
    'The revocation serves a request without the required institutionId header (200).',
    ['OP8-HEADER-REQUIRED-400'],
  ),
  auth('ho-op8-401-error-code-number', 'The 401 error body gives errorInfo.errorCode as a number.', [
    'OP8-ERROR-SHAPE',
  ]),
  auth(
    'ho-op8-expires-number-with-scopes',
    'The token record gives expires_in as a number when the body carries scopes.',
    ['OP8-RESPONSE-TOKEN-RECORD'],
  ),
  money('ho-op9-403-unauthenticated', 'A transfer without Authorization is answered 403 instead of 401.', [
    'OP9-AUTH-401',
  ]),
  money('ho-op9-400-code-number', 'The 400 error body gives code as a number.', ['OP9-ERROR-SHAPE']),
  money(
    'ho-op9-amount-string-decimals',
    'The Transfer answered gives amount.amount as a string ("0.01") when the amount has decimals.',
    ['OP9-RESPONSE-TRANSFER'],
  ),
  money('ho-op9-dates-dmy', 'The Transfer answered gives the schedule dates as DD-MM-YYYY.', ['OP9-RESPONSE-TRANSFER']),
  money('ho-op9-days-as-strings', 'The Transfer answered gives schedule.daysOfMonth as strings.', [
    'OP9-RESPONSE-TRANSFER',
  ]),
  contact(
    'ho-op10-old-phone-stale',
    'oldPhoneNumber is compared with the number the customer had when the service started, not the one on record: ' +
      'after a change, the new number is refused as old and the first one accepted.',
    ['OP10-RULE1-PHONE-STORED'],
    {
      collateral: [
        'OP10-RULE1-COUNTRY-CODE-STORED',
        'OP10-RULE3-PHONE-STORED',
        'OP10-RULE1-UNSUPPLIED-KEPT',
        'OP10-RULE2-OLD-PHONE-MATCH',
      ],
    },
  ),
  contact(
    'ho-op10-new-country-skips-check',
    'A phone change to another country code is "validated later": its oldPhoneNumber is not compared.',
    ['OP10-RULE2-OLD-PHONE-MATCH'],
  ),
  contact(
    'ho-op10-200-login-id',
    'An update of a customer addressed by its login id (LOGIN_ID) answers 200 with a body instead of 204.',
    ['OP10-SUCCESS-NO-CONTENT'],
  ),
];
