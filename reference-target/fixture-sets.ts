import { INITIAL_DISCLOSURES, INITIAL_USER_DISCLOSURES, REFERENCE_TEST_DATA } from './fixtures';
import type { InstitutionDisclosure, UserDisclosure } from './state';

/**
 * What the reference target holds when it starts, and the test data a configuration gives for it.
 *
 * - `default` (reference-target/fixtures.ts): generous, so that the cases that must not overlap on one
 *   record or customer each get their own: 24 disclosures, 9 customers, and four user records from
 *   before the run (two of the configured user's, two of another user's) that the suite must leave as
 *   they are and a list for the configured user must not show the other user's.
 * - `realistic`: what a bank's sandbox typically offers: 3 institution disclosures, of which the
 *   configured user has already accepted 1, and one test customer (no testData.moreCustomers). The
 *   bench runs the suite against it (`npm run reference -- --fixtures realistic`).
 * - `retail`: the default data on a stricter target with no business banking, as one known retail
 *   implementation: it knows no InstitutionCustomerId, and refuses (404) a change or delete of a user
 *   disclosure that carries one (the create, which carries none, is served); it refuses (404) a create
 *   of a user disclosure for a disclosure it does not list; and it refuses (403) a list of user
 *   disclosures asked for a user it knows other than the token's (a consumer it does not know gets an
 *   empty list); it moves money only between the configured transfer accounts (another: 400), and it
 *   revokes only a refresh token it issued and has not revoked yet (another: 400). What a run whose test
 *   data names what the target does not know meets
 *   (`npm run reference -- --fixtures retail`).
 */
export interface FixtureSet {
  disclosures: InstitutionDisclosure[];
  /** Acceptance records on record at the start: the suite must never touch them. */
  userDisclosures: UserDisclosure[];
  /** The test data a configuration pointing at this target gives. */
  testData: typeof REFERENCE_TEST_DATA;
  /**
   * The InstitutionCustomerId values (business banking) the target knows: a change or delete of a user
   * disclosure carrying any other is refused, 404. Undefined: the parameter is not looked at.
   */
  businessCustomerIds?: string[];
  /** A create of a user disclosure for a disclosure the target does not list is refused, 404 (else it is served). */
  refusesUnknownDisclosures?: boolean;
  /** A list of user disclosures for a user on record (one with a record) other than the token's is refused, 403. */
  refusesOtherKnownUsers?: boolean;
  /** The accounts transfers may move money between: a transfer naming another is refused, 400. Undefined: any. */
  transferAccounts?: string[];
  /** A revocation of a refresh token the target never issued (or already revoked) is refused, 400. */
  refusesUnknownRefreshTokens?: boolean;
}

export type FixtureSetName = 'default' | 'realistic' | 'retail';

export const FIXTURE_SETS: Record<FixtureSetName, FixtureSet> = {
  default: {
    disclosures: INITIAL_DISCLOSURES,
    userDisclosures: INITIAL_USER_DISCLOSURES,
    testData: REFERENCE_TEST_DATA,
  },
  realistic: {
    disclosures: INITIAL_DISCLOSURES.slice(0, 3),
    userDisclosures: [
      {
        institutionId: REFERENCE_TEST_DATA.institutionId,
        institutionUserId: REFERENCE_TEST_DATA.institutionUserId,
        institutionUserDisclosureStatus: 'ACCEPTED',
        institutionDisclosureName: INITIAL_DISCLOSURES[0]!.institutionDisclosureName,
        institutionUserDisclosureId: 'uds-accepted-before',
        institutionDisclosureId: INITIAL_DISCLOSURES[0]!.institutionDisclosureId,
        accountId: REFERENCE_TEST_DATA.accountId,
      },
    ],
    testData: { ...REFERENCE_TEST_DATA, moreCustomers: [] },
  },
  retail: {
    disclosures: INITIAL_DISCLOSURES,
    userDisclosures: INITIAL_USER_DISCLOSURES,
    testData: REFERENCE_TEST_DATA,
    businessCustomerIds: [],
    refusesUnknownDisclosures: true,
    refusesOtherKnownUsers: true,
    transferAccounts: [REFERENCE_TEST_DATA.transfer.fromAccountId, REFERENCE_TEST_DATA.transfer.toAccountId],
    refusesUnknownRefreshTokens: true,
  },
};

export function fixtureSet(name: string): FixtureSet {
  if (!Object.hasOwn(FIXTURE_SETS, name))
    throw new Error(`unknown fixture set "${name}" (expected one of ` + `${Object.keys(FIXTURE_SETS).join(', ')})`);
  return FIXTURE_SETS[name as FixtureSetName];
}
