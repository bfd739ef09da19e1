import type { TargetConfig } from '../harness/config';
import { REFERENCE_CREDENTIALS } from '../reference-target/fixtures';
import {
  declinedAs400,
  expiresAfter,
  forbiddenTokenAuthorized,
  knowsOnlyAccount,
  tokenOfAnotherUser,
} from './_diagnosis-holdout-fronts';
import type { HoldoutRow } from './_diagnosis-holdout-run';

/**
 * The operator's mistakes of the hold-out set: one configured value wrong at a time, over every area. Expected:
 * could not test (exit 3) naming exactly that key, never a failure, never another key.
 */

const td = (c: TargetConfig, o: Partial<TargetConfig['testData']>): TargetConfig => ({
  ...c,
  testData: { ...c.testData, ...o },
});
const creds = (c: TargetConfig, o: Partial<TargetConfig['credentials']>): TargetConfig => ({
  ...c,
  credentials: { ...c.credentials, ...o },
});

const OTHER_USERS_TOKEN = 'ref-bearer-of-consumer-77';
const SECOND_TRANSFERS_TOKEN = 'ref-transfers-second-app-5a1c';

export const MISTAKES: HoldoutRow[] = [
  {
    id: 'O1',
    name: 'DBSI_BEARER_TOKEN is a token of another user (the institution list is served, the user records are not)',
    areas: ['disclosures'],
    configure: (c) => creds(c, { bearerToken: OTHER_USERS_TOKEN }),
    front: tokenOfAnotherUser(OTHER_USERS_TOKEN),
    exit: 3,
    // The key the control can name (a made-up consumer's list is served to the token), and the token beside it.
    keys: ['testData.institutionUserId'],
    says: /the token stands for \(or, where the token is the wrong one, DBSI_BEARER_TOKEN to a token of this user\)/,
    notNamed: ['baseUrl', 'accountId', 'testData.disclosure'],
  },
  {
    id: 'O2',
    name: 'the revocation secret key with a trailing space (its near variant cut short is the real one)',
    areas: ['authentication'],
    fixtures: 'retail',
    configure: (c) => creds(c, { revocationClientSecret: `${REFERENCE_CREDENTIALS.revocationClientSecret} ` }),
    exit: 3,
    keys: ['DBSI_REVOCATION_CLIENT_ID'],
    says: /let a near variant of it past authentication .* off by a character/,
    notNamed: ['testData', 'authBaseUrl'],
  },
  {
    id: 'O2b',
    name: 'the bearer token with one character too many (copied with the next one; cut short, it is served)',
    areas: ['disclosures'],
    configure: (c) => creds(c, { bearerToken: `${REFERENCE_CREDENTIALS.bearerToken}x` }),
    exit: 3,
    keys: ['DBSI_BEARER_TOKEN'],
    notNamed: ['testData', 'baseUrl'],
  },
  {
    id: 'O3',
    name: 'baseUrl with its path segment doubled (/dbsi/dbsi), disclosures and contact info',
    areas: ['disclosures', 'contact-info'],
    configure: (c) => ({ ...c, baseUrl: `${c.baseUrl}/dbsi` }),
    exit: 3,
    keys: ['baseUrl'],
  },
  {
    id: 'O4',
    name: 'baseUrl without its path prefix, contact info alone (the customer ids must not be named)',
    areas: ['contact-info'],
    configure: (c) => ({ ...c, baseUrl: c.baseUrl.replace(/\/dbsi$/, '') }),
    exit: 3,
    keys: ['baseUrl'],
  },
  {
    id: 'O5',
    name: 'transfersBaseUrl pointing at the disclosures prefix',
    areas: ['money-movement'],
    configure: (c) => ({ ...c, transfersBaseUrl: c.baseUrl }),
    exit: 3,
    keys: ['transfersBaseUrl'],
  },
  {
    id: 'O6',
    name: 'authBaseUrl that already ends in /oauth2/v1 (the segment doubled)',
    areas: ['authentication'],
    configure: (c) => ({ ...c, authBaseUrl: `${c.authBaseUrl}/oauth2/v1` }),
    exit: 3,
    keys: ['authBaseUrl'],
  },
  {
    id: 'O7',
    name: 'testData.accountId of another user (a sandbox that refuses it, naming the AccountId)',
    areas: ['disclosures'],
    configure: (c) => td(c, { accountId: 'acct-770100' }),
    front: knowsOnlyAccount('acct-100200'),
    exit: 3,
    keys: ['testData.accountId'],
    notNamed: ['DBSI_BEARER_TOKEN', 'testData.disclosure', 'testData.institutionUserId'],
  },
  {
    id: 'O8',
    name: 'testData.disclosure whose id and name do not match (the id of one, the name of another)',
    areas: ['disclosures'],
    configure: (c) =>
      td(c, { disclosure: { institutionDisclosureId: 'disc-004', institutionDisclosureName: 'E-Sign Agreement' } }),
    exit: 3,
    keys: ['testData.disclosure'],
  },
  {
    id: 'O9',
    name: 'testData.customer.customerId of another institution (404 no such customer)',
    areas: ['contact-info'],
    configure: (c) =>
      td(c, { customer: { ...c.testData.customer, customerId: 'fi2002-cust-0042' }, moreCustomers: [] }),
    exit: 3,
    keys: ['testData.customer.customerId'],
    notNamed: ['phoneNumber', 'baseUrl'],
  },
  {
    id: 'O10',
    name: 'testData.customer.phoneNumber in another format (+1 555-0100), which the target does not take as equal',
    areas: ['contact-info'],
    configure: (c) => td(c, { customer: { ...c.testData.customer, phoneNumber: '+1 555-0100' }, moreCustomers: [] }),
    exit: 3,
    keys: ['testData.customer.phoneNumber'],
  },
  {
    id: 'O11',
    name: 'testData.institutionId of another FI (the list shows every disclosure of FI 1001)',
    areas: ['disclosures'],
    configure: (c) => td(c, { institutionId: '2002' }),
    exit: 3,
    keys: ['testData.institutionId'],
    says: /lists \(operation 1\) show the disclosures of institutionId 1001 only, not the configured "2002"/,
    notNamed: ['DBSI_BEARER_TOKEN', 'baseUrl'],
  },
  {
    id: 'O12',
    name: 'a refresh token issued to another client (400 INVALID_GRANT)',
    areas: ['authentication'],
    fixtures: 'retail',
    configure: (c) =>
      td(c, { revocation: { ...c.testData.revocation, refresh_token: 'refresh-of-another-client-0001' } }),
    exit: 3,
    keys: ['testData.revocation'],
    notNamed: ['DBSI_REVOCATION_CLIENT'],
  },
  {
    id: 'O13',
    name: 'testData.moreCustomers: the phone numbers of the first two entries swapped',
    areas: ['contact-info'],
    configure: (c) => {
      const [a, b, ...rest] = c.testData.moreCustomers;
      const swapped = [{ ...a!, phoneNumber: b!.phoneNumber }, { ...b!, phoneNumber: a!.phoneNumber }, ...rest];
      return td(c, { moreCustomers: swapped });
    },
    exit: 3,
    keys: ['testData.moreCustomers[0].phoneNumber', 'testData.moreCustomers[1].phoneNumber'],
    notNamed: ['testData.customer.'],
  },
  {
    id: 'O14',
    name: 'a transfers token that expired before the run (401 to every transfer)',
    areas: ['money-movement'],
    configure: (c) => creds(c, { transfersToken: 'ref-transfers-expired-0000' }),
    exit: 3,
    keys: ['DBSI_TRANSFERS_TOKEN'],
    notNamed: ['testData', 'transfersBaseUrl'],
  },
  {
    id: 'O15',
    name: 'testData.transfer.fromAccountId of another user (400 ACCOUNT_NOT_FOUND naming it)',
    areas: ['money-movement'],
    fixtures: 'retail',
    configure: (c) => td(c, { transfer: { ...c.testData.transfer, fromAccountId: 'acct-770100' } }),
    exit: 3,
    // Session 41: the account the error quotes, not the group (left in session 40).
    keys: ['testData.transfer.fromAccountId'],
    notNamed: ['DBSI_TRANSFERS_TOKEN', 'transfersBaseUrl'],
  },
  {
    id: 'O15b',
    name: 'testData.transfer.fromAccountId of another user, refused 400 "payment declined" (a generic refusal)',
    areas: ['money-movement'],
    fixtures: 'retail',
    configure: (c) => td(c, { transfer: { ...c.testData.transfer, fromAccountId: 'acct-770100' } }),
    front: declinedAs400('payment declined'),
    exit: 3,
    keys: ['testData.transfer'],
    notNamed: ['DBSI_TRANSFERS_TOKEN', 'transfersBaseUrl'],
  },
  {
    id: 'O16',
    name: 'contactInfoBaseUrl with a doubled prefix (the disclosures at baseUrl are served)',
    areas: ['disclosures', 'contact-info'],
    configure: (c) => ({ ...c, contactInfoBaseUrl: `${c.baseUrl}/dbsi` }),
    exit: 3,
    keys: ['contactInfoBaseUrl'],
  },
  {
    id: 'O17',
    name: 'testData.institutionUserId of another user the target knows (the token is right)',
    areas: ['disclosures'],
    fixtures: 'retail',
    configure: (c) => td(c, { institutionUserId: 'consumer-77' }),
    exit: 3,
    keys: ['testData.institutionUserId'],
    notNamed: ['DBSI_BEARER_TOKEN'],
  },
  {
    id: 'O18',
    name: 'DBSI_CONTACT_INFO_HEADERS with a token the target does not know',
    areas: ['contact-info'],
    configure: (c) => creds(c, { contactInfoHeaders: { Authorization: 'Bearer not-the-contact-token-01' } }),
    exit: 3,
    keys: ['DBSI_CONTACT_INFO_HEADERS'],
    notNamed: ['phoneNumber', 'customerId'],
  },
  {
    id: 'O19',
    name: 'a transfers token that lives shorter than the run (served twice, then 401 "invalid access token")',
    areas: ['money-movement'],
    front: expiresAfter(2, REFERENCE_CREDENTIALS.transfersToken, {
      code: 'UNAUTHENTICATED',
      message: 'invalid access token',
    }),
    exit: 3,
    keys: ['DBSI_TRANSFERS_TOKEN'],
    says: /expired or was revoked during the run/,
    notNamed: ['testData', 'transfersBaseUrl'],
  },
  {
    id: 'X1',
    name: 'DBSI_TRANSFERS_FORBIDDEN_TOKEN that is in fact authorized (served): the failure stands, noted',
    areas: ['money-movement'],
    configure: (c) => creds(c, { transfersForbiddenToken: SECOND_TRANSFERS_TOKEN }),
    front: forbiddenTokenAuthorized(SECOND_TRANSFERS_TOKEN),
    exit: 1,
    failed: ['OP9-AUTH-403'],
    keys: [],
    noted: /setup: .*DBSI_TRANSFERS_FORBIDDEN_TOKEN/,
  },
];
