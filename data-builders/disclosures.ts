import type { Faker } from '@faker-js/faker';
import type { TargetConfig } from '../harness/config';
import { nearVariant, type NearVariant } from '../harness/credential-variants';

/** The configured token, none, a random one, or a near variant of the configured one (credential-variants.ts). */
export type Credentials = 'valid' | 'none' | 'invalid' | `near-${NearVariant}`;

/**
 * "Disclosures: headers sent with every operation": Authorization (Bearer), TransactionId (a UUID
 * string, unique per request) and callingAppId, under exactly those names.
 */
export function commonHeaders(f: Faker, cfg: TargetConfig, credentials: Credentials = 'valid'): Record<string, string> {
  const h: Record<string, string> = {
    TransactionId: f.string.uuid(),
    callingAppId: cfg.callingAppId,
    Accept: 'application/json',
  };
  if (credentials === 'valid') h.Authorization = `Bearer ${cfg.credentials.bearerToken}`;
  if (credentials === 'invalid') h.Authorization = `Bearer invalid-${f.string.alphanumeric(24)}`;
  if (credentials.startsWith('near-'))
    h.Authorization = `Bearer ${nearOf(cfg.credentials.bearerToken, credentials.slice(5) as NearVariant)}`;
  return h;
}

/** A request of the area: headers (the three common ones plus the operation's own), optional query and body. */
export interface BuiltRequest {
  headers: Record<string, string>;
  query?: Record<string, string | undefined>;
  body?: Record<string, unknown>;
}

/** The institution disclosure a user disclosure record is about. */
export interface DisclosureRef {
  institutionDisclosureId: string;
  institutionDisclosureName: string;
  institutionId: string;
}

/**
 * A name for an institution disclosure the run creates: "dbsi-<runId>-<random>", at most 20
 * characters (one known implementation caps the name at 20), so a person can recognise it.
 */
/** What every name disclosureName gives in the run starts with. */
export const disclosureNamePrefix = (runId: string): string => `dbsi-${runId}-`.slice(0, 14);

export function disclosureName(f: Faker, runId: string): string {
  const prefix = disclosureNamePrefix(runId);
  return `${prefix}${f.string.alphanumeric({ length: 20 - prefix.length, casing: 'lower' })}`.slice(0, 20);
}

/**
 * Operation 2: the common headers plus InstitutionId, InstitutionDisclosureName and
 * InstitutionDisclosureStatus, and the same three values in the body (the suite never depends
 * on which of the two wins: "not shown").
 */
export function createInstitutionDisclosureRequest(
  f: Faker,
  cfg: TargetConfig,
  name: string,
  status: boolean,
  credentials: Credentials = 'valid',
): BuiltRequest {
  const institutionId = cfg.testData.institutionId;
  return {
    headers: {
      ...commonHeaders(f, cfg, credentials),
      'Content-Type': 'application/json',
      InstitutionId: institutionId,
      InstitutionDisclosureName: name,
      InstitutionDisclosureStatus: String(status),
    },
    body: { institutionId, institutionDisclosureName: name, institutionDisclosureStatus: status },
  };
}

/** Operation 3: the same headers as create; the body adds institutionDisclosureId (also the path variable). */
export function changeInstitutionDisclosureRequest(
  f: Faker,
  cfg: TargetConfig,
  d: {
    institutionDisclosureId: string;
    institutionId: string;
    institutionDisclosureName: string;
    institutionDisclosureStatus: boolean;
  },
  credentials: Credentials = 'valid',
): BuiltRequest {
  return {
    headers: {
      ...commonHeaders(f, cfg, credentials),
      'Content-Type': 'application/json',
      InstitutionId: d.institutionId,
      InstitutionDisclosureName: d.institutionDisclosureName,
      InstitutionDisclosureStatus: String(d.institutionDisclosureStatus),
    },
    body: {
      institutionDisclosureId: d.institutionDisclosureId,
      institutionId: d.institutionId,
      institutionDisclosureName: d.institutionDisclosureName,
      institutionDisclosureStatus: d.institutionDisclosureStatus,
    },
  };
}

/** Operation 4: the common headers and the query parameter InstitutionConsumerId (the configured user). */
export function listUserDisclosuresRequest(
  f: Faker,
  cfg: TargetConfig,
  credentials: Credentials = 'valid',
): BuiltRequest {
  return {
    headers: commonHeaders(f, cfg, credentials),
    query: { InstitutionConsumerId: cfg.testData.institutionUserId },
  };
}

/**
 * Operation 5: the common headers plus InstitutionUserDisclosureStatus, InstitutionDisclosureName,
 * AccountId, InstitutionDisclosureId and InstitutionUserDisclosureStatusUpdateDateTime (format not
 * shown: ISO 8601 is sent); body institutionUserDisclosureStatus and institutionDisclosureName.
 */
export function createUserDisclosureRequest(
  f: Faker,
  cfg: TargetConfig,
  d: DisclosureRef,
  status = 'ACCEPTED',
  credentials: Credentials = 'valid',
): BuiltRequest {
  return {
    headers: {
      ...commonHeaders(f, cfg, credentials),
      'Content-Type': 'application/json',
      InstitutionUserDisclosureStatus: status,
      InstitutionDisclosureName: d.institutionDisclosureName,
      AccountId: cfg.testData.accountId,
      InstitutionDisclosureId: d.institutionDisclosureId,
      InstitutionUserDisclosureStatusUpdateDateTime: f.date.recent({ days: 1 }).toISOString(),
    },
    body: { institutionUserDisclosureStatus: status, institutionDisclosureName: d.institutionDisclosureName },
  };
}

/**
 * The query parameters of operations 6 and 7 sent only where the configuration supplies their value (the key of
 * testData): InstitutionCustomerId ("mandatory for business banking requests") and AccountType ("mandatory for
 * multi-statement disclosures"). The contract coverage reads it to tell a target that needs neither.
 */
export const CONFIGURED_QUERY: Readonly<Record<string, 'institutionCustomerId' | 'accountType'>> = {
  InstitutionCustomerId: 'institutionCustomerId',
  AccountType: 'accountType',
};

function userQuery(cfg: TargetConfig, withAccountType: boolean): Record<string, string | undefined> {
  const value = (name: string) => cfg.testData[CONFIGURED_QUERY[name]!];
  return {
    InstitutionCustomerId: value('InstitutionCustomerId'),
    ...(withAccountType ? { AccountType: value('AccountType') } : {}),
  };
}

/**
 * Operation 6 (either form): the common headers plus InstitutionDisclosureId, InstitutionUserDisclosureStatus
 * and InstitutionDisclosureName; body institutionDisclosureId, institutionDisclosureName and
 * institutionDisclosureStatus (the member name the spec writes for this body).
 */
export function changeUserDisclosureRequest(
  f: Faker,
  cfg: TargetConfig,
  d: DisclosureRef,
  status = 'NOT_ACCEPTED',
  credentials: Credentials = 'valid',
): BuiltRequest {
  return {
    headers: {
      ...commonHeaders(f, cfg, credentials),
      'Content-Type': 'application/json',
      InstitutionDisclosureId: d.institutionDisclosureId,
      InstitutionUserDisclosureStatus: status,
      InstitutionDisclosureName: d.institutionDisclosureName,
    },
    query: userQuery(cfg, false),
    body: {
      institutionDisclosureId: d.institutionDisclosureId,
      institutionDisclosureName: d.institutionDisclosureName,
      institutionDisclosureStatus: status,
    },
  };
}

/** Operation 7 (either form): the common headers plus InstitutionUserDisclosureStatus (the record's status) and
 * AccountId; body institutionDisclosureName and accountId. */
export function deleteUserDisclosureRequest(
  f: Faker,
  cfg: TargetConfig,
  d: DisclosureRef,
  currentStatus = 'ACCEPTED',
  credentials: Credentials = 'valid',
): BuiltRequest {
  return {
    headers: {
      ...commonHeaders(f, cfg, credentials),
      'Content-Type': 'application/json',
      InstitutionUserDisclosureStatus: currentStatus,
      AccountId: cfg.testData.accountId,
    },
    query: userQuery(cfg, true),
    body: { institutionDisclosureName: d.institutionDisclosureName, accountId: cfg.testData.accountId },
  };
}

/** The near variant of a configured credential; a random made-up one where the credential has no such variant. */
export function nearOf(secret: string | undefined, kind: NearVariant): string {
  return (secret && nearVariant(secret, kind)) ?? `invalid-near-${kind}`;
}
