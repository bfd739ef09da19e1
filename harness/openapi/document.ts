import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CATALOG, sectionAnchor, type Requirement } from '../../requirements';
import { OPERATIONS, type BaseUrlKey, type OperationDef, type OperationKey } from '../operations';
import {
  OPERATION_DOCUMENTATION,
  SECURITY_SCHEMES,
  type DocumentedParameter,
  type DocumentedResponse,
  type OperationDocumentation,
} from '../operations-documented';
import { SCHEMA_DIR } from '../schemas';
import { SPEC_FILE, specUrl as defaultSpecUrl } from '../spec-location';
import { toComponentSchema, type JsonObject } from './dialect';
import { sectionText, specSections } from './spec-sections';

/**
 * The interface as an OpenAPI 3.1 document, generated from what the suite itself uses: the schemas
 * under schemas/ (every one that carries `x-spec-section`, i.e. describes a shape of the spec),
 * the operations table (harness/operations.ts) with what the spec documents about each operation
 * (harness/operations-documented.ts), the catalog (requirements/) and the spec's own text.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const JSON_MEDIA = 'application/json';
/** OpenAPI ignores header parameters of these names: the document says them elsewhere. */
const HEADERS_DESCRIBED_ELSEWHERE: Record<string, string> = {
  authorization: 'the security requirement of the operation',
  'content-type': 'the media type of the request body',
  accept: 'the media types of the responses',
};

export interface DocumentOptions {
  /** Where the spec's sections are linked (DBSI_SPEC_URL, else the spec file of this checkout). */
  specUrl?: string;
}

interface LoadedSchema {
  name: string;
  id: string;
  schema: JsonObject;
}

function readJson(file: string): JsonObject {
  return JSON.parse(readFileSync(file, 'utf8')) as JsonObject;
}

/** The spec's shapes among schemas/: those that carry x-spec-section (not the suite's own config and summary). */
function specSchemas(): LoadedSchema[] {
  return readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith('.schema.json'))
    .sort()
    .map((f) => ({ name: f.replace(/\.schema\.json$/, ''), schema: readJson(SCHEMA_DIR + f) }))
    .filter((s) => typeof s.schema['x-spec-section'] === 'string')
    .map((s) => ({ ...s, id: String(s.schema.$id) }));
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Names of the schemas a translated schema refers to. */
function referencedNames(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => referencedNames(n, into));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') into.add(v.replace('#/components/schemas/', '').split('/')[0]!);
      else referencedNames(v, into);
    }
  }
  return into;
}

/** Where a component hoisted out of a schema's `$defs` was defined (schemas/<file>#/definitions/<name>). */
export const DEFINED_IN = 'x-defined-in';

/**
 * Every `$defs` entry of a component becomes a component of its own (`<schema>-<definition>`, e.g.
 * `schedule-date`), and every `$ref` into it (`#/components/schemas/schedule/$defs/date…`) points there:
 * Dredd refuses a `$ref` into a Schema Object's `$defs` and Step CI does not resolve one. The verdicts
 * are the same (a `$ref` is resolved against the document either way).
 */
function hoistDefinitions(schemas: Record<string, JsonObject>): void {
  const moved = new Map<string, string>();
  for (;;) {
    const [name, s] = Object.entries(schemas).find(([, x]) => x.$defs !== undefined) ?? [];
    if (!name || !s) break;
    const file = String(s[DEFINED_IN] ?? `schemas/${name}.schema.json#`).replace(/#.*$/, '');
    const at = String(s[DEFINED_IN] ?? '').replace(/^[^#]*#?/, '');
    for (const [def, sub] of Object.entries(s.$defs as JsonObject)) {
      const target = `${name}-${def}`;
      if (schemas[target]) {
        throw new Error(`${file}: definitions/${def} would be the component ${target}, which already exists`);
      }
      schemas[target] = {
        ...(sub as JsonObject),
        'x-spec-section': s['x-spec-section'],
        [DEFINED_IN]: `${file}#${at}/definitions/${def}`,
        description: [(sub as JsonObject).description, `Defined in ${file} as definitions/${def}.`]
          .filter(Boolean)
          .join(' '),
      };
      moved.set(`${name}/$defs/${def}`, target);
    }
    delete s.$defs;
  }
  if (!moved.size) return;
  const rewrite = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(rewrite);
    else if (node && typeof node === 'object') {
      const o = node as JsonObject;
      for (const [k, v] of Object.entries(o)) {
        if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) {
          let rest = decodeURIComponent(v.slice('#/components/schemas/'.length));
          for (let again = true; again; ) {
            again = false;
            for (const [from, to] of moved) {
              if (rest === from || rest.startsWith(from + '/')) {
                rest = to + rest.slice(from.length);
                again = true;
              }
            }
          }
          const escaped = rest.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/]/g, (c) => encodeURIComponent(c));
          o[k] = `#/components/schemas/${escaped}`;
        } else rewrite(v);
      }
    }
  };
  for (const s of Object.values(schemas)) rewrite(s);
}

function ids(rs: Requirement[]): string[] {
  return rs.map((r) => r.id);
}

/** The schemas an operation's documentation names directly. */
function schemasOf(doc: OperationDocumentation): string[] {
  return [doc.body?.schema, ...doc.responses.flatMap((r) => [r.schema, r.elements?.schema])].filter(
    (n): n is string => n !== undefined,
  );
}

function requiredNote(p: DocumentedParameter): string {
  if (p.in === 'path') return '';
  if (p.required === true) return ' Required (stated by the spec).';
  if (p.required === false) return ' Not required (stated by the spec).';
  return ' Whether it is required: not stated by the spec.';
}

function parameterObject(p: DocumentedParameter): JsonObject {
  const o: JsonObject = { name: p.name, in: p.in, description: p.description + requiredNote(p) };
  if (p.in === 'path') o.required = true;
  else if (p.required !== undefined) o.required = p.required;
  o.schema = p.schema ?? { type: 'string' };
  return o;
}

function responseObject(r: DocumentedResponse): JsonObject {
  const o: JsonObject = { description: r.description };
  if (r.schema) {
    const schema = r.elements
      ? {
          allOf: [
            ref(r.schema),
            { type: 'object', properties: { [r.elements.member]: { type: 'array', items: ref(r.elements.schema) } } },
          ],
        }
      : ref(r.schema);
    o.content = { [JSON_MEDIA]: { schema } };
  }
  return o;
}

function operationDescription(op: OperationDef, doc: OperationDocumentation, sections: Map<string, string>): string {
  const parts = [sectionText(sections, op.section)];
  if (doc.note) parts.push(doc.note);
  const elsewhere = doc.parameters.filter(
    (p) => p.in === 'header' && HEADERS_DESCRIBED_ELSEWHERE[p.name.toLowerCase()],
  );
  if (elsewhere.length) {
    parts.push(
      'Headers the spec documents that OpenAPI describes outside the parameters:\n' +
        elsewhere
          .map(
            (p) =>
              `- ${p.name} (in ${HEADERS_DESCRIBED_ELSEWHERE[p.name.toLowerCase()]}): ` +
              `${p.description}${requiredNote(p)}`,
          )
          .join('\n'),
    );
  }
  if (typeof doc.security === 'object') parts.push(`Authentication: ${doc.security.notShown}`);
  return parts.join('\n\n');
}

function serverFor(base: BaseUrlKey, example: JsonObject, configSchema: JsonObject): JsonObject {
  const described = ((configSchema.properties as JsonObject)[base] as JsonObject).description as string;
  return {
    url: `{${base}}`,
    description: `The ${base} of a target configuration: ${described}`,
    variables: {
      [base]: {
        default: String(example[base]),
        description: `${described} Default: the one of ` + `config/example.target.json.`,
      },
    },
  };
}

/** The statement names this path (not as the start of a longer one). */
function namesPath(statement: string, path: string): boolean {
  return new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![/\\w{])`).test(statement);
}

/**
 * Of an operation the spec documents in two forms (6 and 7), an entry belongs to every form unless it
 * names the path of another form and not this one's (OP6-REQUEST-BY-ID names only the second form).
 */
function ofThisForm(r: Requirement, op: OperationDef): boolean {
  const others = Object.values(OPERATIONS).filter((o: OperationDef) => o.number === op.number && o.path !== op.path);
  return !others.some((o) => namesPath(r.statement, o.path)) || namesPath(r.statement, op.path);
}

export function buildOpenApiDocument(opts: DocumentOptions = {}): JsonObject {
  const specUrl = opts.specUrl ?? defaultSpecUrl();
  const specMarkdown = readFileSync(SPEC_FILE, 'utf8');
  const sections = specSections(specMarkdown);
  const title = /^#\s+(.+)$/m.exec(specMarkdown)?.[1] ?? 'Digital Banking Service Interface';
  const pkg = readJson(ROOT + 'package.json');
  const example = readJson(ROOT + 'config/example.target.json');
  const configSchema = readJson(SCHEMA_DIR + 'config.schema.json');

  // components/schemas: every spec schema, translated; request bodies whose required members the spec does not state
  // lose the list.
  const loaded = specSchemas();
  const nameOfId = new Map(loaded.map((s) => [s.id, s.name]));
  const schemas: Record<string, JsonObject> = {};
  for (const s of loaded) schemas[s.name] = toComponentSchema(s.schema, s, nameOfId);
  hoistDefinitions(schemas);
  const entries = Object.entries(OPERATIONS) as [OperationKey, OperationDef][];
  for (const [key] of entries) {
    for (const n of schemasOf(OPERATION_DOCUMENTATION[key]))
      if (!schemas[n])
        throw new Error(
          `harness/operations-documented.ts: ${key} names schema ${n}, ` + `which is not a spec schema under schemas/`,
        );
  }
  const unstated = new Set(
    entries.flatMap(([k]) =>
      OPERATION_DOCUMENTATION[k].body && !OPERATION_DOCUMENTATION[k].body!.requiredMembersStated
        ? [OPERATION_DOCUMENTATION[k].body!.schema]
        : [],
    ),
  );
  for (const n of unstated) {
    const s = schemas[n]!;
    const usedElsewhere =
      entries.some(([k]) =>
        OPERATION_DOCUMENTATION[k].responses.some((r) => r.schema === n || r.elements?.schema === n),
      ) || Object.entries(schemas).some(([other, o]) => other !== n && referencedNames(o).has(n));
    if (usedElsewhere)
      throw new Error(
        `schemas/${n}.schema.json is a request body whose required members the ` +
          `spec does not state, and is also used elsewhere`,
      );
    if (Array.isArray(s.required)) {
      s['x-members-the-suite-sends'] = s.required;
      s.description = (
        `${String(s.description ?? '')} Which members are required is not stated by the spec, so the ` +
        `document requires none; the suite always sends ${(s.required as string[]).join(', ')}.`
      ).trim();
      delete s.required;
    }
  }

  // Which operations use each schema, directly or through $ref; and which schemas refer to it.
  const opsUsing = new Map<string, Set<number>>(Object.keys(schemas).map((n) => [n, new Set<number>()]));
  const referrers = new Map<string, Set<string>>(Object.keys(schemas).map((n) => [n, new Set<string>()]));
  for (const [n, s] of Object.entries(schemas)) for (const r of referencedNames(s)) referrers.get(r)?.add(n);
  const mark = (name: string, op: number, seen = new Set<string>()) => {
    if (seen.has(name)) return;
    seen.add(name);
    opsUsing.get(name)!.add(op);
    for (const r of referencedNames(schemas[name])) if (schemas[r]) mark(r, op, seen);
  };
  for (const [key, op] of entries) for (const n of schemasOf(OPERATION_DOCUMENTATION[key])) mark(n, op.number);

  // x-requirements of a schema: the catalog entries of its spec section that concern an operation using it
  // (any, for a schema no operation uses); where there are none, those of the schemas that refer to it;
  // else those of the operations using it that name its title.
  // An entry of a shared section (e.g. "Error records") counts for a schema with members only where it names one of
  // them.
  const own = (name: string, notTestable: boolean) => {
    const s = schemas[name]!;
    const ops = opsUsing.get(name)!;
    const words = Object.keys((s.properties as JsonObject | undefined) ?? {});
    const names = (r: Requirement) =>
      words.length === 0 ||
      words.some((w) =>
        new RegExp(`(^|[^\\w])${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w])`).test(r.statement),
      );
    return CATALOG.filter(
      (r) =>
        r.section === s['x-spec-section'] &&
        !!r.notTestable === notTestable &&
        (ops.size === 0 || r.operations.length === 0 || r.operations.some((o) => ops.has(o))) &&
        (notTestable || names(r)),
    );
  };
  const checkedAt = (name: string, seen = new Set<string>()): Requirement[] => {
    seen.add(name);
    const mine = own(name, false);
    if (mine.length) return mine;
    const inherited = [...referrers.get(name)!].filter((r) => !seen.has(r)).flatMap((r) => checkedAt(r, seen));
    if (inherited.length) return [...new Map(inherited.map((r) => [r.id, r])).values()];
    // Else the checked entries of the operations using it that name it by its title (e.g. "the Token request body").
    const title = schemas[name]!.title;
    const ops = opsUsing.get(name)!;
    return typeof title === 'string'
      ? CATALOG.filter((r) => !r.notTestable && r.operations.some((o) => ops.has(o)) && r.statement.includes(title))
      : [];
  };
  for (const name of Object.keys(schemas)) {
    const s = schemas[name]!;
    s['x-requirements'] = ids(checkedAt(name));
    const nt = own(name, true);
    if (nt.length) s['x-requirements-not-testable'] = ids(nt);
  }

  // paths
  const paths: Record<string, JsonObject> = {};
  const pathBase = new Map<string, BaseUrlKey>();
  for (const [key, entry] of entries) {
    // contactInfoBaseUrl defaults to baseUrl: the document shows the contact-info path under {base_url}.
    const op = { ...entry, base: entry.base === 'contactInfoBaseUrl' ? ('baseUrl' as const) : entry.base };
    const doc = OPERATION_DOCUMENTATION[key];
    const templated = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const declared = doc.parameters.filter((p) => p.in === 'path').map((p) => p.name);
    if (templated.join() !== declared.join())
      throw new Error(
        `harness/operations-documented.ts: ${key} declares path parameters ` +
          `[${declared}] but its path ${op.path} has [${templated}]`,
      );
    if (pathBase.has(op.path) && pathBase.get(op.path) !== op.base)
      throw new Error(`${op.path}: operations on one path live ` + `under different base URLs`);
    pathBase.set(op.path, op.base);
    const item = (paths[op.path] ??= {});
    const method = op.method.toLowerCase();
    if (item[method]) throw new Error(`${op.method} ${op.path} is in the operations table twice`);
    const mine = CATALOG.filter((r) => r.operations.includes(op.number) && ofThisForm(r, op));
    const checked = mine.filter((r) => !r.notTestable);
    const notTestable = mine.filter((r) => r.notTestable);
    const o: JsonObject = {
      operationId: key,
      summary: `${op.number}. ${op.name}`,
      description: operationDescription(op, doc, sections),
      tags: [op.area],
      externalDocs: { description: `Spec, ${op.section}`, url: `${specUrl}#${sectionAnchor(op.section)}` },
      'x-spec-section': op.section,
      'x-requirements': ids(checked),
    };
    if (notTestable.length) o['x-requirements-not-testable'] = ids(notTestable);
    if (op.mutates) o['x-safety-switch'] = `allow.${op.mutates}`;
    // Its own base URL on the operation, not on the path item: Portman and Dredd ignore path-level servers
    // and Step CI takes them for an operation; Portman turns an operation's server variable into a collection
    // variable ({{authBaseUrl}}). One operation per path lives under another base URL, so the meaning is the same.
    if (op.base !== 'baseUrl') o.servers = [serverFor(op.base, example, configSchema)];
    const parameters = doc.parameters
      .filter((p) => !(p.in === 'header' && HEADERS_DESCRIBED_ELSEWHERE[p.name.toLowerCase()]))
      .map(parameterObject);
    if (parameters.length) o.parameters = parameters;
    if (doc.body) {
      o.requestBody = {
        required: true,
        description: `"Bodies are JSON objects." ${String(schemas[doc.body.schema]!.title ?? doc.body.schema)}.`,
        content: { [JSON_MEDIA]: { schema: ref(doc.body.schema) } },
      };
    }
    o.responses = Object.fromEntries(doc.responses.map((r) => [r.status, responseObject(r)]));
    if (typeof doc.security === 'string') o.security = [{ [doc.security]: [] }];
    else o['x-authentication-not-shown'] = doc.security.notShown;
    item[method] = o;
  }

  // Each area's line of the spec's list of specified areas ("3. Money Movement: create a transfer …").
  const areaLines = [...sectionText(sections, 'What the service does').matchAll(/^\d+\.\s+([^:\n]+):\s*(.+)$/gm)];
  const areaTag = (area: string) => {
    const line = areaLines.find((m) => m[1]!.toLowerCase().replace(/\s+/g, '-').endsWith(area));
    return line ? { name: area, description: `${line[1]}: ${line[2]}` } : { name: area };
  };
  const areas = [...new Set(entries.map(([, op]) => op.area))];
  return {
    openapi: '3.1.0',
    info: {
      title,
      version: String(pkg.version),
      summary: 'The Digital Banking Service Interface as the dbsi-conformance suite checks it.',
      description: [
        sectionText(sections, 'What the service does'),
        `Generated by \`npm run openapi\` from the suite's schemas (schemas/), its operations table ` +
          `(harness/operations.ts, harness/operations-documented.ts) and its requirement catalog ` +
          `(requirements/). \`x-spec-section\` names the spec section of each operation and schema, ` +
          `\`x-requirements\` the catalog ids the suite checks there, \`x-requirements-not-testable\` the ` +
          `statements the spec leaves "not shown". Where the spec says "not shown", the document does not ` +
          `invent: success codes not shown are \`2XX\`, errors not shown are \`default\`, values shown of ` +
          `open enumerations are \`examples\` (any other string is allowed; the suite reports one as INFO), ` +
          `and no member is required that the spec does not require.`,
      ].join('\n\n'),
    },
    // No jsonSchemaDialect: the default (the OAS 3.1 base dialect, JSON Schema 2020-12) is meant, and
    // naming it explicitly turns off request body validation in Prism 5.16.
    servers: [serverFor('baseUrl', example, configSchema)],
    tags: areas.map(areaTag),
    externalDocs: { description: "The spec, the suite's only oracle", url: specUrl },
    'x-spec-sha256': createHash('sha256').update(specMarkdown).digest('hex'),
    paths,
    components: {
      schemas,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
