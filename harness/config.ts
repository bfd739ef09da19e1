import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { Area, SafetySwitch } from './model';

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
}

export interface TargetConfig {
  name: string;
  baseUrl: string;
  authBaseUrl: string;
  transfersBaseUrl: string;
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
    accountType?: string;
    accountId: string;
    disclosure?: { institutionDisclosureId: string; institutionDisclosureName: string };
    transfer: { fromAccountId: string; toAccountId: string; fromAccountHolderId?: string; toAccountHolderId?: string; currencyCode: string; amount: number };
    customer: CustomerData;
    /** Further customers, so that phone-changing tests need not queue for one customer. */
    moreCustomers: CustomerData[];
    revocation: { institutionId: string; grant_type?: string; username?: string; password?: string; scopes?: string; refresh_token?: string };
  };
  allow: Record<SafetySwitch, boolean>;
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

const schemaPath = fileURLToPath(new URL('../schemas/config.schema.json', import.meta.url));

let validator: ReturnType<Ajv['compile']> | undefined;
function validate(raw: unknown): ErrorObject[] {
  if (!validator) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats.default(ajv);
    validator = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')));
  }
  return validator(raw) ? [] : (validator.errors ?? []);
}

function describeError(e: ErrorObject): string {
  const key = (e.instancePath || '').replace(/^\//, '').replace(/\//g, '.') || '(top level)';
  switch (e.keyword) {
    case 'additionalProperties':
      return `unknown key "${key === '(top level)' ? '' : key + '.'}${(e.params as { additionalProperty: string }).additionalProperty}": not part of the configuration (see schemas/config.schema.json)`;
    case 'required':
      return `missing key "${key === '(top level)' ? '' : key + '.'}${(e.params as { missingProperty: string }).missingProperty}"`;
    case 'format':
    case 'pattern':
      return `"${key}" must be an absolute http:// or https:// URL`;
    case 'enum':
      return `"${key}" must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
    default:
      return `"${key}" ${e.message ?? 'is invalid'}`;
  }
}

function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let o = obj;
  for (const p of parts.slice(0, -1)) {
    if (typeof o[p] !== 'object' || o[p] === null) o[p] = {};
    o = o[p] as Record<string, unknown>;
  }
  o[parts.at(-1)!] = value;
}

/** Merge secrets from the environment into a raw config object (environment wins over the file). */
export function applySecretEnv(raw: Record<string, unknown>, env: NodeJS.ProcessEnv): void {
  for (const [name, path] of Object.entries(SECRET_ENV)) {
    const v = env[name];
    if (v === undefined || v === '') continue;
    if (name === 'DBSI_CONTACT_INFO_HEADERS') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(v);
      } catch {
        throw new ConfigError(`environment variable ${name} must be a JSON object of header names to values, e.g. {"Authorization":"Bearer …"}`);
      }
      setPath(raw, path, parsed);
    } else setPath(raw, path, v);
  }
}

function isLoopback(url: string): boolean {
  const h = new URL(url).hostname;
  return h === 'localhost' || h === '[::1]' || h === '::1' || /^127\./.test(h);
}

/** Parse, validate and complete a configuration. Throws ConfigError with one clear message. */
export function resolveConfig(raw: unknown, env: NodeJS.ProcessEnv = process.env): TargetConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError('the configuration must be a JSON object');
  const obj = structuredClone(raw) as Record<string, unknown>;
  applySecretEnv(obj, env);
  const errors = validate(obj);
  if (errors.length) {
    const lines = [...new Set(errors.filter((e) => e.keyword !== 'if').map(describeError))];
    throw new ConfigError(`invalid configuration: ${lines.join('; ')}`);
  }
  const r = obj as Record<string, any>;
  const td = r.testData ?? {};
  const http = r.http ?? {};
  const cfg: TargetConfig = {
    name: r.name ?? new URL(r.baseUrl).host,
    baseUrl: r.baseUrl.replace(/\/+$/, ''),
    authBaseUrl: r.authBaseUrl.replace(/\/+$/, ''),
    transfersBaseUrl: r.transfersBaseUrl.replace(/\/+$/, ''),
    callingAppId: r.callingAppId ?? 'dbsi-conformance',
    credentials: { ...(r.credentials ?? {}) },
    testData: {
      institutionId: td.institutionId,
      institutionUserId: td.institutionUserId,
      institutionCustomerId: td.institutionCustomerId,
      accountType: td.accountType,
      accountId: td.accountId,
      disclosure: td.disclosure,
      transfer: { currencyCode: 'AED', amount: 0.01, ...(td.transfer ?? {}) },
      customer: { userIdType: 'CUSTOMER_ID', countryCode: '', ...(td.customer ?? {}) },
      moreCustomers: (td.moreCustomers ?? []).map((c: Partial<CustomerData>) => ({ userIdType: 'CUSTOMER_ID', countryCode: '', ...c })),
      revocation: { institutionId: td.revocation?.institutionId ?? td.institutionId, ...(td.revocation ?? {}) },
    },
    allow: {
      moneyMovement: r.allow?.moneyMovement ?? false,
      contactUpdate: r.allow?.contactUpdate ?? false,
      tokenRevocation: r.allow?.tokenRevocation ?? false,
      institutionDisclosureWrites: r.allow?.institutionDisclosureWrites ?? false,
    },
    http: {
      timeoutMs: http.timeoutMs ?? 10_000,
      concurrency: http.concurrency ?? 8,
      rateLimitPerSecond: http.rateLimitPerSecond ?? 0,
      maxBodyBytes: http.maxBodyBytes ?? 1_048_576,
      retries: http.retries ?? 1,
      proxyUrl: http.proxyUrl,
      allowInsecureHttp: http.allowInsecureHttp ?? false,
      tls: { rejectUnauthorized: true, ...(http.tls ?? {}) },
    },
  };
  for (const key of ['baseUrl', 'authBaseUrl', 'transfersBaseUrl'] as const) {
    const u = new URL(cfg[key]);
    if (u.protocol === 'http:' && !isLoopback(cfg[key]) && !cfg.http.allowInsecureHttp) {
      throw new ConfigError(`"${key}" is plain http:// to a non-loopback host (${u.host}); use https://, or set http.allowInsecureHttp to true if this is really intended`);
    }
    if (u.search || u.hash) throw new ConfigError(`"${key}" must not carry a query or fragment`);
  }
  for (const f of ['caFile', 'certFile', 'keyFile'] as const) {
    const p = cfg.http.tls[f];
    if (p) {
      try {
        readFileSync(p);
      } catch {
        throw new ConfigError(`"http.tls.${f}" names a file that cannot be read: ${p}`);
      }
    }
  }
  if (!!cfg.http.tls.certFile !== !!cfg.http.tls.keyFile) throw new ConfigError('"http.tls.certFile" and "http.tls.keyFile" go together for mutual TLS: set both or neither');
  return cfg;
}

/** What a person must be told before the run starts (printed on stderr, even with --quiet). */
export function configWarnings(cfg: TargetConfig): string[] {
  const out: string[] = [];
  if (!cfg.http.tls.rejectUnauthorized) out.push('TLS certificate verification is OFF for this target (http.tls.rejectUnauthorized = false): answers may come from anyone');
  for (const key of ['baseUrl', 'authBaseUrl', 'transfersBaseUrl'] as const) {
    if (new URL(cfg[key]).protocol === 'http:' && !isLoopback(cfg[key])) out.push(`"${key}" is plain http:// to a non-loopback host (allowed by http.allowInsecureHttp): credentials travel unencrypted`);
  }
  return out;
}

/** What each area needs before it can run; a missing item is a configuration error naming the key. */
const AREA_NEEDS: Record<Area, Array<[path: string, env?: string]>> = {
  disclosures: [
    ['credentials.bearerToken', 'DBSI_BEARER_TOKEN'],
    ['testData.institutionId'],
    ['testData.institutionUserId'],
    ['testData.accountId'],
  ],
  authentication: [
    ['credentials.revocationClientId', 'DBSI_REVOCATION_CLIENT_ID'],
    ['credentials.revocationClientSecret', 'DBSI_REVOCATION_CLIENT_SECRET'],
    ['testData.revocation.institutionId'],
  ],
  'money-movement': [
    ['credentials.transfersToken', 'DBSI_TRANSFERS_TOKEN'],
    ['testData.transfer.fromAccountId'],
    ['testData.transfer.toAccountId'],
  ],
  'contact-info': [
    ['testData.customer.customerId'],
    ['testData.customer.phoneNumber'],
  ],
};

function getPath(obj: unknown, path: string): unknown {
  return path.split('.').reduce<any>((o, k) => (o == null ? undefined : o[k]), obj);
}

export function checkAreaNeeds(cfg: TargetConfig, areas: readonly Area[]): void {
  const missing: string[] = [];
  for (const area of areas) {
    for (const [path, env] of AREA_NEEDS[area]) {
      const v = getPath(cfg, path);
      if (v === undefined || v === '') missing.push(`"${path}"${env ? ` (or environment variable ${env})` : ''}, needed by area ${area}`);
    }
  }
  if (contactInfoAuthMissing(cfg, areas)) missing.push('"credentials.contactInfoHeaders" or "credentials.bearerToken" (or DBSI_CONTACT_INFO_HEADERS / DBSI_BEARER_TOKEN), needed by area contact-info');
  if (missing.length) throw new ConfigError(`missing configuration: ${missing.join('; ')}`);
}

function contactInfoAuthMissing(cfg: TargetConfig, areas: readonly Area[]): boolean {
  return areas.includes('contact-info') && !cfg.credentials.contactInfoHeaders && !cfg.credentials.bearerToken;
}

/** The headers the contact-info operation sends for authentication (not shown in the spec). */
export function contactInfoAuthHeaders(cfg: TargetConfig): Record<string, string> {
  return cfg.credentials.contactInfoHeaders ?? (cfg.credentials.bearerToken ? { Authorization: `Bearer ${cfg.credentials.bearerToken}` } : {});
}

/** Every secret value in the configuration: what redaction hides and what the leak scans look for. */
export function secretValues(cfg: TargetConfig): string[] {
  const c = cfg.credentials;
  const out = [c.bearerToken, c.transfersToken, c.transfersForbiddenToken, c.revocationClientSecret, cfg.testData.revocation.password, cfg.testData.revocation.refresh_token];
  if (c.revocationClientId && c.revocationClientSecret) out.push(Buffer.from(`${c.revocationClientId}:${c.revocationClientSecret}`).toString('base64'));
  for (const v of Object.values(c.contactInfoHeaders ?? {})) out.push(v, v.replace(/^(Bearer|Basic)\s+/i, ''));
  return [...new Set(out.filter((s): s is string => typeof s === 'string' && s.length >= 4))];
}

export function loadConfigFile(path: string, env: NodeJS.ProcessEnv = process.env): TargetConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new ConfigError(`cannot read the configuration file ${path}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`the configuration file ${path} is not valid JSON: ${(e as Error).message}`);
  }
  return resolveConfig(raw, env);
}
