import { INITIAL_DISCLOSURES, REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from './fixtures';

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

/** Everything the reference target holds, in memory, from its fixtures. */
export class ReferenceState {
  disclosures = new Map<string, InstitutionDisclosure>(INITIAL_DISCLOSURES.map((d) => [d.institutionDisclosureId, { ...d }]));
  userDisclosures = new Map<string, UserDisclosure>();
  customers = new Map<string, Customer>(
    [REFERENCE_TEST_DATA.customer, ...REFERENCE_TEST_DATA.moreCustomers].map((c) => [c.customerId, { phoneNumber: c.phoneNumber, countryCode: c.countryCode, emailAddress: c.emailAddress, postalAddress: { ...c.postalAddress } }]),
  );
  transfers: Array<Record<string, unknown>> = [];
  /** Requests of the revoke and transfer operations: header names exactly as sent (documented spellings) and the body text. */
  seenRequests: Array<{ path: string; headerNames: string[]; text: string }> = [];
  /** Refresh tokens that may still be revoked. */
  liveRefreshTokens = new Set<string>([REFERENCE_TEST_DATA.revocation.refresh_token]);
  /** Bearer tokens of the disclosures area, and the user each stands for. */
  bearerUsers = new Map<string, { institutionId: string; userId: string }>([[REFERENCE_CREDENTIALS.bearerToken, { institutionId: REFERENCE_TEST_DATA.institutionId, userId: REFERENCE_TEST_DATA.institutionUserId }]]);
  private counter = 0;

  nextId(prefix: string): string {
    this.counter += 1;
    return `${prefix}-${String(this.counter).padStart(4, '0')}`;
  }
}
