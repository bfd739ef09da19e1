import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from './fixtures';
import { FIXTURE_SETS, type FixtureSet } from './fixture-sets';

export interface InstitutionDisclosure {
  institutionDisclosureId: string;
  institutionId: string;
  institutionDisclosureName: string;
  institutionDisclosureData?: string;
  institutionDisclosureDataType?: string;
  institutionDisclosureStatus?: boolean;
}

export interface UserDisclosure {
  institutionId: string;
  institutionUserId: string;
  institutionUserDisclosureStatus: string;
  institutionDisclosureName: string;
  institutionUserDisclosureId: string;
  institutionDisclosureId: string;
  accountId: string;
}

export interface Customer {
  phoneNumber: string;
  countryCode: string;
  emailAddress?: string;
  postalAddress?: Record<string, string>;
}

/** Everything the reference target holds, in memory, from its fixtures (the default set unless told). */
export class ReferenceState {
  disclosures: Map<string, InstitutionDisclosure>;
  userDisclosures: Map<string, UserDisclosure>;
  customers: Map<string, Customer>;
  /** The customers addressed by their login id (userIdType LOGIN_ID) rather than their customer id. */
  loginIds: Set<string>;
  transfers: Array<Record<string, unknown>> = [];
  /** Requests of the revoke and transfer operations: header names exactly as sent (documented spellings) and the body
   * text. */
  seenRequests: Array<{ path: string; headerNames: string[]; text: string }> = [];
  /** Refresh tokens that may still be revoked. */
  liveRefreshTokens = new Set<string>([REFERENCE_TEST_DATA.revocation.refresh_token]);
  /** Bearer tokens of the disclosures area, and the user each stands for. */
  bearerUsers = new Map<string, { institutionId: string; userId: string }>([
    [
      REFERENCE_CREDENTIALS.bearerToken,
      { institutionId: REFERENCE_TEST_DATA.institutionId, userId: REFERENCE_TEST_DATA.institutionUserId },
    ],
  ]);
  /** The InstitutionCustomerId values the target knows (undefined: it does not look at the parameter). */
  businessCustomerIds?: Set<string>;
  /** A create of a user disclosure for a disclosure not on record is refused (404). */
  refusesUnknownDisclosures: boolean;
  /** A list of user disclosures for a user on record other than the token's is refused (403). */
  refusesOtherKnownUsers: boolean;
  /** The accounts transfers may name (undefined: any). */
  transferAccounts?: Set<string>;
  /** A revocation of a refresh token not in liveRefreshTokens is refused (400). */
  refusesUnknownRefreshTokens: boolean;
  private counter = 0;

  constructor(fixtures: FixtureSet = FIXTURE_SETS.default) {
    this.disclosures = new Map(fixtures.disclosures.map((d) => [d.institutionDisclosureId, { ...d }]));
    this.userDisclosures = new Map(fixtures.userDisclosures.map((u) => [u.institutionUserDisclosureId, { ...u }]));
    if (fixtures.businessCustomerIds) this.businessCustomerIds = new Set(fixtures.businessCustomerIds);
    this.refusesUnknownDisclosures = fixtures.refusesUnknownDisclosures ?? false;
    this.refusesOtherKnownUsers = fixtures.refusesOtherKnownUsers ?? false;
    if (fixtures.transferAccounts) this.transferAccounts = new Set(fixtures.transferAccounts);
    this.refusesUnknownRefreshTokens = fixtures.refusesUnknownRefreshTokens ?? false;
    const { customer, moreCustomers } = fixtures.testData;
    this.loginIds = new Set(
      [customer, ...moreCustomers].filter((c) => c.userIdType === 'LOGIN_ID').map((c) => c.customerId),
    );
    this.customers = new Map(
      [customer, ...moreCustomers].map((c) => [
        c.customerId,
        {
          phoneNumber: c.phoneNumber,
          countryCode: c.countryCode,
          emailAddress: c.emailAddress,
          postalAddress: { ...c.postalAddress },
        },
      ]),
    );
  }

  nextId(prefix: string): string {
    this.counter += 1;
    return `${prefix}-${String(this.counter).padStart(4, '0')}`;
  }
}
