// Dredd hooks for the OpenAPI 3.0 rendering (npm run openapi -- --config FILE --openapi 3.0):
//   npx dredd@14.1.0 dbsi30.json http://127.0.0.1:4711 --hookfiles docs/dredd-hooks.cjs --header '…'
// Dredd reads a 2XX response (the spec shows no success code) as 200, and makes one transaction per
// documented response, errors and `default` included, though it can only send the one request it builds.
// Its OpenAPI 3 parser supports no allOf, anyOf, format or pattern, and without a schema it requires every
// member of a body it makes up. These hooks keep Dredd to what the document says: any 2xx passes where the
// key is 2XX, a body is validated with the document's schema, and only the first response of each operation
// (its success) is tested; the others are skipped, with the reason.

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The component schemas `schema` refers to, directly or through others. */
function reachable(doc, schema) {
  const out = {};
  const visit = (node) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        const name = k === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', '') : undefined;
        if (name !== undefined && !(name in out) && doc.components?.schemas?.[name]) {
          out[name] = doc.components.schemas[name];
          visit(out[name]);
        } else visit(v);
      }
    }
  };
  visit(schema);
  return out;
}

/** The documented response keys of the operation of each transaction, and the key it stands for. */
function plan(doc, transactions) {
  const seen = new Map();
  const out = new Map();
  for (const t of transactions) {
    const method = String(t.request.method).toLowerCase();
    const op = METHODS.includes(method) ? doc.paths?.[t.origin.resourceName]?.[method] : undefined;
    if (!op) continue;
    const at = `${method} ${t.origin.resourceName}`;
    const n = seen.get(at) ?? 0;
    seen.set(at, n + 1);
    const key = Object.keys(op.responses ?? {})[n];
    const schema = op.responses?.[key]?.content?.['application/json']?.schema;
    // The document's own schema for the body, with the components it refers to (Dredd prints it on a failure).
    const bodySchema = schema && JSON.stringify({ allOf: [schema], components: { schemas: reachable(doc, schema) } });
    out.set(t.name, { key, first: n === 0, bodySchema });
  }
  return out;
}

/** Registers the hooks on Dredd's `hooks` object; `readDocument()` gives the document Dredd runs. */
function register(hooks, readDocument) {
  let byName = new Map();
  hooks.beforeAll((transactions, done) => {
    byName = plan(readDocument(hooks), transactions);
    done();
  });
  hooks.beforeEach((t, done) => {
    const p = byName.get(t.name);
    if (p && !p.first) {
      t.skip = true;
      hooks.log(`${t.name}: skipped, response ${p.key} is not the success response this request can provoke`);
    }
    done();
  });
  hooks.beforeEachValidation((t, done) => {
    const p = byName.get(t.name);
    const real = Number(t.real?.statusCode);
    // "The status code of the successful responses …: not shown": any 2xx is the documented 2XX response.
    if (p?.key === '2XX' && real >= 200 && real <= 299) t.expected.statusCode = String(real);
    // Dredd's OpenAPI 3 parser supports no allOf, anyOf, format or pattern, and then compares the body with
    // one it makes from the schema, requiring every member of it: validate with the document's schema.
    if (p?.bodySchema) t.expected.bodySchema = p.bodySchema;
    done();
  });
}

/** The first API description Dredd loaded (its content), else the file of its first `path`. */
function documentOf(hooks) {
  const c = hooks.configuration ?? {};
  const loaded = c.apiDescriptions?.[0]?.content;
  const text = loaded ?? require('node:fs').readFileSync(c.path[0], 'utf8');
  return JSON.parse(text);
}

module.exports = { register, plan };

let dreddHooks;
try {
  dreddHooks = require('hooks'); // provided by Dredd when it loads a hook file
} catch {
  dreddHooks = undefined; // loaded by a self-test
}
if (dreddHooks) register(dreddHooks, documentOf);
