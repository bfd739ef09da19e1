/**
 * The reference target's deterministic fixtures, and the credentials and test data the suite's
 * default configuration uses against it. These "secrets" are fake, but they are treated as real:
 * redaction must hide them everywhere, and the self-tests check that it does.
 */
export const REFERENCE_CREDENTIALS = {
  bearerToken: 'ref-bearer-7f3a9c1e5b2d',
  transfersToken: 'ref-transfers-4e8b2a6c9d1f',
  transfersForbiddenToken: 'ref-transfers-readonly-2c7e9a4b',
  revocationClientId: 'ref-shared-key-6d1e',
  revocationClientSecret: 'ref-secret-key-9b3f5a7c',
} as const;

export const REFERENCE_TEST_DATA = {
  institutionId: '1001',
  institutionUserId: 'consumer-42',
  accountId: 'acct-100200',
  transfer: {
    fromAccountId: 'acct-100200',
    toAccountId: 'acct-100300',
    fromAccountHolderId: 'holder-1',
    toAccountHolderId: 'holder-2',
    currencyCode: 'AED',
    amount: 0.01,
  },
  customer: {
    customerId: 'cust/7 01',
    userIdType: 'CUSTOMER_ID' as 'CUSTOMER_ID' | 'LOGIN_ID',
    phoneNumber: '5550100',
    countryCode: '1',
    emailAddress: 'jordan.lee@example.com',
    postalAddress: {
      address1: '1 Main St',
      address2: '',
      city: 'Springfield',
      state: 'IL',
      postalCode: '62701',
      country: 'US',
    },
    // These are the values the reference target holds (reference-target/state.ts): confirmed, as an operator would.
    emailAndPostalConfirmed: true,
  },
  // More customers, so the phone-changing contact-info tests run side by side (one customer each).
  // The last one is addressed by its login id (userIdType LOGIN_ID), with country code 44.
  moreCustomers: [2, 3, 4, 5, 6, 7, 8, 9].map((n) => ({
    customerId: n === 9 ? 'member09@fi.example' : `cust/7 0${n}`,
    userIdType: (n === 9 ? 'LOGIN_ID' : 'CUSTOMER_ID') as 'CUSTOMER_ID' | 'LOGIN_ID',
    phoneNumber: `55501${String(n).padStart(2, '0')}`,
    // The login-id customer is abroad: its own country code must be sent and restored, not the first customer's.
    countryCode: n === 9 ? '44' : '1',
    emailAddress: `customer.${n}@example.com`,
    postalAddress: {
      address1: `${n} Main St`,
      address2: '',
      city: 'Springfield',
      state: 'IL',
      postalCode: '62701',
      country: 'US',
    },
    emailAndPostalConfirmed: true,
  })),
  revocation: {
    institutionId: '1001',
    grant_type: 'refresh_token',
    username: 'jordan.lee',
    password: 'ref-user-password-51c8',
    scopes: 'openid',
    refresh_token: 'ref-refresh-token-0a9e7d3b',
  },
};

/** Institution disclosures on record when the target starts. */
export const INITIAL_DISCLOSURES = [
  {
    institutionDisclosureId: 'disc-001',
    institutionId: '1001',
    institutionDisclosureName: 'E-Sign Agreement',
    institutionDisclosureData: 'https://fi.example/disclosures/esign.pdf',
    institutionDisclosureDataType: 'URL',
    institutionDisclosureStatus: true,
  },
  {
    institutionDisclosureId: 'disc-002',
    institutionId: '1001',
    institutionDisclosureName: 'Privacy Notice',
    institutionDisclosureData: 'https://fi.example/disclosures/privacy.pdf',
    institutionDisclosureDataType: 'URL',
    institutionDisclosureStatus: true,
  },
  // A list element that omits the three optional members, as the spec allows.
  { institutionDisclosureId: 'disc-003', institutionId: '1001', institutionDisclosureName: 'Overdraft Terms' },
  // Enough further disclosures for every user-disclosure test of a run to accept its own one: those
  // tests lock the disclosure they work on, so with few disclosures they would queue for them.
  ...[
    'Funds Availability',
    'Electronic Fund Transfers',
    'Truth in Savings',
    'Fee Schedule',
    'Mobile Deposit',
    'Bill Pay Terms',
    'Card Agreement',
    'Arbitration Notice',
    'Online Banking',
    'Alerts Terms',
    'Statement Delivery',
    'Wire Transfers',
    'Courtesy Pay',
    'Savings Terms',
    'Youth Accounts',
    'Business Banking',
    'Remote Access',
    'Joint Accounts',
    'Check Imaging',
    'Account Closure',
    'Dispute Policy',
  ].map((name, i) => ({
    institutionDisclosureId: `disc-${String(i + 4).padStart(3, '0')}`,
    institutionId: '1001',
    institutionDisclosureName: name,
    institutionDisclosureData: `https://fi.example/disclosures/${i + 4}.pdf`,
    institutionDisclosureDataType: 'URL',
    institutionDisclosureStatus: i % 3 !== 0,
  })),
];

/**
 * Acceptance records on record when the target starts, none of them the run's: the configured user's
 * (which the suite must never touch, and which a change or delete of another record must leave as they
 * are) and another user's (which a list for the configured user must not show).
 */
export const OTHER_USER_ID = 'consumer-77';
export const INITIAL_USER_DISCLOSURES = [
  {
    institutionId: '1001',
    institutionUserId: 'consumer-42',
    institutionUserDisclosureStatus: 'ACCEPTED',
    institutionDisclosureName: 'E-Sign Agreement',
    institutionUserDisclosureId: 'uds-e001',
    institutionDisclosureId: 'disc-001',
    accountId: 'acct-100200',
  },
  {
    institutionId: '1001',
    institutionUserId: 'consumer-42',
    institutionUserDisclosureStatus: 'NOT_ACCEPTED',
    institutionDisclosureName: 'Overdraft Terms',
    institutionUserDisclosureId: 'uds-e003',
    institutionDisclosureId: 'disc-003',
    accountId: 'acct-100200',
  },
  {
    institutionId: '1001',
    institutionUserId: OTHER_USER_ID,
    institutionUserDisclosureStatus: 'ACCEPTED',
    institutionDisclosureName: 'E-Sign Agreement',
    institutionUserDisclosureId: 'uds-o001',
    institutionDisclosureId: 'disc-001',
    accountId: 'acct-770100',
  },
  {
    institutionId: '1001',
    institutionUserId: OTHER_USER_ID,
    institutionUserDisclosureStatus: 'ACCEPTED',
    institutionDisclosureName: 'Overdraft Terms',
    institutionUserDisclosureId: 'uds-o003',
    institutionDisclosureId: 'disc-003',
    accountId: 'acct-770100',
  },
];

/** Mount prefixes: every {base_url} carries a path prefix, so the suite's URL joining is exercised. */
export const PREFIXES = { baseUrl: '/dbsi', authBaseUrl: '/identity', transfersBaseUrl: '/banking' } as const;
