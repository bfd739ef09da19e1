import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JsonObject } from '../harness/openapi/dialect';

/** Helpers of the OpenAPI document's self-tests: reading the document as a tool would. */

export type Doc = JsonObject & {
  paths: Record<string, Record<string, JsonObject>>;
  components: { schemas: Record<string, JsonObject>; securitySchemes: Record<string, JsonObject> };
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export interface DocOperation {
  path: string;
  method: string;
  op: JsonObject & {
    operationId: string;
    responses: Record<string, JsonObject>;
    parameters?: JsonObject[];
    requestBody?: JsonObject;
  };
  /** JSON pointer (unescaped parts) of the operation object. */
  at: string[];
}

export function operationsOf(doc: Doc): DocOperation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([m]) => METHODS.includes(m))
      .map(([method, op]) => ({ path, method, op: op as DocOperation['op'], at: ['paths', path, method] })),
  );
}

/** The response object OpenAPI picks for a status: the exact code, else its range (2XX), else default. */
export function responseKeyFor(responses: Record<string, unknown>, status: number): string | undefined {
  return [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in responses);
}

/**
 * Validation against a schema at a place in the document, with JSON Schema 2020-12 (the dialect of
 * OpenAPI 3.1) and formats: every `$ref` resolves inside the document, as in any OpenAPI tool.
 */
export function documentValidator(doc: Doc): (at: string[], data: unknown) => string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const id = 'urn:dbsi-conformance:openapi';
  ajv.addSchema({ ...doc, $id: id } as object, id, undefined, false);
  return (at, data) => {
    const pointer = at.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
    const validate = ajv.getSchema(`${id}#/${pointer}`) ?? ajv.compile({ $ref: `${id}#/${pointer}` });
    return validate(data) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message}`);
  };
}
