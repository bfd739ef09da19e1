import type { BaseUrlKey } from '../operations';
import type { JsonObject } from './dialect';

/**
 * Other renderings of the document of `buildOpenApiDocument`, for tools that cannot read it as it is.
 * Each says the same as the document or, where a format cannot, says what it loses (in the document
 * itself and in `npm run openapi -- --help`); none claims more than the spec says.
 */

export class RenderingError extends Error {
  override name = 'RenderingError';
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const BASE_KEYS: BaseUrlKey[] = ['baseUrl', 'authBaseUrl', 'transfersBaseUrl'];

const clone = <T>(x: T): T => structuredClone(x);

function operations(doc: JsonObject): [string, string, JsonObject][] {
  return Object.entries(doc.paths as Record<string, JsonObject>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([m]) => METHODS.includes(m))
      .map(([m, op]) => [path, m, op as JsonObject] as [string, string, JsonObject]),
  );
}

function appendDescription(doc: JsonObject, text: string): void {
  const info = doc.info as JsonObject;
  info.description = `${String(info.description ?? '')}\n\n${text}`.trim();
}

// ---------------------------------------------------------------------------------------------
// Explicit success codes

/** The codes a `2XX` key stands for: every one of 200 to 299, so that none is claimed or excluded. */
export const SUCCESS_CODES = Array.from({ length: 100 }, (_, i) => String(200 + i));

/**
 * Every `2XX` response written out as the codes 200 to 299, each with the same response object: the
 * same meaning for a tool that reads only explicit codes (Portman makes no test for a range, Step CI
 * checks the status `.nan`). The operation says so in `x-success-codes-not-shown`.
 */
export function withExplicitSuccessCodes(source: JsonObject): JsonObject {
  const doc = clone(source);
  for (const [, , op] of operations(doc)) {
    const responses = op.responses as Record<string, JsonObject>;
    if (!('2XX' in responses)) continue;
    const written: Record<string, JsonObject> = {};
    for (const [key, r] of Object.entries(responses)) {
      if (key === '2XX') for (const code of SUCCESS_CODES) written[code] = clone(r);
      else written[key] = r;
    }
    op.responses = written;
    op['x-success-codes-not-shown'] = 'The spec shows no success code: 2XX, written out as 200 to 299 (any 2xx).';
  }
  appendDescription(
    doc,
    'Rendered with --explicit-success-codes: each 2XX response (the success code is not shown) is written out as ' +
      'the codes 200 to 299, each with the same response; any 2xx is as valid as in the 2XX document.',
  );
  return doc;
}

// ---------------------------------------------------------------------------------------------
// One target's base URLs

/** The three base URLs of a target configuration (config/example.target.json). */
export type TargetBaseUrls = Record<BaseUrlKey, string>;

/** The path parameters a target configuration has test data for, and where (config/example.target.json). */
const PATH_EXAMPLES: Record<string, string[]> = {
  customerId: ['testData', 'customer', 'customerId'],
  institutionDisclosureId: ['testData', 'disclosure', 'institutionDisclosureId'],
};

/** A configuration's test data for the path parameters (a tool such as Dredd needs one value for each). */
export function pathExamples(config: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, at] of Object.entries(PATH_EXAMPLES)) {
    const v = at.reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as JsonObject)[k] : undefined), config);
    if (typeof v === 'string' && v !== '') out[name] = v;
  }
  return out;
}

/** The three base URLs of a configuration file's JSON, or why they cannot be used. */
export function targetBaseUrls(config: unknown, file: string): TargetBaseUrls {
  const c = (config && typeof config === 'object' ? config : {}) as Record<string, unknown>;
  const out = {} as TargetBaseUrls;
  for (const key of BASE_KEYS) {
    const v = c[key];
    if (typeof v !== 'string') throw new RenderingError(`${file}: ${key} is missing (a URL is needed)`);
    let u: URL;
    try {
      u = new URL(v);
    } catch {
      throw new RenderingError(`${file}: ${key} is not a URL`);
    }
    if (!/^https?:$/.test(u.protocol)) throw new RenderingError(`${file}: ${key} is not an http(s) URL`);
    if (u.search || u.hash || u.username || u.password) {
      throw new RenderingError(`${file}: ${key} has a query, a fragment or credentials; a base URL has none`);
    }
    if (/[{}]/.test(decodeURIComponent(u.pathname))) throw new RenderingError(`${file}: ${key} has { or } in its path`);
    out[key] = u.href.replace(/\/+$/, '');
  }
  return out;
}

/** What a configuration declares the target does differently from the spec (harness/run/deviations.ts). */
export interface TargetDeclarations {
  /** paths: an operation (its key) served at another path, with the same {parameters}. */
  paths?: Record<string, string>;
  /** The contact-info operation under a base URL of its own (other than baseUrl). */
  contactInfoBaseUrl?: string;
}

/** A configuration's declared paths and contactInfoBaseUrl, or why they cannot be used. */
export function targetDeclarations(config: unknown, file: string): TargetDeclarations {
  const c = (config && typeof config === 'object' ? config : {}) as Record<string, unknown>;
  const out: TargetDeclarations = {};
  if (c.paths !== undefined) {
    const paths = c.paths as Record<string, unknown>;
    if (typeof paths !== 'object' || paths === null) throw new RenderingError(`${file}: paths is not an object`);
    for (const [key, p] of Object.entries(paths)) {
      if (typeof p !== 'string' || !p.startsWith('/')) throw new RenderingError(`${file}: paths.${key} is not a path`);
    }
    if (Object.keys(paths).length) out.paths = paths as Record<string, string>;
  }
  if (c.contactInfoBaseUrl !== undefined) {
    let own: string;
    try {
      own = targetBaseUrls({ ...c, baseUrl: c.contactInfoBaseUrl }, file).baseUrl;
    } catch (e) {
      throw new RenderingError((e as Error).message.replace(/\bbaseUrl\b/, 'contactInfoBaseUrl'));
    }
    if (own !== targetBaseUrls(c, file).baseUrl) out.contactInfoBaseUrl = own;
  }
  return out;
}

/**
 * The document for one target: a single server (the origin the three base URLs share) and every path
 * preceded by its own base URL's path (`/identity/oauth2/v1/revoke`), so that a tool that reads only the
 * first server (Step CI, Dredd, a Prism proxy) sends each operation to its base URL. `x-spec-path` and
 * `x-base-url` keep the spec's path and the base URL key of each operation. Refused when the three base
 * URLs do not share one origin: no single server holds them. Each path parameter gets an `example` (Dredd
 * needs one): the configuration's test data where it has a value, else a placeholder, said in
 * `x-example-source`.
 */
export function forTarget(
  source: JsonObject,
  urls: TargetBaseUrls,
  file: string,
  examples: Record<string, string> = {},
  declared: TargetDeclarations = {},
): JsonObject {
  const { origins, prefix } = sharedOrigin(urls, file);
  const doc = clone(source);
  const paths: Record<string, JsonObject> = {};
  for (const [path, method, op] of operations(doc)) {
    const base = baseOf(path, method, op);
    delete op.servers;
    withPathExamples(op, file, examples);
    op['x-spec-path'] = path;
    op['x-base-url'] = base;
    const full = withDeviations(op, path, base, { urls, file, declared, origins, prefix });
    const item = (paths[full] ??= {});
    if (item[method]) throw new RenderingError(`${file}: two operations at ${method.toUpperCase()} ${full}`);
    item[method] = op;
  }
  doc.paths = paths;
  const [origin] = origins;
  doc.servers = [
    {
      url: origin,
      description: `The origin of the base URLs of ${file}: ${BASE_KEYS.map((k) => `${k} ${urls[k]}`).join(', ')}.`,
    },
  ];
  appendDescription(doc, targetDescription(file, prefix, origin!, declared));
  return doc;
}

/** The one origin the three base URLs share (else refused), and the path of each base URL. */
function sharedOrigin(urls: TargetBaseUrls, file: string): { origins: Set<string>; prefix: Record<string, string> } {
  const parsed = BASE_KEYS.map((k) => [k, new URL(urls[k])] as const);
  const origins = new Set(parsed.map(([, u]) => u.origin));
  if (origins.size !== 1) {
    throw new RenderingError(
      `${file}: the three base URLs do not share one origin ` +
        `(${parsed.map(([k, u]) => `${k} ${u.origin}`).join(', ')}), ` +
        'so no single server holds them; use the document without --config (each operation names its base URL)',
    );
  }
  return { origins, prefix: Object.fromEntries(parsed.map(([k, u]) => [k, u.pathname.replace(/\/+$/, '')])) };
}

/** The base URL key an operation's server names (none: baseUrl). */
function baseOf(path: string, method: string, op: JsonObject): BaseUrlKey {
  const servers = op.servers as { url: string }[] | undefined;
  const base = (servers ? /^\{(\w+)\}$/.exec(servers[0]!.url)?.[1] : 'baseUrl') as BaseUrlKey | undefined;
  if (!base || !BASE_KEYS.includes(base)) {
    throw new RenderingError(`${method.toUpperCase()} ${path}: its server names no base URL key`);
  }
  return base;
}

/** Each path parameter gets an example: the configuration's test data, else a placeholder. */
function withPathExamples(op: JsonObject, file: string, examples: Record<string, string>): void {
  for (const p of (op.parameters as JsonObject[] | undefined) ?? []) {
    if (p.in !== 'path') continue;
    const name = String(p.name);
    p.example = examples[name] ?? `example-${name}`;
    p['x-example-source'] =
      name in examples
        ? `the test data of ${file} (${PATH_EXAMPLES[name]!.join('.')})`
        : `none: ${file} holds no ${name}, so this is a placeholder (an unknown record)`;
  }
}

/**
 * Declared deviations (the configuration's paths and contactInfoBaseUrl): the operation is rendered where the
 * target serves it, each named in x-declared-deviations. Returns the full path it is rendered at.
 */
function withDeviations(
  op: JsonObject,
  path: string,
  base: BaseUrlKey,
  t: {
    urls: TargetBaseUrls;
    file: string;
    declared: TargetDeclarations;
    origins: Set<string>;
    prefix: Record<string, string>;
  },
): string {
  const key = String(op.operationId);
  const deviations: string[] = [];
  const used = t.declared.paths?.[key] ?? path;
  if (used !== path) deviations.push(`paths.${key}: served at ${used} instead of the spec's ${path}`);
  let at = t.prefix[base];
  const own = key === 'updateContactInfo' ? t.declared.contactInfoBaseUrl : undefined;
  if (own) {
    const u = new URL(own);
    deviations.push(`contactInfoBaseUrl: served under ${own} instead of baseUrl ${t.urls[base]}`);
    op['x-base-url'] = 'contactInfoBaseUrl';
    at = u.pathname.replace(/\/+$/, '');
    // Another origin than the one server: the operation names its own.
    if (!t.origins.has(u.origin)) {
      op.servers = [{ url: u.origin, description: `contactInfoBaseUrl of ${t.file}: ${own}` }];
    }
  }
  if (deviations.length) op['x-declared-deviations'] = deviations;
  return at + used;
}

function targetDescription(
  file: string,
  prefix: Record<string, string>,
  origin: string,
  declared: TargetDeclarations,
): string {
  return (
    `Rendered with --config for one target: every path is preceded by the path of its own base URL ` +
    `(${BASE_KEYS.map((k) => `${k}: ${prefix[k] || '(none)'}`).join(', ')}), under the one server ${origin}; ` +
    '`x-spec-path` is the path as the spec writes it and `x-base-url` the base URL it is appended to.' +
    (Object.keys(declared.paths ?? {}).length || declared.contactInfoBaseUrl
      ? ` Declared deviations of ${file} (the configuration says the target differs from the spec): ` +
        [
          ...Object.entries(declared.paths ?? {}).map(([k, p]) => `paths.${k} ${p}`),
          ...(declared.contactInfoBaseUrl ? [`contactInfoBaseUrl ${declared.contactInfoBaseUrl}`] : []),
        ].join(', ') +
        '; each such operation is rendered where the target serves it, named in `x-declared-deviations`.'
      : '')
  );
}

// ---------------------------------------------------------------------------------------------
// OpenAPI 3.0.3

/** What the 3.0 rendering loses, said in the document and by --help. */
export const OPENAPI_30_LOSSES = [
  "the Schema Objects are OpenAPI 3.0's subset of JSON Schema instead of JSON Schema 2020-12",
  'a list of `examples` (the values a spec shows of an open enumeration) becomes one `example`, the first value ' +
    'shown; the others are in `x-examples` and in the description',
  'a `$ref` with sibling keywords becomes `allOf: [{$ref}]` with the siblings (3.0 ignores siblings of a `$ref`)',
  '`info.summary` becomes the start of `info.description`',
];

const SCHEMA_CHILD = ['items', 'not', 'additionalProperties'];
const SCHEMA_LIST = ['allOf', 'anyOf', 'oneOf'];
/** 2020-12 keywords OpenAPI 3.0 has no counterpart for: the rendering refuses rather than drop a constraint. */
const NOT_IN_30 = [
  '$defs',
  'const',
  'prefixItems',
  'contains',
  'dependentRequired',
  'dependentSchemas',
  'if',
  'then',
  'else',
  'propertyNames',
  'patternProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  '$anchor',
  '$dynamicRef',
  'minContains',
  'maxContains',
];

function schema30(node: unknown, at: string): unknown {
  if (typeof node === 'boolean') {
    if (node) return {};
    throw new RenderingError(`${at}: the schema false has no OpenAPI 3.0 form`);
  }
  const s = { ...(node as JsonObject) };
  for (const k of NOT_IN_30) if (k in s) throw new RenderingError(`${at}: ${k} has no OpenAPI 3.0 form`);
  if (Array.isArray(s.type)) {
    const types = (s.type as string[]).filter((t) => t !== 'null');
    if (types.length !== 1) throw new RenderingError(`${at}: type ${JSON.stringify(s.type)} has no OpenAPI 3.0 form`);
    if ((s.type as string[]).includes('null')) s.nullable = true;
    s.type = types[0];
  }
  for (const k of ['exclusiveMinimum', 'exclusiveMaximum'] as const) {
    if (typeof s[k] === 'number') {
      s[k === 'exclusiveMinimum' ? 'minimum' : 'maximum'] = s[k];
      s[k] = true;
    }
  }
  if (Array.isArray(s.examples)) {
    const values = s.examples as unknown[];
    delete s.examples;
    if (values.length) s.example = values[0];
    if (values.length > 1) s['x-examples'] = values;
  }
  for (const k of SCHEMA_CHILD) if (k in s) s[k] = schema30(s[k], `${at}/${k}`);
  for (const k of SCHEMA_LIST) if (k in s) s[k] = (s[k] as unknown[]).map((x, i) => schema30(x, `${at}/${k}/${i}`));
  if (s.properties) {
    s.properties = Object.fromEntries(
      Object.entries(s.properties as JsonObject).map(([n, x]) => [n, schema30(x, `${at}/properties/${n}`)]),
    );
  }
  if (typeof s.$ref === 'string' && Object.keys(s).length > 1) {
    const { $ref, ...siblings } = s;
    return { ...siblings, allOf: [{ $ref }, ...((siblings.allOf as unknown[] | undefined) ?? [])] };
  }
  return s;
}

function content30(content: unknown, at: string): void {
  for (const [media, m] of Object.entries((content as Record<string, JsonObject> | undefined) ?? {})) {
    if (m.schema) m.schema = schema30(m.schema, `${at}/content/${media}/schema`);
  }
}

/**
 * The document as OpenAPI 3.0.3 (for Dredd, which reads no 3.1): the same operations, parameters,
 * responses and servers; every Schema Object in 3.0's form. A keyword 3.0 cannot say is refused (none
 * of the suite's schemas uses one); what is said differently is listed in `OPENAPI_30_LOSSES`.
 */
export function toOpenApi30(source: JsonObject): JsonObject {
  const doc = clone(source);
  doc.openapi = '3.0.3';
  const info = doc.info as JsonObject;
  if (info.summary) {
    info.description = `${String(info.summary)}\n\n${String(info.description ?? '')}`.trim();
    delete info.summary;
  }
  const components = doc.components as { schemas?: Record<string, unknown> };
  for (const [n, s] of Object.entries(components.schemas ?? {})) {
    components.schemas![n] = schema30(s, `#/components/schemas/${n}`);
  }
  for (const [path, method, op] of operations(doc)) {
    const at = `#/paths/${path}/${method}`;
    for (const [i, p] of ((op.parameters as JsonObject[] | undefined) ?? []).entries()) {
      if (p.schema) p.schema = schema30(p.schema, `${at}/parameters/${i}/schema`);
    }
    if (op.requestBody) content30((op.requestBody as JsonObject).content, `${at}/requestBody`);
    for (const [code, r] of Object.entries(op.responses as Record<string, JsonObject>)) {
      content30(r.content, `${at}/responses/${code}`);
    }
  }
  const losses = OPENAPI_30_LOSSES.join('; ');
  appendDescription(doc, `Rendered as OpenAPI 3.0.3 (--openapi 3.0). What it says differently: ${losses}.`);
  return doc;
}
