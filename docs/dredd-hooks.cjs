// Dredd hooks for the OpenAPI 3.0 rendering (npm run openapi -- --config FILE --openapi 3.0):
//   npx dredd@14.1.0 dbsi30.json http://127.0.0.1:4711 --hookfiles docs/dredd-hooks.cjs --header '…'
// Dredd reads a 2XX response (the spec shows no success code) as 200, and makes one transaction per
// documented response, errors and `default` included, though it can only send the one request it builds.
// Its OpenAPI 3 parser supports no allOf, anyOf, format or pattern, and without a schema it requires every
// member of a body it makes up. These hooks keep Dredd to what the document says: any 2xx passes where the
// key is 2XX, a body is validated with the document's schema, a Content-Type is compared as a media type
// (`application/json;charset=UTF-8` is `application/json`), and only the first response of each operation
// (its success) is tested; the others are skipped, with the reason.
//
// `npm run recipe -- --tool dredd --config FILE` writes these hooks with a RECIPE (docs/recipes.md) before them:
// then each operation's request is the recipe's (its credentials, read from the environment variables DBSI_…,
// the configuration's test data, the ids the target issued carried forward), and an operation whose id the
// target did not show is skipped, with the reason.

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
    out.set(t.name, { key, first: n === 0, bodySchema, operationId: op.operationId });
  }
  return out;
}

/** The media type of a Content-Type value: its type/subtype in lower case, without parameters. */
function mediaType(value) {
  return String(value ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
}

/** The expected headers, with a Content-Type the answer says as the same media type taken as it was said. */
function sameMediaTypes(expected, real) {
  const out = { ...expected };
  const key = Object.keys(out).find((k) => k.toLowerCase() === 'content-type');
  const realKey = Object.keys(real ?? {}).find((k) => k.toLowerCase() === 'content-type');
  if (key && realKey && mediaType(out[key]) === mediaType(real[realKey]) && mediaType(out[key]) !== '')
    out[key] = real[realKey];
  return out;
}

/**
 * Registers the hooks on Dredd's `hooks` object; `readDocument()` gives the document Dredd runs; with a `recipe`,
 * each transaction is its request (`run`: recipeRunner's, with process.env and fetch).
 */
function register(hooks, readDocument, recipe, run = recipe ? recipeRunner(recipe, hooks) : undefined) {
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
    if (!run || !p || t.skip) return done();
    run.before(t, p.operationId).then(done, (e) => {
      hooks.log(`${t.name}: ${e.message}`);
      done();
    });
  });
  if (run) hooks.afterEach((t, done) => (run.after(t, byName.get(t.name)?.operationId), done()));
  hooks.beforeEachValidation((t, done) => {
    const p = byName.get(t.name);
    const real = Number(t.real?.statusCode);
    // "The status code of the successful responses …: not shown": any 2xx is the documented 2XX response.
    if (p?.key === '2XX' && real >= 200 && real <= 299) t.expected.statusCode = String(real);
    // Dredd's OpenAPI 3 parser supports no allOf, anyOf, format or pattern, and then compares the body with
    // one it makes from the schema, requiring every member of it: validate with the document's schema.
    if (p?.bodySchema) t.expected.bodySchema = p.bodySchema;
    // "Bodies are JSON objects": a media type, whatever its parameters and case (Dredd compares the text).
    if (t.expected?.headers) t.expected.headers = sameMediaTypes(t.expected.headers, t.real?.headers);
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

/** The value of a recipe variable: a secret read from `env`, an id captured so far, or a value made now. */
function variableValue(recipe, env, captures, name) {
  if (name in recipe.secrets) return env[recipe.secrets[name]] ?? '';
  if (recipe.captures.includes(name)) return captures[name];
  if (name === '$uuid') return require('node:crypto').randomUUID();
  if (name === '$now') return new Date().toISOString();
  throw new Error(`unknown recipe variable ${name}`);
}

/** `v` with each `{{name}}` replaced by `value(name)`; a string that is one template takes the value as it is. */
function fillTemplates(v, value) {
  if (typeof v === 'string') {
    const whole = /^\{\{([$\w]+)\}\}$/.exec(v);
    return whole ? value(whole[1]) : v.replace(/\{\{([$\w]+)\}\}/g, (_, n) => String(value(n)));
  }
  if (Array.isArray(v)) return v.map((x) => fillTemplates(x, value));
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fillTemplates(x, value)]));
  return v;
}

/** The HTTP request of a recipe step (`fill` gives its templates their values), with its scheme's credentials. */
function stepRequest(recipe, step, fill) {
  const path = step.path.replace(/\{(\w+)\}/g, (_, p) => encodeURIComponent(String(fill(step.pathParams[p]))));
  const query = new URLSearchParams(fill(step.query)).toString();
  const url = new URL(`${recipe.urls[step.base]}${path}${query ? `?${query}` : ''}`);
  const headers = fill(step.headers);
  const a = step.auth;
  headers.Authorization =
    a.scheme === 'bearer'
      ? `Bearer ${fill(a.token)}`
      : `Basic ${Buffer.from(`${fill(a.username)}:${fill(a.password)}`).toString('base64')}`;
  const body = step.body === undefined ? '' : JSON.stringify(fill(step.body));
  return { url: url.href, path: url.pathname + url.search, method: step.method, headers, body };
}

/**
 * The id a step's answer (`text`) carries into `captures`: the created one's own, or the id the list shows for
 * the record of the created disclosure. An answer that shows none removes it.
 */
function captureId(captures, step, text) {
  if (!step?.capture) return;
  let j;
  try {
    j = JSON.parse(text);
  } catch {
    j = undefined;
  }
  const name = step.capture.name;
  let v = step.capture.from === 'created' ? j?.[name] : undefined;
  if (step.capture.from === 'listed') {
    const list = Array.isArray(j?.institutionUserDisclosures) ? j.institutionUserDisclosures : [];
    const created = captures.institutionDisclosureId;
    v = list.find((r) => r && r.institutionDisclosureId === created)?.institutionUserDisclosureId;
  }
  if (typeof v === 'string' && v !== '') captures[name] = v;
  else delete captures[name];
}

/** Makes Dredd's transaction `t` the request `r`, keeping Dredd's User-Agent. */
function sendAsRecipe(t, r) {
  const agent = Object.entries(t.request.headers ?? {}).find(([k]) => k.toLowerCase() === 'user-agent');
  t.fullPath = r.path;
  t.request.uri = r.path;
  t.request.headers = { ...(agent ? { [agent[0]]: agent[1] } : {}), ...r.headers };
  t.request.body = r.body;
}

/**
 * The requests of a recipe (npm run recipe -- --tool dredd): `before` makes a transaction the recipe's request for
 * its operation (sending first, itself, the requests `recipe.dredd.before` names: Dredd's order is the document's,
 * not the one the ids need), or skips it when the target showed no id it needs; `after` captures the ids an
 * answer carries. Secrets are read from `env` by the names of `recipe.secrets`, when the request is made.
 */
function recipeRunner(recipe, hooks, env = process.env, send = globalThis.fetch) {
  const captures = {};
  const steps = new Map(recipe.steps.map((s) => [s.name, s]));
  const fill = (v) => fillTemplates(v, (name) => variableValue(recipe, env, captures, name));
  const uses = (step) =>
    recipe.captures.filter((c) => JSON.stringify(step).includes(`{{${c}}}`) && captures[c] === undefined);
  const request = (step) => stepRequest(recipe, step, fill);
  const sendAux = async (name) => {
    const step = steps.get(name);
    if (!step || uses(step).length) return;
    const r = request(step);
    const res = await send(r.url, { method: r.method, headers: r.headers, body: r.body || undefined });
    const text = await res.text();
    hooks.log(`${name}: ${r.method} ${r.path} answered ${res.status} (sent by the hooks: ${step.why})`);
    captureId(captures, step, text);
  };
  return {
    async before(t, operationId) {
      const step = steps.get(operationId);
      if (!step) return;
      for (const aux of recipe.dredd.before[operationId] ?? []) await sendAux(aux);
      const missing = uses(step);
      if (missing.length) {
        t.skip = true;
        hooks.log(`${t.name}: skipped, the target showed no ${missing.join(', ')} (${step.why})`);
        for (const aux of recipe.dredd.cleanup[operationId] ?? []) await sendAux(aux);
        return;
      }
      sendAsRecipe(t, request(step));
    },
    after(t, operationId) {
      captureId(captures, steps.get(operationId), t.real?.body);
    },
    captures,
    request,
  };
}

const recipe = typeof RECIPE === 'undefined' ? undefined : RECIPE; // eslint-disable-line no-undef
module.exports = { register, plan, mediaType, sameMediaTypes, recipeRunner, recipe };

let dreddHooks;
try {
  dreddHooks = require('hooks'); // provided by Dredd when it loads a hook file
} catch {
  dreddHooks = undefined; // loaded by a self-test
}
if (dreddHooks) register(dreddHooks, documentOf, recipe);
