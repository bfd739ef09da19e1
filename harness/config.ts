import { nearVariantValues } from './credential-variants';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { configValidator } from './config-validator';
import { placeholderKeys, placeholderMessage } from './config-placeholders';
import { jsonSyntaxError } from './json-syntax';
import { LocalFileError, MAX_INPUT_FILE_BYTES, readRegularFile, userCwd } from './local-files';
import type { Area, SafetySwitch } from './model';
import { HEADER_NAME, headerValueProblem, secretProblem, type NamedSecret } from './secrets';
import { checkTlsFiles } from './tls-files';
import { OPERATIONS, type OperationKey } from './operations';
import { areaSends, withoutHint } from './area-switches';

export { areaSends } from './area-switches';

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

let validator: ValidateFunction | undefined;
function validate(raw: unknown): ErrorObject[] {
  validator ??= configValidator();
  return validator(raw) ? [] : (validator.errors ?? []);
}

/** The edit distance of two texts (optimal string alignment: a swap of two neighbours is one edit). */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The allowed key an unknown one was probably meant to be: the same but for case, "_", "-" or spaces
 * (phonenumber, phone_number for phoneNumber), else the nearest within a small edit distance (1 for keys of
 * up to 4 characters, 2 up to 11, then 3); none when two are equally near.
 */
export function suggestKey(unknown: string, allowed: readonly string[]): string | undefined {
  const norm = (k: string) => k.toLowerCase().replace(/[-_\s]/g, '');
  const same = allowed.find((k) => norm(k) === norm(unknown));
  if (same !== undefined) return same;
  const limit = unknown.length <= 4 ? 1 : unknown.length <= 11 ? 2 : 3;
  const near = allowed.map((k) => ({ k, d: editDistance(norm(unknown), norm(k)) })).filter((x) => x.d <= limit);
  const best = Math.min(...near.map((x) => x.d));
  const at = near.filter((x) => x.d === best);
  return at.length === 1 ? at[0]!.k : undefined;
}

function describeError(e: ErrorObject): string {
  const key = (e.instancePath || '').replace(/^\//, '').replace(/\//g, '.') || '(top level)';
  switch (e.keyword) {
    case 'additionalProperties': {
      const at = key === '(top level)' ? '' : key + '.';
      const unknown = (e.params as { additionalProperty: string }).additionalProperty;
      const allowed = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const meant = suggestKey(unknown, allowed);
      const hint = meant === undefined ? '' : ` (did you mean "${at}${meant}"?)`;
      return `unknown key "${at}${unknown}"${hint}: not part of the configuration (see schemas/config.schema.json)`;
    }
    case 'required':
      const missing = (e.params as { missingProperty: string }).missingProperty;
      return `missing key "${key === '(top level)' ? '' : key + '.'}${missing}"`;
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
        throw new ConfigError(
          `environment variable ${name} must be a JSON object of header names ` +
            `to values, e.g. {"Authorization":"Bearer …"}`,
        );
      }
      setPath(raw, path, parsed);
    } else setPath(raw, path, v);
  }
}

/** Only a literal loopback address counts: 127.0.0.0/8, ::1, or the name localhost (never a DNS name that resolves
 * there). */
export function isLoopback(url: string): boolean {
  const h = new URL(url).hostname;
  return h === 'localhost' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** The URL keys of a configuration. */
const URL_KEYS = ['baseUrl', 'authBaseUrl', 'transfersBaseUrl', 'contactInfoBaseUrl'] as const;

/** A URL that parses, with a port in range; named by its key when it does not. */
function parseUrlOf(key: string, value: string): URL {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    const port = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(?:\[[^\]]*\]|[^:/?#]*):(\d+)/i.exec(value)?.[1];
    throw new ConfigError(
      port !== undefined && Number(port) > 65535
        ? `"${key}" has the port ${port}, outside 1–65535`
        : `"${key}" is not a valid URL`,
    );
  }
  if (u.port === '0') throw new ConfigError(`"${key}" has the port 0, outside 1–65535`);
  return u;
}

/** The deepest nesting a configuration has (testData.moreCustomers[].postalAddress.x is 4). */
export const MAX_CONFIG_DEPTH = 16;

/** A configuration nested deeper than MAX_CONFIG_DEPTH is refused, naming where (checked without recursion). */
function checkDepth(raw: unknown): void {
  const stack: Array<{ v: unknown; path: string; depth: number }> = [{ v: raw, path: '', depth: 0 }];
  for (let n = 0; stack.length && n < 1_000_000; n++) {
    const { v, path, depth } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_CONFIG_DEPTH)
      throw new ConfigError(
        `"${path.slice(0, 120)}${path.length > 120 ? '…' : ''}" is nested deeper ` +
          `than ${MAX_CONFIG_DEPTH} levels: no configuration key is`,
      );
    for (const [k, x] of Object.entries(v)) stack.push({ v: x, path: path ? `${path}.${k}` : k, depth: depth + 1 });
  }
}

/** Path overrides keep the documented operation's {parameters}, exactly (a case fills them in). */
function checkPaths(paths: Record<string, string>): Partial<Record<OperationKey, string>> {
  const names = (t: string) =>
    [...t.matchAll(/\{([^}]*)\}/g)]
      .map((m) => m[1])
      .sort()
      .join(', ');
  for (const [key, path] of Object.entries(paths)) {
    const documented = OPERATIONS[key as OperationKey].path;
    if (names(path) !== names(documented)) {
      const want = names(documented) ? `{${names(documented).split(', ').join('}, {')}}` : 'no parameter';
      throw new ConfigError(`"paths.${key}" must carry the parameters of ${documented}: ${want}`);
    }
  }
  return paths as Partial<Record<OperationKey, string>>;
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

/** Parse, validate and complete a configuration. Throws ConfigError with one clear message. */
export function resolveConfig(raw: unknown, env: NodeJS.ProcessEnv = process.env): TargetConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new ConfigError('the configuration must be a JSON object');
  checkDepth(raw);
  const obj = structuredClone(raw) as Record<string, unknown>;
  applySecretEnv(obj, env);
  const errors = validate(obj);
  if (errors.length) {
    const lines = [...new Set(errors.filter((e) => e.keyword !== 'if').map(describeError))];
    throw new ConfigError(`invalid configuration: ${lines.join('; ')}`);
  }
  const r = obj as Record<string, any>;
  const placeholders = placeholderKeys(r);
  if (placeholders.length) throw new ConfigError(placeholderMessage(placeholders));
  checkUrls(r);
  const td = r.testData ?? {};
  const http = r.http ?? {};
  const cfg: TargetConfig = {
    name: r.name ?? new URL(r.baseUrl).host,
    baseUrl: r.baseUrl.replace(/\/+$/, ''),
    authBaseUrl: r.authBaseUrl.replace(/\/+$/, ''),
    transfersBaseUrl: r.transfersBaseUrl.replace(/\/+$/, ''),
    ...(r.contactInfoBaseUrl === undefined ? {} : { contactInfoBaseUrl: r.contactInfoBaseUrl.replace(/\/+$/, '') }),
    ...(r.paths && Object.keys(r.paths).length ? { paths: checkPaths(r.paths) } : {}),
    callingAppId: r.callingAppId ?? 'dbsi-conformance',
    credentials: { ...(r.credentials ?? {}) },
    testData: {
      institutionId: td.institutionId,
      institutionUserId: td.institutionUserId,
      institutionCustomerId: td.institutionCustomerId,
      otherInstitutionUserId: td.otherInstitutionUserId,
      accountType: td.accountType,
      accountId: td.accountId,
      disclosure: td.disclosure,
      transfer: { currencyCode: 'AED', amount: 0.01, ...(td.transfer ?? {}) },
      customer: { userIdType: 'CUSTOMER_ID', countryCode: '', ...(td.customer ?? {}) },
      moreCustomers: (td.moreCustomers ?? []).map((c: Partial<CustomerData>) => ({
        userIdType: 'CUSTOMER_ID',
        countryCode: '',
        ...c,
      })),
      revocation: { institutionId: td.revocation?.institutionId ?? td.institutionId, ...(td.revocation ?? {}) },
    },
    allow: {
      moneyMovement: r.allow?.moneyMovement ?? false,
      contactUpdate: r.allow?.contactUpdate ?? false,
      tokenRevocation: r.allow?.tokenRevocation ?? false,
      institutionDisclosureWrites: r.allow?.institutionDisclosureWrites ?? false,
    },
    ...(r.budgets ? { budgets: { ...r.budgets } } : {}),
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
  for (const key of URL_KEYS) {
    if (cfg[key] === undefined) continue;
    const u = new URL(cfg[key]);
    if (u.protocol === 'http:' && !isLoopback(cfg[key]) && !cfg.http.allowInsecureHttp) {
      throw new ConfigError(
        `"${key}" is plain http:// to a non-loopback host (${u.host}); use https://, or ` +
          `set http.allowInsecureHttp to true if this is really intended`,
      );
    }
    if (u.search || u.hash) throw new ConfigError(`"${key}" must not carry a query or fragment`);
  }
  if (!!cfg.http.tls.certFile !== !!cfg.http.tls.keyFile)
    throw new ConfigError(
      '"http.tls.certFile" and "http.tls.keyFile" go together ' + 'for mutual TLS: set both or neither',
    );
  try {
    checkTlsFiles(cfg.http.tls);
  } catch (e) {
    throw e instanceof LocalFileError ? new ConfigError(e.message) : e;
  }
  checkSecrets(cfg, env);
  return cfg;
}

/**
 * Every URL parses with its port in range, and none carries credentials (user:password@): they
 * would be written, as part of the URL, into every report, so the suite refuses them (the proxy
 * URL aside: it is never written anywhere, and its password is redacted like every secret).
 */
function checkUrls(r: Record<string, any>): void {
  for (const key of URL_KEYS) {
    if (r[key] === undefined) continue; // contactInfoBaseUrl is optional
    const u = parseUrlOf(key, r[key]);
    if (u.username || u.password)
      throw new ConfigError(
        `"${key}" carries credentials in the URL (user:password@host): refused, as a URL is written into ` +
          `every report; give credentials in the "credentials" keys or their environment variables`,
      );
  }
  if (typeof r.http?.proxyUrl === 'string') parseUrlOf('http.proxyUrl', r.http.proxyUrl);
}

/** Header values the suite sends from the configuration, by key (each must be a valid HTTP header value). */
function headerValuesOf(cfg: TargetConfig): Array<[string, string | undefined]> {
  return [
    ['callingAppId', cfg.callingAppId],
    ['testData.institutionId', cfg.testData.institutionId],
    ['testData.disclosure.institutionDisclosureId', cfg.testData.disclosure?.institutionDisclosureId],
    ['testData.disclosure.institutionDisclosureName', cfg.testData.disclosure?.institutionDisclosureName],
    ['credentials.revocationClientId', cfg.credentials.revocationClientId],
  ];
}

/** Every configured secret, named where it was set: the environment variable, else the configuration key. */
export function namedSecrets(cfg: TargetConfig, env: NodeJS.ProcessEnv = {}): NamedSecret[] {
  const fromEnv = (name: keyof typeof SECRET_ENV) => (env[name] ? name : `"${SECRET_ENV[name]}"`);
  const c = cfg.credentials;
  const out: Array<{ name: string; value: string | undefined }> = [
    { name: fromEnv('DBSI_BEARER_TOKEN'), value: c.bearerToken },
    { name: fromEnv('DBSI_TRANSFERS_TOKEN'), value: c.transfersToken },
    { name: fromEnv('DBSI_TRANSFERS_FORBIDDEN_TOKEN'), value: c.transfersForbiddenToken },
    { name: fromEnv('DBSI_REVOCATION_CLIENT_SECRET'), value: c.revocationClientSecret },
    { name: fromEnv('DBSI_REVOCATION_PASSWORD'), value: cfg.testData.revocation.password },
    { name: fromEnv('DBSI_REVOCATION_REFRESH_TOKEN'), value: cfg.testData.revocation.refresh_token },
  ];
  for (const [h, v] of Object.entries(c.contactInfoHeaders ?? {})) {
    const name = `${fromEnv('DBSI_CONTACT_INFO_HEADERS')} header ${JSON.stringify(h)}`;
    const credential = v.replace(/^(Bearer|Basic|Token|Digest)\s+/i, '');
    out.push({ name, value: credential });
  }
  if (cfg.http.proxyUrl) {
    const u = new URL(cfg.http.proxyUrl);
    if (u.password) out.push({ name: 'the password of "http.proxyUrl"', value: decodeURIComponent(u.password) });
  }
  return out.filter((s): s is NamedSecret => typeof s.value === 'string' && s.value !== '');
}

/**
 * The configured secrets a request body carries (the Token request body of revocation), by the environment
 * variable a curl line replays each from.
 */
export function bodySecrets(cfg: TargetConfig): Record<string, string> {
  const { password, refresh_token } = cfg.testData.revocation;
  return Object.fromEntries(
    Object.entries({ DBSI_REVOCATION_PASSWORD: password, DBSI_REVOCATION_REFRESH_TOKEN: refresh_token }).filter(
      (e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '',
    ),
  );
}

/**
 * Secrets and header values are checked as HTTP header values first (CR, LF, NUL, other controls,
 * characters outside Latin-1, surrounding white space), and secrets for their length: each problem
 * names the variable or key.
 */
function checkSecrets(cfg: TargetConfig, env: NodeJS.ProcessEnv): void {
  for (const [h, v] of Object.entries(cfg.credentials.contactInfoHeaders ?? {})) {
    const name =
      `${env.DBSI_CONTACT_INFO_HEADERS ? 'DBSI_CONTACT_INFO_HEADERS' : '"credentials.contactInfoHeaders"'} ` +
      `header ${JSON.stringify(h)}`;
    if (!HEADER_NAME.test(h)) throw new ConfigError(`${name} is not a valid HTTP header name`);
    const p = headerValueProblem(v);
    if (p) throw new ConfigError(`${name}: its value ${p}`);
  }
  for (const [key, v] of headerValuesOf(cfg)) {
    const p = v === undefined ? undefined : headerValueProblem(v);
    if (p) throw new ConfigError(`"${key}" ${p}`);
  }
  if (cfg.credentials.revocationClientId?.includes(':'))
    throw new ConfigError(
      `${env.DBSI_REVOCATION_CLIENT_ID ? 'DBSI_REVOCATION_CLIENT_ID' : '"credentials.revocationClientId"'} ` +
        `contains ":", which HTTP Basic authentication cannot carry in the shared key (RFC 7617)`,
    );
  for (const s of namedSecrets(cfg, env)) {
    const p = secretProblem(s.value);
    if (p) throw new ConfigError(`${s.name} ${p}`);
  }
  const { transfersToken, transfersForbiddenToken } = cfg.credentials;
  if (transfersForbiddenToken !== undefined && transfersForbiddenToken === transfersToken) {
    const named = (['DBSI_TRANSFERS_TOKEN', 'DBSI_TRANSFERS_FORBIDDEN_TOKEN'] as const).map((v) =>
      env[v] ? v : `"${SECRET_ENV[v]}"`,
    );
    throw new ConfigError(
      `${named.join(' and ')} are the same token: the token that lacks authorization ` +
        'must be a different one ("a valid token that lacks authorization" answers 403), or leave it unset',
    );
  }
}

/** What a person must be told before the run starts (printed on stderr, even with --quiet). */
export function configWarnings(cfg: TargetConfig): string[] {
  const out: string[] = [];
  for (const [key, path] of Object.entries(cfg.paths ?? {})) {
    const op = OPERATIONS[key as OperationKey];
    const what = `${op.number}. ${op.name}`;
    out.push(`declared deviation: paths.${key}: ${what} is sent to ${path} instead of the spec's ${op.path}`);
  }
  if (cfg.contactInfoBaseUrl !== undefined && cfg.contactInfoBaseUrl !== cfg.baseUrl)
    out.push(`declared deviation: contactInfoBaseUrl: 10. Update contact information is sent under its own base URL`);
  if (!cfg.http.tls.rejectUnauthorized)
    out.push(
      'TLS certificate verification is OFF for this target ' +
        '(http.tls.rejectUnauthorized = false): answers may come from anyone',
    );
  for (const key of URL_KEYS) {
    const url = cfg[key];
    if (url === undefined || (key === 'contactInfoBaseUrl' && url === cfg.baseUrl)) continue;
    if (new URL(url).protocol === 'http:' && !isLoopback(url)) {
      const why = 'allowed by http.allowInsecureHttp';
      out.push(`"${key}" is plain http:// to a non-loopback host (${why}): credentials travel unencrypted`);
    }
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
  'contact-info': [['testData.customer.customerId'], ['testData.customer.phoneNumber']],
};

function getPath(obj: unknown, path: string): unknown {
  return path.split('.').reduce<any>((o, k) => (o == null ? undefined : o[k]), obj);
}

/**
 * Every item a selected area needs is set, else a ConfigError names each missing one, and how to run without
 * that area. An area whose every operation is behind a switch that is off needs nothing. With `credentials: false`
 * (--dry-run, which sends nothing to the target) a missing credential is no error: the credentials missing are
 * returned, so that the plan can say a run needs them; every other need is still checked.
 */
export function checkAreaNeeds(cfg: TargetConfig, areas: readonly Area[], o: { credentials?: boolean } = {}): string[] {
  const missing: Array<{ item: string; credential: boolean; area: Area }> = [];
  const tested = areas.filter((a) => areaSends(cfg, a));
  for (const area of tested) {
    for (const [path, env] of AREA_NEEDS[area]) {
      const v = getPath(cfg, path);
      const item = `"${path}"${env ? ` (or environment variable ${env})` : ''}, needed by area ${area}`;
      if (v === undefined || v === '') missing.push({ item, credential: path.startsWith('credentials.'), area });
    }
  }
  if (contactInfoAuthMissing(cfg, tested)) {
    const item =
      '"credentials.contactInfoHeaders" or "credentials.bearerToken" (or DBSI_CONTACT_INFO_HEADERS / ' +
      'DBSI_BEARER_TOKEN), needed by area contact-info';
    missing.push({ item, credential: true, area: 'contact-info' });
  }
  const refused = missing.filter((m) => o.credentials !== false || !m.credential);
  if (refused.length) {
    const hint = withoutHint(cfg, areas, [...new Set(refused.map((m) => m.area))]);
    throw new ConfigError(`missing configuration: ${refused.map((m) => m.item).join('; ')}${hint}`);
  }
  return missing.map((m) => m.item);
}

function contactInfoAuthMissing(cfg: TargetConfig, areas: readonly Area[]): boolean {
  return areas.includes('contact-info') && !cfg.credentials.contactInfoHeaders && !cfg.credentials.bearerToken;
}

/** The headers the contact-info operation sends for authentication (not shown in the spec). */
export function contactInfoAuthHeaders(cfg: TargetConfig): Record<string, string> {
  return (
    cfg.credentials.contactInfoHeaders ??
    (cfg.credentials.bearerToken ? { Authorization: `Bearer ${cfg.credentials.bearerToken}` } : {})
  );
}

/** Every secret value in the configuration: what redaction hides and what the leak scans look for. */
export function secretValues(cfg: TargetConfig): string[] {
  return [...new Set(scannedSecrets(cfg).map((s) => s.value))];
}

/**
 * Every value redaction hides and the evidence scan looks for, named: the configured secrets, and
 * the values built from them (the Basic header of the revocation credentials, whole contact-info
 * header values, the proxy's Basic credentials).
 */
export function scannedSecrets(cfg: TargetConfig, env: NodeJS.ProcessEnv = {}): NamedSecret[] {
  const c = cfg.credentials;
  const out = namedSecrets(cfg, env);
  if (c.revocationClientId && c.revocationClientSecret)
    out.push({
      name: 'the Basic credentials of the revocation ' + 'client (id:secret, base64)',
      value: Buffer.from(`${c.revocationClientId}:${c.revocationClientSecret}`).toString('base64'),
    });
  for (const [h, v] of Object.entries(c.contactInfoHeaders ?? {}))
    out.push({ name: `the contact-info header ${JSON.stringify(h)}`, value: v });
  // The near variants the authentication cases send (harness/credential-variants.ts): each gives its secret away.
  for (const [name, secret] of [
    ['DBSI_BEARER_TOKEN', c.bearerToken],
    ['DBSI_TRANSFERS_TOKEN', c.transfersToken],
    ['DBSI_REVOCATION_CLIENT_SECRET', c.revocationClientSecret],
  ] as const)
    for (const value of secret ? nearVariantValues(secret) : [])
      out.push({ name: `a near variant of ${name} (one letter off)`, value });
  if (cfg.http.proxyUrl) {
    const u = new URL(cfg.http.proxyUrl);
    if (u.password)
      out.push({
        name: 'the Basic credentials of "http.proxyUrl"',
        value: Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64'),
      });
  }
  return out.filter((s) => s.value.length >= 4);
}

/**
 * Read and resolve a configuration file: a regular file of at most 1 MiB (a FIFO, a device or a
 * huge file is refused at once), JSON, then resolveConfig. `option` names where the path came from; a
 * relative path is taken from the folder the command was run from (INIT_CWD of `env`, see userCwd).
 */
export function loadConfigFile(path: string, env: NodeJS.ProcessEnv = process.env, option = '--config'): TargetConfig {
  let text: string;
  try {
    text = readRegularFile(path, option, MAX_INPUT_FILE_BYTES, userCwd(env)).toString('utf8');
    // A byte order mark, as some editors write one, is not an error.
    text = text.replace(/^\uFEFF/, '');
  } catch (e) {
    throw new ConfigError(
      e instanceof LocalFileError
        ? `cannot read the configuration file ` + `(${e.message})`
        : `cannot read the configuration file ${path}`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    const file = `the configuration file ${path} (${option})`;
    if (e instanceof RangeError) throw new ConfigError(`${file} is nested too deeply to read`);
    // Located by line and column, the same on every Node version, never quoting the text (it may hold a secret).
    const where = jsonSyntaxError(text)?.text ?? 'not accepted by JSON.parse';
    throw new ConfigError(`${file} is not valid JSON: ${where}`);
  }
  return resolveConfig(raw, env);
}
