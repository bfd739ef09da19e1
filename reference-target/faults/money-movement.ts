import { faultsOf, type FaultDef } from './types';

const f = faultsOf('money-movement');

export const MONEY_MOVEMENT_FAULTS: FaultDef[] = [
  f(
    'op9-single-execution-schedules',
    'Variant, not a fault: create a transfer refuses (400) a schedule of more than one execution or more than one ' +
      'day of the month. "The conditions that lead to each status […]: not shown." The hand-written tests send ' +
      'one execution; the explorer sends more, and is refused.',
    [],
    { variant: true, strict: true },
  ),
  f(
    'op9-rounds-two-decimals',
    'Create a transfer stores and answers an amount of 1 or more with two decimals rounded to one decimal ' +
      '(1.25 becomes 1.3); smaller amounts, as the configured 0.01, are kept.',
    ['OP9-RESPONSE-REFLECTS-REQUEST'],
  ),
  f('op9-answers-201', 'Create a transfer answers 201 instead of ' + 'the documented 200.', [
    'OP9-REQUEST',
    'OP9-REQUEST-EVERY-MEMBER',
  ]),
  f(
    'op9-assigns-own-values',
    'Variant, not a fault: the Transfer answered carries what the target assigns or computes itself (its ' +
      'own id, confirmation, fee, payoffAmount, notificationMessage, execution dates and remaining count), not ' +
      'what the request carried for them. Nothing fails.',
    [],
    { variant: true },
  ),
  f(
    'op9-refuses-day-of-week',
    'Create a transfer refuses (400) a schedule that carries dayOfWeek, a ' +
      'documented integer member (its validator expects a day name).',
    ['OP9-REQUEST-EVERY-MEMBER'],
  ),
  f(
    'op9-days-of-month-zero-based',
    'The schedule answered gives daysOfMonth counted from 0 ' + '(one less than the days sent).',
    ['OP9-RESPONSE-REFLECTS-REQUEST'],
  ),
  f(
    'op9-counts-as-strings',
    'The schedule answered gives numberOfExecutions and ' +
      'remainingNumberOfExecutions as strings where integers are documented.',
    ['OP9-RESPONSE-TRANSFER'],
  ),
  f(
    'op9-amount-as-string',
    'The Transfer answered gives amount.amount as a string ' + 'where Money documents a number.',
    ['OP9-RESPONSE-TRANSFER'],
  ),
  f(
    'op9-date-time-for-date',
    'The schedule answered gives full date-times ' + '(2026-01-02T00:00:00Z) where dates YYYY-MM-DD are documented.',
    ['OP9-RESPONSE-TRANSFER'],
  ),
  f('op9-response-not-reflecting', 'The Transfer answered carries an amount 100 ' + 'times the one sent.', [
    'OP9-RESPONSE-REFLECTS-REQUEST',
  ]),
  f(
    'op9-unlisted-status',
    'The Transfer answered has status COMPLETED, a value the spec does not ' +
      'show (an observation; a failure only under --strict).',
    ['OP9-ENUM-VALUES'],
    { strict: true },
  ),
  f('op9-serves-without-token', 'Create a transfer serves a request without an ' + 'Authorization header.', [
    'OP9-AUTH-401',
  ]),
  f('op9-invalid-token-403', 'Create a transfer answers 403 instead of 401 to ' + 'a token it never issued.', [
    'OP9-AUTH-401',
  ]),
  f(
    'op9-forbidden-token-401',
    'Create a transfer answers 401 instead of 403 to a ' + 'valid token without authorization.',
    ['OP9-AUTH-403'],
  ),
  f(
    'op9-accepts-missing-transactionId',
    'Create a transfer serves a request without the ' + 'required transactionId header.',
    ['OP9-TRANSACTIONID-REQUIRED'],
  ),
  f(
    'op9-accepts-mistyped-body',
    'Create a transfer serves bodies that break documented types (amount a string, an account id a number) ' +
      '(a warning; a failure only under --strict).',
    ['OP9-BODY-TYPES'],
    { strict: true },
  ),
  f(
    'op9-ignores-assigned-member-types',
    'Create a transfer does not read the members it assigns or computes itself (id, status, confirmation, ' +
      'fee, payoffAmount, notificationMessage, the execution dates and the remaining count), so a body in ' +
      'which one of them breaks its documented type is served (a warning; a failure only under --strict).',
    ['OP9-BODY-TYPES-ASSIGNED'],
    { strict: true },
  ),
  f(
    'op9-invalid-answered-422',
    'Create a transfer refuses invalid requests with 422 instead of the 400 the spec lists ' +
      'for client errors (a warning; a failure only under --strict).',
    ['OP9-INVALID-ANSWERS-400'],
    { strict: true },
  ),
  f(
    'op9-undocumented-error-shape',
    'Errors of create a transfer have the body {"error", ' + '"error_description"} instead of code and message.',
    ['OP9-ERROR-SHAPE'],
  ),
  f(
    'op9-json-labelled-text',
    'Create a transfer answers its Transfer object as JSON labelled "Content-Type: text/plain".',
    ['CONV-JSON-MEDIA-TYPE'],
  ),
  f(
    'op9-token-prefix-match',
    'Create a transfer accepts any access token that starts with a valid one (the configured token with a ' +
      'character appended is served).',
    ['OP9-AUTH-401'],
  ),
  f(
    'op9-minimal-answer',
    'Variant, not a fault: the Transfer answered carries only id, status and confirmation. "Which transfer ' +
      'fields are required: not shown."',
    [],
    { variant: true, strict: true },
  ),
  f(
    'op9-extra-members-uuid',
    'Variant, not a fault: the Transfer answered has a UUID id, members in another order and extra members ' +
      '(createdAt, transactionId); error bodies carry an extra details member; every JSON answer says ' +
      '"Content-Type: application/json;charset=UTF-8". The spec lists members, not that there are no others.',
    [],
    { variant: true, strict: true },
  ),
  f(
    'op9-masks-accounts-shortens-memo',
    'Variant, not a fault: the Transfer answered shows the account ids masked (****0200) and the memo cut to ' +
      'its first 12 characters, as banks answer them. "Response 200: Transfer object"; "size limits: not shown".',
    [],
    { variant: true, strict: true },
  ),
];
