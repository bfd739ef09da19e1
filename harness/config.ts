import type { ErrorObject, ValidateFunction } from 'ajv';
import { configValidator } from './config-validator';
import { placeholderKeys, placeholderMessage } from './config-placeholders';
import { ConfigError, type CustomerData, isLoopback, SECRET_ENV, type TargetConfig, URL_KEYS } from './config-model';
import { checkSecrets } from './config-secrets';
import { jsonSyntaxError } from './json-syntax';
import { LocalFileError, MAX_INPUT_FILE_BYTES, readRegularFile, userCwd } from './local-files';
import { checkTlsFiles } from './tls-files';
import { OPERATIONS, type OperationKey } from './operations';

/*
 * Reading a configuration: parse, validate, complete, check (this file); its shape and base URLs are
 * config-model.ts, its secrets config-secrets.ts, what each area needs and the warnings config-needs.ts.
 */

export { areaSends } from './area-switches';
export { ConfigError, SECRET_ENV, baseKeyOf, baseUrlOf, isLoopback } from './config-model';
export type { CustomerData, TargetConfig } from './config-model';
export { bodySecrets, contactInfoAuthHeaders, namedSecrets, scannedSecrets, secretValues } from './config-secrets';
export { checkAreaNeeds, configWarnings } from './config-needs';

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

/** Parse, validate and complete a configuration. Throws ConfigError with one clear message. */
export function resolveConfig(raw: unknown, env: NodeJS.ProcessEnv = process.env): TargetConfig {
  const r = validated(raw, env);
  const cfg = completed(r);
  checkBaseUrls(cfg);
  checkTls(cfg);
  checkSecrets(cfg, env);
  return cfg;
}

/** The configuration with its secrets from the environment, valid against its schema, without placeholders. */
function validated(raw: unknown, env: NodeJS.ProcessEnv): Record<string, any> {
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
  return r;
}

/** A valid configuration with every default filled in. */
function completed(r: Record<string, any>): TargetConfig {
  return {
    name: r.name ?? new URL(r.baseUrl).host,
    baseUrl: r.baseUrl.replace(/\/+$/, ''),
    authBaseUrl: r.authBaseUrl.replace(/\/+$/, ''),
    transfersBaseUrl: r.transfersBaseUrl.replace(/\/+$/, ''),
    ...(r.contactInfoBaseUrl === undefined ? {} : { contactInfoBaseUrl: r.contactInfoBaseUrl.replace(/\/+$/, '') }),
    ...(r.paths && Object.keys(r.paths).length ? { paths: checkPaths(r.paths) } : {}),
    callingAppId: r.callingAppId ?? 'dbsi-conformance',
    credentials: { ...(r.credentials ?? {}) },
    testData: completedTestData(r.testData ?? {}),
    allow: {
      moneyMovement: r.allow?.moneyMovement ?? false,
      contactUpdate: r.allow?.contactUpdate ?? false,
      tokenRevocation: r.allow?.tokenRevocation ?? false,
      institutionDisclosureWrites: r.allow?.institutionDisclosureWrites ?? false,
    },
    ...(r.budgets ? { budgets: { ...r.budgets } } : {}),
    http: completedHttp(r.http ?? {}),
  };
}

function completedTestData(td: Record<string, any>): TargetConfig['testData'] {
  return {
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
  };
}

function completedHttp(http: Record<string, any>): TargetConfig['http'] {
  return {
    timeoutMs: http.timeoutMs ?? 10_000,
    concurrency: http.concurrency ?? 8,
    rateLimitPerSecond: http.rateLimitPerSecond ?? 0,
    maxBodyBytes: http.maxBodyBytes ?? 1_048_576,
    retries: http.retries ?? 1,
    proxyUrl: http.proxyUrl,
    allowInsecureHttp: http.allowInsecureHttp ?? false,
    tls: { rejectUnauthorized: true, ...(http.tls ?? {}) },
  };
}

/** Plain http:// only to a loopback host (unless allowed), and no base URL with a query or fragment. */
function checkBaseUrls(cfg: TargetConfig): void {
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
}

/** Mutual TLS takes both files or neither, and every TLS file is readable. */
function checkTls(cfg: TargetConfig): void {
  if (!!cfg.http.tls.certFile !== !!cfg.http.tls.keyFile)
    throw new ConfigError(
      '"http.tls.certFile" and "http.tls.keyFile" go together ' + 'for mutual TLS: set both or neither',
    );
  try {
    checkTlsFiles(cfg.http.tls);
  } catch (e) {
    throw e instanceof LocalFileError ? new ConfigError(e.message) : e;
  }
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
