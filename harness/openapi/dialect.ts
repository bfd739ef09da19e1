/**
 * The suite's schemas (JSON Schema draft-07, each with its own `$id`) as Schema Objects of an
 * OpenAPI 3.1 document (JSON Schema 2020-12, all in components/schemas):
 * - `$schema` and `$id` go (the document's dialect applies; every reference is made local);
 * - `definitions` become `$defs`;
 * - every `$ref` is rewritten to `#/components/schemas/<name>…`: a reference to another file by its
 *   `$id` (absolute, or relative to the referring file's `$id`), and a local one (`#/definitions/x`)
 *   to the same schema's place under components;
 * - draft-07 forms whose meaning changed in 2020-12 are translated: `dependencies` (into
 *   `dependentRequired` / `dependentSchemas`), `items` as an array (into `prefixItems`, with
 *   `additionalItems` into `items`).
 * Everything else (types, `required`, `enum`, `examples`, `format`, descriptions, `x-` members) is
 * the same in both dialects and is copied as it is.
 */

export type JsonObject = Record<string, unknown>;

export class SchemaTranslationError extends Error {
  override name = 'SchemaTranslationError';
}

const COMPONENTS = '#/components/schemas/';
const SUBSCHEMA = [
  'additionalProperties',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'additionalItems',
  'unevaluatedProperties',
  'unevaluatedItems',
];
const SUBSCHEMA_LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMA_MAP = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];

/** Where a schema of schemas/ lives in the document: its name, and its `$id` to resolve relative references. */
export interface SchemaSource {
  name: string;
  id: string;
}

/**
 * `schema` (the file `source`) translated; `nameOfId` maps the `$id` of every file of schemas/ to its
 * name. A reference that leads nowhere known throws, so the document never carries a dangling `$ref`.
 */
export function toComponentSchema(
  schema: JsonObject,
  source: SchemaSource,
  nameOfId: ReadonlyMap<string, string>,
): JsonObject {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return translate(rest, source, nameOfId, '') as JsonObject;
}

function translate(node: unknown, source: SchemaSource, names: ReadonlyMap<string, string>, at: string): unknown {
  if (typeof node === 'boolean') return node;
  if (node === null || typeof node !== 'object' || Array.isArray(node))
    throw new SchemaTranslationError(`schemas/${source.name}.schema.json${at || ' (root)'}: ` + `not a schema`);
  const s = { ...(node as JsonObject) };
  const out: JsonObject = {};
  if ('definitions' in s) {
    s.$defs = { ...(s.definitions as JsonObject), ...((s.$defs as JsonObject | undefined) ?? {}) };
    delete s.definitions;
  }
  if ('dependencies' in s) {
    for (const [k, v] of Object.entries(s.dependencies as JsonObject)) {
      const target = Array.isArray(v) ? 'dependentRequired' : 'dependentSchemas';
      s[target] = { ...((s[target] as JsonObject | undefined) ?? {}), [k]: v };
    }
    delete s.dependencies;
  }
  if (Array.isArray(s.items)) {
    s.prefixItems = s.items;
    delete s.items;
    if ('additionalItems' in s) {
      s.items = s.additionalItems;
      delete s.additionalItems;
    }
  } else if ('additionalItems' in s) {
    delete s.additionalItems; // without array items, draft-07 ignores it
  }
  for (const [k, v] of Object.entries(s)) {
    const here = `${at}/${k}`;
    if (k === '$ref') out[k] = rewriteRef(String(v), source, names, here);
    else if (k === 'items' || SUBSCHEMA.includes(k)) out[k] = translate(v, source, names, here);
    else if (SUBSCHEMA_LIST.includes(k))
      out[k] = (v as unknown[]).map((x, i) => translate(x, source, names, `${here}/${i}`));
    else if (SUBSCHEMA_MAP.includes(k))
      out[k] = Object.fromEntries(
        Object.entries(v as JsonObject).map(([n, x]) => [n, translate(x, source, names, `${here}/${n}`)]),
      );
    else if ((k === 'exclusiveMinimum' || k === 'exclusiveMaximum') && typeof v === 'boolean')
      throw new SchemaTranslationError(
        `schemas/${source.name}.schema.json${here}: a boolean ` + `${k} is draft-04, not draft-07`,
      );
    else out[k] = v;
  }
  return out;
}

/** A JSON pointer fragment of a draft-07 file, as a pointer into its component ("/definitions/" becomes "/$defs/"). */
function pointerInComponent(fragment: string): string {
  const parts = fragment.split('/');
  // A member named "definitions" of properties / patternProperties / $defs is a name, not the keyword.
  return parts
    .map((p, i) =>
      p === 'definitions' &&
      i > 0 &&
      !['properties', 'patternProperties', 'definitions', '$defs'].includes(parts[i - 1]!)
        ? '$defs'
        : p,
    )
    .join('/');
}

function rewriteRef(ref: string, source: SchemaSource, names: ReadonlyMap<string, string>, at: string): string {
  let url: URL;
  try {
    url = new URL(ref, source.id);
  } catch {
    throw new SchemaTranslationError(`schemas/${source.name}.schema.json${at}: $ref ${ref} is not a URI reference`);
  }
  const fragment = decodeURIComponent(url.hash.replace(/^#/, ''));
  url.hash = '';
  const name = names.get(url.href);
  if (!name)
    throw new SchemaTranslationError(
      `schemas/${source.name}.schema.json${at}: $ref ${ref} names no ` + `file of schemas/ (resolved: ${url.href})`,
    );
  if (fragment && !fragment.startsWith('/'))
    throw new SchemaTranslationError(
      `schemas/${source.name}.schema.json${at}: $ref ${ref}: only ` + `JSON pointer fragments are supported`,
    );
  // The pointer keeps its ~0/~1 escapes; what a URI fragment may not hold is percent-encoded.
  const pointer = pointerInComponent(fragment).replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/]/g, (c) =>
    encodeURIComponent(c),
  );
  return `${COMPONENTS}${name}${pointer}`;
}
