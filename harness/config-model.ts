import type { SafetySwitch } from './model';
import type { OperationKey } from './operations';

/*
 * The configuration's shape (TargetConfig), its error, the environment variables of its secrets and its base URLs;
 * read and checked by harness/config.ts.
 */

/** A configuration problem: one clear message, exit code 2. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export interface CustomerData {
  customerId: string;
  userIdType: 'CUSTOMER_ID' | 'LOGIN_ID';
  phoneNumber: string;
  countryCode: string;
  emailAddress?: string;
  postalAddress?: Record<string, string>;
  /** The operator states emailAddress and postalAddress are on record: only then are they ever sent. */
  emailAndPostalConfirmed?: boolean;
  /** The operator states countryCode is the one on record: only then is a country code ever sent (session 41). */
  countryCodeConfirmed?: boolean;
}

export interface TargetConfig {
  name: string;
  baseUrl: string;
  authBaseUrl: string;
  transfersBaseUrl: string;
  /** The {base_url} of the contact-info operation; baseUrl when not set (see baseUrlOf). */
  contactInfoBaseUrl?: string;
  /** Declared deviations: the path an operation is served at instead of the spec's (harness/run/deviations.ts). */
  paths?: Partial<Record<OperationKey, string>>;
  callingAppId: string;
  credentials: {
    bearerToken?: string;
    transfersToken?: string;
    transfersForbiddenToken?: string;
    revocationClientId?: string;
    revocationClientSecret?: string;
    contactInfoHeaders?: Record<string, string>;
  };
  testData: {
    institutionId: string;
    institutionUserId: string;
    institutionCustomerId?: string;
    /** Another consumer user: the list asked for it must show none of institutionUserId's records. */
    otherInstitutionUserId?: string;
    accountType?: string;
    accountId: string;
    disclosure?: { institutionDisclosureId: string; institutionDisclosureName: string };
    transfer: {
      fromAccountId: string;
      toAccountId: string;
      fromAccountHolderId?: string;
      toAccountHolderId?: string;
      currencyCode: string;
      amount: number;
    };
    customer: CustomerData;
    /** Further customers, so that phone-changing tests need not queue for one customer. */
    moreCustomers: CustomerData[];
    revocation: {
      institutionId: string;
      grant_type?: string;
      username?: string;
      password?: string;
      scopes?: string;
      refresh_token?: string;
    };
  };
  allow: Record<SafetySwitch, boolean>;
  /** The embedded reference target (never from a file): the suite knows what it holds, e-mail and postal address. */
  ownTarget?: boolean;
  /** Limits on what a faulty target can make the suite change by mistake (default: see budgetOf). */
  budgets?: { transfersAcceptedByMistake?: number };
  http: {
    timeoutMs: number;
    concurrency: number;
    rateLimitPerSecond: number;
    maxBodyBytes: number;
    retries: number;
    proxyUrl?: string;
    allowInsecureHttp: boolean;
    tls: { caFile?: string; certFile?: string; keyFile?: string; rejectUnauthorized: boolean };
  };
}

/** Environment variables that may carry secrets instead of the file. */
export const SECRET_ENV = {
  DBSI_BEARER_TOKEN: 'credentials.bearerToken',
  DBSI_TRANSFERS_TOKEN: 'credentials.transfersToken',
  DBSI_TRANSFERS_FORBIDDEN_TOKEN: 'credentials.transfersForbiddenToken',
  DBSI_REVOCATION_CLIENT_ID: 'credentials.revocationClientId',
  DBSI_REVOCATION_CLIENT_SECRET: 'credentials.revocationClientSecret',
  DBSI_CONTACT_INFO_HEADERS: 'credentials.contactInfoHeaders',
  DBSI_REVOCATION_PASSWORD: 'testData.revocation.password',
  DBSI_REVOCATION_REFRESH_TOKEN: 'testData.revocation.refresh_token',
} as const;

/** The URL keys of a configuration. */
export const URL_KEYS = ['baseUrl', 'authBaseUrl', 'transfersBaseUrl', 'contactInfoBaseUrl'] as const;

/** Only a literal loopback address counts: 127.0.0.0/8, ::1, or the name localhost (never a DNS name that resolves
 * there). */
export function isLoopback(url: string): boolean {
  const h = new URL(url).hostname;
  return h === 'localhost' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * The key a base goes by: contactInfoBaseUrl, when not set or equal to baseUrl, is baseUrl (what the
 * operator set, and what a run proves as one base URL).
 */
export function baseKeyOf<K extends (typeof URL_KEYS)[number]>(
  cfg: Pick<TargetConfig, (typeof URL_KEYS)[number]>,
  key: K,
): K | 'baseUrl' {
  return key === 'contactInfoBaseUrl' && baseUrlOf(cfg, key) === cfg.baseUrl ? 'baseUrl' : key;
}

/** The base URL a key names: contactInfoBaseUrl, when not set, is baseUrl. */
export function baseUrlOf(cfg: Pick<TargetConfig, (typeof URL_KEYS)[number]>, key: (typeof URL_KEYS)[number]): string {
  return key === 'contactInfoBaseUrl' ? (cfg.contactInfoBaseUrl ?? cfg.baseUrl) : cfg[key];
}
