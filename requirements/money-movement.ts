import type { Requirement } from './types';

const OP9 = '9. Create a transfer';
const ERR = 'Errors';

/** Operation 9 (create a transfer), the Transfer, Money and Schedule resources, and its errors. */
export const MONEY_MOVEMENT_REQUIREMENTS: Requirement[] = [
  {
    id: 'OP9-REQUEST',
    section: OP9,
    grade: 'MUST',
    operations: [9],
    statement:
      '"POST {base_url}/db-transfers/v1/transfers" with Authorization (an OAuth2 access token), ' +
      'transactionId, Accept and Content-Type "with the value application/json", body a Transfer object: ' +
      '"Response 200: Transfer object". A one-time transfer built from the configuration (accounts, amount and ' +
      'currency, a memo, the account holders where configured) is answered 200.',
  },
  {
    id: 'OP9-REQUEST-EVERY-MEMBER',
    section: OP9,
    grade: 'MUST',
    operations: [9],
    statement:
      '"Body: Transfer object (see Resources)" and "Response 200: Transfer object". A scheduled transfer that ' +
      'carries every member the spec documents for Transfer (id, fromAccountHolderId and toAccountHolderId ' +
      'where configured, fromAccountId, toAccountId, amount, memo, paymentOption, previousYearContribution, ' +
      'status, confirmation, fee, payoffAmount, notificationMessage, schedule), Money (currencyCode, amount) ' +
      'and Schedule (lifeType, startDate, endDate, numberOfExecutions, frequency, dayOfWeek, daysOfMonth, ' +
      'nextExecutionDate, finalExecutionDate, remainingNumberOfExecutions), each with its documented type and ' +
      'only the enumeration values shown, is answered 200. Every amount is at most the configured one (the fee ' +
      'is 0); dayOfWeek falls on a weekday, where the numberings from Sunday (0–6) and from Monday (1–7) agree ' +
      '("the numbering of dayOfWeek: not shown").',
  },
  {
    id: 'OP9-RESPONSE-TRANSFER',
    section: 'Transfer',
    grade: 'MUST',
    operations: [9],
    statement:
      'The 200 answer is a Transfer object: strings id, fromAccountHolderId, toAccountHolderId, ' +
      'fromAccountId, toAccountId, memo, confirmation, notificationMessage, paymentOption, status; boolean ' +
      'previousYearContribution; Money amount, fee, payoffAmount (currencyCode a string, amount a number); ' +
      'Schedule schedule (startDate, endDate, nextExecutionDate, finalExecutionDate "date, YYYY-MM-DD"; ' +
      'numberOfExecutions, dayOfWeek, remainingNumberOfExecutions integers; daysOfMonth an array of integers). ' +
      '"Which transfer fields are required: not shown": types are checked where a member is present.',
  },
  {
    id: 'OP9-RESPONSE-REFLECTS-REQUEST',
    section: OP9,
    grade: 'MUST',
    operations: [9],
    statement:
      '"Response 200: Transfer object": the transfer created from the request. Where the answer carries them, ' +
      'the accounts and account holders, the amount and its currency, the memo, paymentOption, ' +
      "previousYearContribution and, for a scheduled transfer, the schedule's lifeType, startDate, endDate, " +
      'numberOfExecutions, frequency, dayOfWeek and daysOfMonth are the values sent. What a target assigns or ' +
      'computes itself (id, status, confirmation, fee, payoffAmount, notificationMessage, nextExecutionDate, ' +
      'finalExecutionDate, remainingNumberOfExecutions) is only type-checked. Members the answer omits are not ' +
      'required ("which transfer fields are required: not shown"). An account or holder id answered masked ' +
      '(****0300) and a memo answered shortened or trimmed ("Rate limits, size limits … not shown") are the values ' +
      'sent.',
  },
  {
    id: 'OP9-ENUM-VALUES',
    section: 'Transfer',
    grade: 'INFO',
    operations: [9],
    statement:
      'Values shown: currencyCode AED, paymentOption DEFAULT, status SUCCESS, lifeType ENDDATE, frequency ' +
      'ONETIME; "Value sets of currencyCode, paymentOption, status, lifeType and frequency beyond the values ' +
      'listed … not shown". Another value is an observation, a failure ' +
      'only under --strict.',
  },
  {
    id: 'OP9-AUTH-401',
    section: 'Authentication',
    grade: 'MUST',
    operations: [9],
    statement:
      '"An unauthenticated transfer request returns 401" (Errors: "401 Authentication error", body code and ' +
      'message). A request without a token, or with a token the target never issued, is answered 401.',
  },
  {
    id: 'OP9-AUTH-403',
    section: 'Authentication',
    grade: 'MUST',
    operations: [9],
    statement:
      '"… and an unauthorized one 403" (Errors: "403 Authorization error", body code and message). A valid ' +
      'token without authorization to create transfers (credentials.transfersForbiddenToken) is answered 403.',
  },
  {
    id: 'OP9-TRANSACTIONID-REQUIRED',
    section: OP9,
    grade: 'MUST',
    operations: [9],
    statement:
      'Headers: "transactionId (required; a unique identifier generated for each ' +
      'request)". A request without it is not served (no 2xx).',
  },
  {
    id: 'OP9-BODY-TYPES',
    section: 'Transfer',
    grade: 'SHOULD',
    operations: [9],
    statement:
      'The body is a Transfer object with the documented types (Money amount a number, account ids ' +
      'strings). A body that breaks a documented type is not served (no 2xx). SHOULD: the spec lists 400 but ' +
      '"The conditions that lead to each status … not shown", and a target that reads "0.01" as the number 0.01 ' +
      '(as common JSON binders do by default) makes a choice the spec does not exclude.',
  },
  {
    id: 'OP9-BODY-TYPES-ASSIGNED',
    section: 'Transfer',
    grade: 'SHOULD',
    operations: [9],
    statement:
      'The body is a Transfer object with the documented types, also for the members a target assigns or ' +
      "computes itself (id, status, confirmation, fee, payoffAmount, notificationMessage and the schedule's " +
      'nextExecutionDate, finalExecutionDate, remainingNumberOfExecutions). Whether a target reads those ' +
      'members of a request is not stated ("Which transfer fields are required: not shown"): a target that ' +
      'ignores them may serve a body in which one breaks its type. Expected: such a body is not served (no ' +
      '2xx). A warning; a failure only under --strict.',
  },
  {
    id: 'OP9-INVALID-ANSWERS-400',
    section: ERR,
    grade: 'SHOULD',
    operations: [9],
    statement:
      'Errors: "400 Client error". "The conditions that lead to each status … not shown", so answering a ' +
      'request without transactionId or with a mistyped body with 400 is expected (SHOULD), not stated.',
  },
  {
    id: 'OP9-ERROR-SHAPE',
    section: ERR,
    grade: 'MUST',
    operations: [9],
    statement: 'Errors of create a transfer (400, 401, 403, 500): body ' + '"code (string), message (string)".',
  },
  {
    id: 'OP9-REQUIRED-FIELDS-NOT-SHOWN',
    section: 'Schedule',
    grade: 'MUST',
    operations: [9],
    statement: '"Which transfer fields are required: not shown." "… the ' + 'numbering of dayOfWeek: not shown."',
    notTestable: 'No member of the Transfer is required in the answer; ' + 'dayOfWeek is checked as an integer only.',
  },
  {
    id: 'OP9-TRANSFER-STATUS-TRANSITIONS-NOT-SHOWN',
    section: 'Transfer status',
    grade: 'MUST',
    operations: [9],
    statement: '"One value, SUCCESS, is shown. Other values and ' + 'transitions: not shown."',
    notTestable:
      'No transition is observable through the interface; status ' + 'values are observed by OP9-ENUM-VALUES.',
  },
];
