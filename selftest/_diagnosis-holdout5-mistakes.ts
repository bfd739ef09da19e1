import type { TargetConfig } from '../harness/config';
import { REFERENCE_CREDENTIALS } from '../reference-target/fixtures';
import { expiresAfter, operationOf } from './_diagnosis-holdout-fronts';
import { authenticated, bodyOf, headerOf, isOp, queryOf, refusing, TRANSFERS_AUTH } from './_diagnosis-holdout5-fronts';
import type { Holdout5Row } from './_diagnosis-holdout5-run';

/**
 * The operator's mistakes of the fifth hold-out set (session 41): one configured value wrong at a time (or two at
 * once), over the keys that reach a request, wrong in a subtle way (case, a leading zero, whitespace, another
 * environment's id, two keys swapped). Expected: could not test (exit 3) naming exactly the wrong key(s).
 */

type Td = TargetConfig['testData'];
const td = (c: TargetConfig, o: Partial<Td>): TargetConfig => ({ ...c, testData: { ...c.testData, ...o } });
const creds = (c: TargetConfig, o: Partial<TargetConfig['credentials']>): TargetConfig => ({
  ...c,
  credentials: { ...c.credentials, ...o },
});
const transfer = (c: TargetConfig, o: Partial<Td['transfer']>) => td(c, { transfer: { ...c.testData.transfer, ...o } });
const customer = (c: TargetConfig, o: Partial<Td['customer']>) =>
  td(c, { customer: { ...c.testData.customer, ...o }, moreCustomers: [] });
const revocation = (c: TargetConfig, o: Partial<Td['revocation']>) =>
  td(c, { revocation: { ...c.testData.revocation, ...o } });

const transferError = (code: string, message: string) => ({ code, message });
const tokenError = (errorCode: string, errorMessage: string) => ({
  statusMessage: 'Bad Request',
  errorInfo: { errorType: 'USER_ERROR', errorCode, errorMessage },
});

export const MISTAKES5: Holdout5Row[] = [
  {
    id: 'O1',
    name: 'testData.accountType in lower case ("checking"): every delete refused 400 naming the AccountType',
    areas: ['disclosures'],
    configure: (c) => td(c, { accountType: 'checking' }),
    front: refusing(
      (r) => isOp('op7', 'op7-id')(r) && authenticated(r) && queryOf(r, 'AccountType') !== 'CHECKING',
      400,
      (r) => ({ error: 'bad_request', message: `AccountType ${queryOf(r, 'AccountType')} is not an account type` }),
    ),
    exit: 3,
    keys: ['testData.accountType'],
  },
  {
    id: 'O2',
    name: 'testData.accountId with a leading zero (acct-0100200): create and delete 404 "account … not found"',
    areas: ['disclosures'],
    configure: (c) => td(c, { accountId: 'acct-0100200' }),
    front: refusing(
      (r) => isOp('op5', 'op7', 'op7-id')(r) && authenticated(r) && headerOf(r, 'AccountId') !== 'acct-100200',
      404,
      (r) => ({ error: 'not_found', message: `account ${headerOf(r, 'AccountId')} not found` }),
    ),
    exit: 3,
    keys: ['testData.accountId'],
  },
  {
    id: 'O3',
    name: 'testData.institutionUserId with a trailing space: the list for it is 404 "no such consumer"',
    areas: ['disclosures'],
    configure: (c) => td(c, { institutionUserId: 'consumer-42 ' }),
    front: refusing(
      (r) => isOp('op4')(r) && authenticated(r) && queryOf(r, 'InstitutionConsumerId') === 'consumer-42 ',
      404,
      (r) => ({ error: 'not_found', message: `no such consumer "${queryOf(r, 'InstitutionConsumerId')}"` }),
    ),
    exit: 3,
    keys: ['testData.institutionUserId'],
  },
  {
    id: 'O4',
    name: 'testData.customer.userIdType LOGIN_ID for a customer id (the target finds no such login)',
    areas: ['contact-info'],
    configure: (c) => customer(c, { userIdType: 'LOGIN_ID' }),
    front: refusing(
      (r) => isOp('op10')(r) && authenticated(r) && bodyOf(r).userIdType === 'LOGIN_ID',
      404,
      () => ({ error: 'not_found', message: 'no user with LOGIN_ID cust/7 01' }),
    ),
    exit: 3,
    keys: ['testData.customer.customerId'],
    left:
      'expected testData.customer.userIdType: the 404 quotes both the customer id and LOGIN_ID, and only a control ' +
      'that varies userIdType alone (the same update as CUSTOMER_ID) can tell them apart; the contact-info drivers ' +
      "would send it (another engineer's files). The setup no longer names baseUrl: the 404 quotes the path's id",
  },
  {
    id: 'O5',
    name: 'testData.moreCustomers[1].customerId of another environment (cust/7 003): only it is 404',
    areas: ['contact-info'],
    configure: (c) =>
      td(c, {
        moreCustomers: c.testData.moreCustomers.map((m, i) => (i === 1 ? { ...m, customerId: 'cust/7 003' } : m)),
      }),
    exit: 3,
    keys: ['testData.moreCustomers[1].customerId'],
  },
  {
    id: 'O6',
    name: 'testData.institutionCustomerId of another environment: change and delete 404 quoting it',
    areas: ['disclosures'],
    configure: (c) => td(c, { institutionCustomerId: 'biz-2002' }),
    front: refusing(
      (r) =>
        isOp('op6', 'op6-id', 'op7', 'op7-id')(r) &&
        authenticated(r) &&
        queryOf(r, 'InstitutionCustomerId') === 'biz-2002',
      404,
      () => ({ error: 'not_found', message: 'InstitutionCustomerId biz-2002 not found' }),
    ),
    exit: 3,
    keys: ['testData.institutionCustomerId'],
  },
  {
    id: 'O7',
    name: 'testData.transfer.currencyCode in lower case ("aed"): 400 naming currencyCode',
    areas: ['money-movement'],
    configure: (c) => transfer(c, { currencyCode: 'aed' }),
    front: refusing(
      (r) => isOp('op9')(r) && authenticated(r) && JSON.stringify(bodyOf(r)).includes('"aed"'),
      400,
      () => transferError('INVALID_CURRENCY', 'currencyCode aed is not supported'),
    ),
    exit: 3,
    keys: ['testData.transfer.currencyCode'],
  },
  {
    id: 'O8',
    name: 'testData.transfer.fromAccountId and fromAccountHolderId swapped: 400 quoting both',
    areas: ['money-movement'],
    configure: (c) => transfer(c, { fromAccountId: 'holder-1', fromAccountHolderId: 'acct-100200' }),
    front: refusing(
      (r) => isOp('op9')(r) && authenticated(r) && bodyOf(r).fromAccountId === 'holder-1',
      400,
      () => transferError('ACCOUNT_NOT_FOUND', 'no account holder-1 for holder acct-100200'),
    ),
    exit: 3,
    keys: ['testData.transfer.fromAccountHolderId', 'testData.transfer.fromAccountId'],
  },
  {
    id: 'O9',
    name: 'testData.revocation.institutionId with a leading zero (01001), testData.institutionId right',
    areas: ['authentication'],
    configure: (c) => revocation(c, { institutionId: '01001' }),
    front: refusing(
      (r) => isOp('op8')(r) && authenticated(r) && headerOf(r, 'institutionId') === '01001',
      400,
      () => tokenError('INVALID_INSTITUTION', 'institutionId 01001 is not a known institution'),
    ),
    exit: 3,
    keys: ['testData.revocation.institutionId'],
  },
  {
    id: 'O10',
    name: 'testData.revocation.username in another letter case (Jordan.Lee): 400 naming the username',
    areas: ['authentication'],
    configure: (c) => revocation(c, { username: 'Jordan.Lee' }),
    front: refusing(
      (r) => isOp('op8')(r) && authenticated(r) && bodyOf(r).username === 'Jordan.Lee',
      400,
      () => tokenError('INVALID_USER', 'username Jordan.Lee does not match the refresh token'),
    ),
    exit: 3,
    keys: ['testData.revocation.username'],
  },
  {
    id: 'O11',
    name: 'DBSI_BEARER_TOKEN valid at the start, expired during the run (401 "The access token expired")',
    areas: ['disclosures'],
    front: expiresAfter(20, REFERENCE_CREDENTIALS.bearerToken, {
      error: 'invalid_token',
      message: 'The access token expired',
    }),
    exit: 3,
    keys: ['DBSI_BEARER_TOKEN'],
    says: /expired or was revoked during the run/,
  },
  {
    id: 'O12',
    name: 'contactInfoBaseUrl set to the identity prefix (authBaseUrl): only contact info 404',
    areas: ['disclosures', 'contact-info'],
    configure: (c) => ({ ...c, contactInfoBaseUrl: c.authBaseUrl }),
    exit: 3,
    keys: ['contactInfoBaseUrl'],
  },
  {
    id: 'O13',
    name: 'authBaseUrl and transfersBaseUrl swapped (two keys at once)',
    areas: ['authentication', 'money-movement'],
    configure: (c) => ({ ...c, authBaseUrl: c.transfersBaseUrl, transfersBaseUrl: c.authBaseUrl }),
    exit: 3,
    keys: ['authBaseUrl', 'transfersBaseUrl'],
  },
  {
    id: 'O14',
    name: 'callingAppId not registered with the target: 403 naming callingAppId on every disclosures request',
    areas: ['disclosures'],
    configure: (c) => ({ ...c, callingAppId: 'acme-ci' }),
    front: refusing(
      (r) => /^op[1-7]/.test(operationOf(r)) && headerOf(r, 'callingAppId') === 'acme-ci',
      403,
      () => ({ error: 'forbidden', message: 'callingAppId acme-ci is not registered' }),
    ),
    exit: 3,
    keys: ['callingAppId'],
  },
  {
    id: 'O15',
    name: 'DBSI_CONTACT_INFO_HEADERS {} (no credentials) for a target that wants a bearer token: 401',
    areas: ['contact-info'],
    configure: (c) => creds(c, { contactInfoHeaders: {} }),
    front: refusing(
      (r) => isOp('op10')(r) && !headerOf(r, 'authorization'),
      401,
      () => ({ error: 'unauthorized', message: 'authentication required' }),
    ),
    exit: 3,
    keys: ['DBSI_CONTACT_INFO_HEADERS'],
  },
  {
    id: 'O16',
    name: 'paths.updateContactInfo declared as /customers/{customerId}/contact-info, the target serves the spec path',
    areas: ['disclosures', 'contact-info'],
    configure: (c) => ({ ...c, paths: { updateContactInfo: '/customers/{customerId}/contact-info' } }),
    exit: 3,
    keys: ['paths.updateContactInfo'],
  },
  {
    id: 'O17',
    name: 'two at once: testData.accountId of another user and testData.customer.customerId of another environment',
    // First written with testData.disclosure not listed as the second mistake: that check stops every write before
    // the account is sent (nothing was written for it), so nothing can name the account (an expectation corrected).
    areas: ['disclosures', 'contact-info'],
    configure: (c) => customer(td(c, { accountId: 'acct-770100' }), { customerId: 'cust/7 001' }),
    front: refusing(
      (r) => isOp('op5')(r) && authenticated(r) && headerOf(r, 'AccountId') === 'acct-770100',
      400,
      () => ({ error: 'bad_request', message: 'AccountId acct-770100 is not an account of this user' }),
    ),
    exit: 3,
    keys: ['testData.accountId', 'testData.customer.customerId'],
  },
  {
    id: 'O18',
    name: 'two at once: a transfers token of another environment and the phone number with a leading zero',
    areas: ['money-movement', 'contact-info'],
    configure: (c) => customer(creds(c, { transfersToken: 'ref-transfers-staging-77aa' }), { phoneNumber: '05550100' }),
    exit: 3,
    keys: ['DBSI_TRANSFERS_TOKEN', 'testData.customer.phoneNumber'],
  },
  {
    id: 'O19',
    name: 'testData.customer.countryCode "+1" where the record holds "1": 400 "oldCountryCode +1 does not match"',
    areas: ['contact-info'],
    configure: (c) => customer(c, { countryCode: '+1' }),
    front: refusing(
      (r) => {
        const p = bodyOf(r).phoneNumber as Record<string, unknown> | undefined;
        return isOp('op10')(r) && authenticated(r) && p?.oldCountryCode === '+1';
      },
      400,
      () => ({ error: 'bad_request', message: 'oldCountryCode +1 does not match the record' }),
    ),
    exit: 3,
    keys: ['testData.customer.countryCode'],
  },
  {
    id: 'O20',
    name: 'testData.transfer.toAccountHolderId of another customer: 403 quoting it (the token is right)',
    areas: ['money-movement'],
    configure: (c) => transfer(c, { toAccountHolderId: 'holder-9' }),
    front: refusing(
      (r) =>
        isOp('op9')(r) && headerOf(r, 'authorization') === TRANSFERS_AUTH && bodyOf(r).toAccountHolderId === 'holder-9',
      403,
      () => transferError('FORBIDDEN', 'holder-9 is not the holder of acct-100300'),
    ),
    exit: 3,
    // The error quotes both values it pairs (holder-9, acct-100300), neither proven: both are candidates (an
    // expectation corrected: first written as the holder alone).
    keys: ['testData.transfer.toAccountHolderId', 'testData.transfer.toAccountId'],
  },
];
