import { faultsOf, type FaultDef } from './types';

const f = faultsOf('contact-info');

export const CONTACT_INFO_FAULTS: FaultDef[] = [
  f(
    'op10-answers-200-with-body',
    'Update contact information answers 200 with a JSON body ' + 'instead of 204 with no content.',
    ['OP10-SUCCESS-NO-CONTENT'],
  ),
  f(
    'op10-accepts-mismatched-old-phone',
    'Update contact information changes the phone number although ' + 'oldPhoneNumber is not the number on record.',
    ['OP10-RULE2-OLD-PHONE-MATCH'],
    // The run's log, judged whole as a capture is: the previous number accepted after a change, where no update ran
    // beside it, looks like the new number not stored (TRAFFIC_COLLATERAL; whether one ran beside it is timing).
    { collateral: ['OP10-RULE1-PHONE-STORED', 'OP10-RULE3-PHONE-STORED', 'OP10-RULE1-COUNTRY-CODE-STORED'] },
  ),
  f(
    'op10-old-phone-compares-prefix',
    'Update contact information compares oldPhoneNumber without its last digit: a number ' +
      'that differs from the one on record only there is accepted.',
    ['OP10-RULE2-OLD-PHONE-MATCH'],
  ),
  f(
    'op10-blank-old-phone-skips-check',
    'Update contact information skips the oldPhoneNumber check for a blank value (empty ' +
      'or spaces): "required" tests only that the member is there.',
    ['OP10-RULE2-OLD-PHONE-MATCH'],
  ),
  f(
    'op10-old-phone-matches-any-customer',
    'Update contact information accepts as oldPhoneNumber the number on ' +
      'record of any customer, not only of the one updated.',
    ['OP10-RULE2-OLD-PHONE-MATCH'],
  ),
  f(
    'op10-mismatch-ignored-with-other-objects',
    'Update contact information checks oldPhoneNumber only when the phoneNumber object comes alone: with ' +
      'the e-mail or postal address it changes the number whatever oldPhoneNumber says.',
    ['OP10-RULE2-OLD-PHONE-MATCH'],
    { collateral: ['OP10-RULE3-PHONE-STORED'] },
  ),
  f(
    'op10-all-three-partial-on-mismatch',
    'Update contact information, given all three objects with an oldPhoneNumber that is not on record, ' +
      'stores the e-mail and postal address, skips the phone and answers 204 (a partial update).',
    ['OP10-RULE2-OLD-PHONE-MATCH'],
  ),
  f(
    'op10-country-code-change-not-stored',
    'Update contact information answers 204 to a phone update that changes the ' +
      'country code but stores neither the number nor the code.',
    ['OP10-RULE1-COUNTRY-CODE-STORED'],
    // The contact tour's read-back after the phone with other objects under another code names the last write.
    { collateral: ['OP10-RULE1-PHONE-STORED', 'OP10-RULE1-UNSUPPLIED-KEPT'] },
  ),
  f(
    'op10-refuses-login-id',
    'Update contact information refuses (400) every update sent with ' +
      'userIdType LOGIN_ID, one of the two documented values.',
    ['OP10-USERIDTYPE-LOGIN-ID'],
    { collateral: ['OP10-RULE1-SUPPLIED-OBJECTS', 'OP10-RULE3-ALL-THREE'] },
  ),
  f(
    'op10-accepts-missing-old-phone',
    'Update contact information changes the phone number although the ' + 'phoneNumber object has no oldPhoneNumber.',
    ['OP10-RULE2-OLD-PHONE-REQUIRED'],
  ),
  f(
    'op10-phone-alone-not-stored',
    'Update contact information answers 204 to a phone number update ' + 'alone but keeps the old number on record.',
    ['OP10-RULE1-PHONE-STORED'],
    // The explorer's tour reads a change back after an e-mail update too: the refusal names the last write.
    { collateral: ['OP10-RULE1-COUNTRY-CODE-STORED', 'OP10-RULE1-UNSUPPLIED-KEPT'] },
  ),
  f(
    'op10-all-three-skips-phone',
    'Update contact information, given the phone number, e-mail and postal address ' +
      'together, stores the e-mail and address but not the phone number.',
    ['OP10-RULE3-PHONE-STORED'],
    // The explorer's contact tour reads an all-three update back after the clean-up's e-mail restore: the read-back
    // names the last write of the customer, one without the phone.
    { collateral: ['OP10-RULE1-UNSUPPLIED-KEPT'] },
  ),
  f(
    'op10-unsupplied-phone-cleared',
    'Update contact information, given the e-mail and postal address without a phoneNumber ' +
      'object, clears the phone number on record (replaces instead of updating).',
    ['OP10-RULE1-UNSUPPLIED-KEPT'],
    // A capture holds the number proven before the first write (issue 31): the cleared number's later
    // refusal of it as oldPhoneNumber is judged there too.
    // The run's log, judged whole (issue 32), shows the cleared number's acceptance too, after a change.
    { collateral: ['OP10-RULE2-OLD-PHONE-MATCH', 'OP10-RULE1-PHONE-STORED'] },
  ),
  f(
    'op10-mismatch-accepted-after-a-change',
    'Update contact information checks oldPhoneNumber only while the number the customer started with is on ' +
      'record: once a change succeeded, any oldPhoneNumber is accepted. The cases that see it accepted (a control ' +
      'beside another request) are not applicable; only the run log shows the violation (issue 32).',
    ['OP10-RULE2-OLD-PHONE-MATCH'],
    // As op10-accepts-mismatched-old-phone's capture: the previous number accepted after a change looks like the
    // new number not stored (with one customer, the stored-number tests' own updates show it).
    { collateral: ['OP10-RULE1-PHONE-STORED', 'OP10-RULE3-PHONE-STORED', 'OP10-RULE1-COUNTRY-CODE-STORED'] },
  ),
  f(
    'op10-third-change-not-stored',
    'Update contact information answers 204 to the third phone number change in a row (sent alone, the ' +
      'country code kept, none back to the number the customer started with) but keeps the number on record.',
    ['OP10-RULE1-PHONE-STORED'],
    { collateral: ['OP10-RULE1-UNSUPPLIED-KEPT'] },
  ),
  f(
    'op10-served-only-versioned',
    'Update contact information is served only at ' +
      '/v1/customers/{customerId}:contact-info (404 at the documented path, which has no ' +
      'version segment).',
    ['OP10-PATH'],
  ),
  f(
    'op10-refuses-postal-address-alone',
    'Update contact information refuses (400) a body that supplies only the postal ' +
      'address, although rule 1 updates whichever objects are supplied.',
    ['OP10-RULE1-SUPPLIED-OBJECTS'],
  ),
  f(
    'op10-refuses-all-three',
    'Update contact information refuses (400) a body that supplies the phone number, e-mail ' +
      'and postal address together, although rule 3 updates all three.',
    ['OP10-RULE3-ALL-THREE'],
  ),
  f(
    'op10-serves-without-credentials',
    'Update contact information serves a request that carries no Authorization header ' +
      '(a SHOULD-level expectation; a failure only under --strict).',
    ['OP10-AUTH-EXPECTED'],
    { strict: true },
  ),
  f(
    'op10-refusals-other-shapes',
    'Variant, not a fault: update contact information refuses with statuses and bodies of its own: an ' +
      'oldPhoneNumber not on record 422 text/plain, any other bad request 422 application/problem+json, an ' +
      'unknown customer 404 with no body, no credentials 403. "Errors of the contact update operation: not shown."',
    [],
    { variant: true, strict: true },
  ),
  f(
    'op10-requires-every-member',
    'Variant, not a fault: update contact information refuses (400) a body without userIdType, or a supplied ' +
      'object without one of its documented members. "Fields required beyond oldPhoneNumber: not shown." The ' +
      'suite sends them all (but the oldPhoneNumber rule 2 requires), so nothing differs.',
    [],
    { variant: true, strict: true },
  ),
  f(
    'op10-old-country-code-checked',
    'Variant, not a fault: update contact information also refuses (409) a phone update whose oldCountryCode ' +
      'is not the country code on record. Rule 2 requires oldPhoneNumber to match; what else is checked is ' +
      'not shown. The suite sends the country code on record, so nothing differs.',
    [],
    { variant: true, strict: true },
  ),
  f(
    'op10-charset-header-case',
    'Variant, not a fault: update contact information answers its 204 with a Content-Type header and ' +
      'Content-Length 0, and its JSON refusals with "application/json;charset=UTF-8", header names ' +
      'capitalised. "Response: 204, no content" says nothing of headers.',
    [],
    { variant: true, strict: true },
  ),
  f(
    'op10-ignores-user-id-type',
    'Variant, not a fault: update contact information finds the customer by the path id whatever userIdType ' +
      'says (CUSTOMER_ID or LOGIN_ID). What the target does with userIdType is not shown. The suite sends the ' +
      'type each configured customer is addressed by, so nothing differs.',
    [],
    { variant: true, strict: true },
  ),
  f(
    'op10-also-versioned',
    'Variant, not a fault: update contact information is served at the documented path and also at ' +
      '/v1/customers/{customerId}:contact-info. "The contact update path carries no version segment" names the ' +
      'path that serves it; that no other does is not said.',
    [],
    { variant: true, strict: true },
  ),
];
