import type { Requirement } from './types';

const OP10 = '10. Update contact information';
const OBSERVED =
  'No retrieval operation is specified (operation 11 is "not shown"), so the effect is observed through ' +
  'rule 2: the number on record is the one an update must name as oldPhoneNumber.';

/** Operation 10, its three rules, the Contact update request, and operation 11 (not testable). */
export const CONTACT_INFO_REQUIREMENTS: Requirement[] = [
  // 10. Update contact information
  {
    id: 'OP10-PATH',
    section: OP10,
    grade: 'MUST',
    operations: [10],
    statement:
      '"PUT /customers/{customerId}:contact-info. Path parameter: customerId." and (Versioning) "The contact ' +
      'update path carries no version segment." A valid update sent to ' +
      '{baseUrl}/customers/{customerId}:contact-info, with the literal ":contact-info" suffix, no version ' +
      'segment and the customer id percent-encoded (e.g. "cust/7 01" as cust%2F7%2001), finds the operation: ' +
      'it is not answered 404 or 405.',
  },
  {
    id: 'OP10-SUCCESS-NO-CONTENT',
    section: OP10,
    grade: 'MUST',
    operations: [10],
    statement: '"Response: 204, no content, on success." A successful ' + 'update is answered 204 with an empty body.',
  },
  {
    id: 'OP10-RULE1-SUPPLIED-OBJECTS',
    section: OP10,
    grade: 'MUST',
    operations: [10],
    statement:
      '"1. The request updates the e-mail address, the phone number or the postal address, according to which ' +
      'objects are supplied." A request that supplies one object alone (phoneNumber naming the number on ' +
      'record as oldPhoneNumber, email, or postalAddress), or the email and postalAddress objects without ' +
      'phoneNumber, succeeds (2xx).',
  },
  {
    id: 'OP10-RULE1-PHONE-STORED',
    section: OP10,
    grade: 'MUST',
    operations: [10],
    statement:
      `Rule 1 ("The request updates ... the phone number ... according to which objects are supplied") with ` +
      `rule 2 ("oldPhoneNumber ... must match the phone number on record"): after a phone update alone ` +
      `succeeded, the new number is the one on record, so an update naming the previous number as ` +
      `oldPhoneNumber is refused (no 2xx) and one naming the new number succeeds (2xx). ${OBSERVED}`,
  },
  {
    id: 'OP10-RULE1-COUNTRY-CODE-STORED',
    section: OP10,
    grade: 'MUST',
    operations: [10],
    statement:
      `Rule 1 ("The request updates ... the phone number ... according to which objects are supplied") for an ` +
      `update that also changes the country code (newCountryCode other than the one on record): the new number ` +
      `and code are stored, so afterwards an update naming the previous number as oldPhoneNumber is refused ` +
      `(no 2xx) and one naming the new number (with the new code as oldCountryCode) succeeds (2xx). Where the ` +
      `target refuses the number under the other country code, the case is not applicable. ${OBSERVED}`,
  },
  {
    id: 'OP10-RULE1-UNSUPPLIED-KEPT',
    section: OP10,
    grade: 'MUST',
    operations: [10],
    statement:
      `"1. The request updates the e-mail address, the phone number or the postal address, according to which ` +
      `objects are supplied." An object that is not supplied is not updated: after an update of the e-mail and ` +
      `postal address without phoneNumber, the phone number on record is unchanged, so an update naming it as ` +
      `oldPhoneNumber succeeds (2xx). ${OBSERVED}`,
  },
  {
    id: 'OP10-RULE2-OLD-PHONE-REQUIRED',
    section: OP10,
    grade: 'MUST',
    operations: [10],
    statement:
      '"2. When the phone number is updated, oldPhoneNumber is required ..." A phone update without ' +
      'oldPhoneNumber does not succeed (no 2xx). "Errors of the contact update operation: not shown": no error ' +
      'status or body is required.',
  },
  {
    id: 'OP10-RULE2-OLD-PHONE-MATCH',
    section: OP10,
    grade: 'MUST',
    operations: [10],
    statement:
      '"2. When the phone number is updated, oldPhoneNumber ... must match the phone number on record." A ' +
      'phone update whose oldPhoneNumber is not the number on record does not succeed (no 2xx); no error ' +
      'status or body is required. "Must match" means match: near misses are refused too (the number on record ' +
      'with its last digit changed, an empty value, a value of spaces only, the number on record of another ' +
      'configured customer). The same number written another way (e.g. with its country code prefixed) is not ' +
      'sent: the spec does not say how numbers are compared. The rule holds whatever else the body carries: ' +
      'such an update is not served together with the email object, with the postalAddress object, or with ' +
      'both (with all three, "3. … all three are updated with the supplied values" forbids a partial update ' +
      'and rule 2 forbids the phone change, so a 2xx breaks one or the other).',
  },
  {
    id: 'OP10-RULE3-ALL-THREE',
    section: OP10,
    grade: 'MUST',
    operations: [10],
    statement:
      '"3. When the body contains the postal address, phone number and e-mail objects together, all three are ' +
      'updated with the supplied values." Such a request (naming the number on record as oldPhoneNumber) ' +
      'succeeds (2xx).',
  },
  {
    id: 'OP10-RULE3-PHONE-STORED',
    section: OP10,
    grade: 'MUST',
    operations: [10],
    statement:
      `Rule 3 ("... all three are updated with the supplied values"): the phone number sent together with the ` +
      `e-mail and postal address is stored: afterwards the previous number is refused as oldPhoneNumber (no ` +
      `2xx) and the new number accepted (2xx). ${OBSERVED} The stored e-mail address and postal address cannot ` +
      `be observed.`,
  },
  {
    id: 'OP10-REQUIRED-FIELDS-NOT-SHOWN',
    section: OP10,
    grade: 'MUST',
    operations: [10],
    statement: '"Fields required beyond ' + 'oldPhoneNumber: not shown."',
    notTestable:
      'No other required field is documented. The suite sends userIdType (testData.customer.userIdType) with ' +
      'every update, and with a phone update oldPhoneNumber and newPhoneNumber, plus oldCountryCode and ' +
      'newCountryCode when testData.customer.countryCode is configured; it requires nothing about other omissions.',
  },
  {
    id: 'OP10-USERIDTYPE-LOGIN-ID',
    section: 'Contact update request',
    grade: 'MUST',
    operations: [10],
    statement:
      'userIdType: "string enumeration", "Values: CUSTOMER_ID, LOGIN_ID" (a closed list: both are ' +
      'documented). An update of a customer the configuration addresses by its login id (a testData customer ' +
      'with userIdType LOGIN_ID, its login id in the path) is sent with userIdType LOGIN_ID and served like ' +
      'any other: a phone update naming the number on record succeeds (2xx). Not applicable where no ' +
      'configured customer is addressed by its login id.',
  },
  {
    id: 'RES-CONTACT-UPDATE-REQUEST',
    section: 'Contact update request',
    grade: 'MUST',
    operations: [10],
    statement:
      'userIdType (string enumeration; "Values: CUSTOMER_ID, LOGIN_ID"); phoneNumber (object: oldPhoneNumber, ' +
      'oldCountryCode, newPhoneNumber, newCountryCode, all string); email (object: emailAddress, string); ' +
      'postalAddress (object: address1, address2, city, state, postalCode, country, all string).',
    notTestable:
      'The shape of what a client sends: every request the suite sends for a documented behaviour matches ' +
      'schemas/contact-update-request.schema.json (proved by the self-tests). How a target treats other shapes ' +
      'is not shown.',
  },

  // Authentication and errors of the operation
  {
    id: 'OP10-AUTH-EXPECTED',
    section: 'Authentication',
    grade: 'SHOULD',
    operations: [10],
    statement:
      '"Authentication of the contact-info operations: not shown." The suite sends the credentials its ' +
      'configuration names (credentials.contactInfoHeaders, else the bearer token). Expected although the spec ' +
      "does not state it: an update that changes a customer's contact data is not served without those " +
      'credentials (no 2xx). A warning; a failure only under --strict.',
  },
  {
    id: 'OP10-AUTH-NOT-SHOWN',
    section: 'Authentication',
    grade: 'MUST',
    operations: [10],
    statement: '"Authentication of the contact-info ' + 'operations: not shown."',
    notTestable:
      'No scheme is documented: the suite sends what the configuration names and requires no ' +
      'particular scheme (the SHOULD-level expectation is OP10-AUTH-EXPECTED).',
  },
  {
    id: 'OP10-ERRORS-NOT-SHOWN',
    section: 'Errors',
    grade: 'MUST',
    operations: [10],
    statement: '"Errors of the contact update ' + 'operation: not shown."',
    notTestable:
      'No error status or body is documented for the contact update: where an update must ' +
      'not succeed, the suite requires only that it is not answered 2xx.',
  },

  // 11. Retrieve existing contact data
  {
    id: 'OP11-RETRIEVE-CONTACT-DATA',
    section: '11. Retrieve existing contact data',
    grade: 'MUST',
    operations: [11],
    statement:
      '"The interface provides retrieval of the existing phone number and postal address for a given ' +
      'institutionId, customerId and userIdType (CUSTOMER_ID or LOGIN_ID). The method, path, parameters and ' +
      'response of this operation: not shown."',
    notTestable:
      'The method, path, parameters and response are not shown, so the operation cannot be called. The effect ' +
      'of operation 10 on the phone number is observed through rule 2 instead (OP10-RULE1-PHONE-STORED, ' +
      'OP10-RULE3-PHONE-STORED); the stored e-mail and postal address cannot be observed.',
  },
];
