import { CATALOG, sectionAnchor, type Requirement } from '../../requirements';
import { OPERATIONS, type BaseUrlKey, type OperationDef, type OperationKey } from '../operations';
import {
  OPERATION_DOCUMENTATION,
  type DocumentedParameter,
  type DocumentedResponse,
  type OperationDocumentation,
} from '../operations-documented';
import { ids, ref } from './component-schemas';
import type { JsonObject } from './dialect';
import { sectionText } from './spec-sections';

/* paths of the OpenAPI document: one Operation Object per operation of the table, from its documented facts. */

const JSON_MEDIA = 'application/json';
/** OpenAPI ignores header parameters of these names: the document says them elsewhere. */
const HEADERS_DESCRIBED_ELSEWHERE: Record<string, string> = {
  authorization: 'the security requirement of the operation',
  'content-type': 'the media type of the request body',
  accept: 'the media types of the responses',
};

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

export function serverFor(base: BaseUrlKey, example: JsonObject, configSchema: JsonObject): JsonObject {
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

/** What an Operation Object is made from besides the operation itself. */
export interface PathSources {
  schemas: Record<string, JsonObject>;
  specUrl: string;
  sections: Map<string, string>;
  example: JsonObject;
  configSchema: JsonObject;
}

/** paths: every operation of the table under its path (checked against its documented path parameters). */
export function operationPaths(entries: [OperationKey, OperationDef][], from: PathSources): Record<string, JsonObject> {
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
        `harness/operations-${entry.area}.ts: ${key} declares path parameters ` +
          `[${declared}] but its path ${op.path} has [${templated}]`,
      );
    if (pathBase.has(op.path) && pathBase.get(op.path) !== op.base)
      throw new Error(`${op.path}: operations on one path live ` + `under different base URLs`);
    pathBase.set(op.path, op.base);
    const item = (paths[op.path] ??= {});
    const method = op.method.toLowerCase();
    if (item[method]) throw new Error(`${op.method} ${op.path} is in the operations table twice`);
    item[method] = operationObject(key, op, doc, from);
  }
  return paths;
}

function operationObject(
  key: OperationKey,
  op: OperationDef & { base: BaseUrlKey },
  doc: OperationDocumentation,
  from: PathSources,
): JsonObject {
  const { schemas, specUrl, sections, example, configSchema } = from;
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
  return o;
}
