import type { JsonObject } from './dialect';
import { CAPTURES, mapTemplates, type RecipePlan, type RecipeStep, SECRET_VARIABLES } from './recipe-plan';
import { withExplicitSuccessCodes } from './renderings';

/**
 * What Portman (and newman) need for a recipe plan: the document with explicit success codes (Portman tests no
 * range; each operation at its own base URL, `{{baseUrl}}`, `{{authBaseUrl}}`, `{{transfersBaseUrl}}`), a Portman
 * configuration and a Postman environment. The configuration overwrites each operation's request with the
 * recipe's (headers, query, path variables, body, the credentials of its security scheme as `{{variables}}`),
 * removes the parameters the recipe does not send (an optional InstitutionCustomerId a retail target refuses),
 * orders the requests, captures the ids the target issues into collection variables, skips a request whose id
 * the target did not show (`pm.execution.skipRequest`, with a line saying why), and adds its own tests: the
 * document's success status (any 2xx where it says 2XX) and a JSON media type compared as a media type. Portman's
 * own contract tests check a JSON body and its schema. The environment holds the base URLs and, empty, the
 * secrets: newman is given them on its command line (`--env-var bearerToken=$DBSI_BEARER_TOKEN …`).
 */

const POSTMAN_VARIABLE = (name: string): string => {
  if (name in SECRET_VARIABLES || name in CAPTURES) return `{{${name}}}`;
  if (name === '$uuid') return '{{$guid}}';
  if (name === '$now') return '{{$isoTimestamp}}';
  throw new Error(`unknown recipe variable ${name}`);
};

const js = (x: unknown) => JSON.stringify(x);

function parametersOf(doc: JsonObject, operationId: string): { name: string; in: string }[] {
  for (const item of Object.values(doc.paths as Record<string, JsonObject>))
    for (const op of Object.values(item) as JsonObject[])
      if (op && op.operationId === operationId) return (op.parameters ?? []) as { name: string; in: string }[];
  return [];
}

/**
 * A path parameter that is not a whole segment (`/customers/{customerId}:contact-info`): Postman's converter makes
 * it a `{{customerId}}` variable, not a path variable, so the environment gives it (URL-encoded test data).
 */
const embedded = (s: RecipeStep, key: string) => !new RegExp(`/\\{${key}\\}(/|$)`).test(s.path);

function overwrite(doc: JsonObject, s: RecipeStep): JsonObject {
  const to = POSTMAN_VARIABLE;
  const params = parametersOf(doc, s.operationId);
  const headers = mapTemplates(s.headers, to) as Record<string, string>;
  const query = mapTemplates(s.query, to) as Record<string, string>;
  const unsent = (where: string, sent: object) =>
    params.filter((p) => p.in === where && !(p.name in sent)).map((p) => ({ key: p.name, remove: true }));
  const security =
    s.auth.scheme === 'bearer'
      ? { bearer: { token: mapTemplates(s.auth.token, to) } }
      : { basic: { username: mapTemplates(s.auth.username, to), password: mapTemplates(s.auth.password, to) } };
  return {
    openApiOperationId: s.operationId,
    overwriteRequestHeaders: [
      ...Object.entries(headers).map(([key, value]) => ({ key, value, overwrite: true })),
      ...unsent('header', headers),
    ],
    overwriteRequestQueryParams: [
      ...Object.entries(query).map(([key, value]) => ({ key, value, overwrite: true })),
      ...unsent('query', query),
    ],
    overwriteRequestPathVariables: Object.entries(s.pathParams)
      .filter(([key]) => !embedded(s, key))
      .map(([key, value]) => ({
        key,
        value: /^\{\{/.test(value) ? mapTemplates(value, to) : encodeURIComponent(value),
        overwrite: true,
      })),
    ...(s.body === undefined
      ? {}
      : { overwriteRequestBody: [{ key: '.', value: mapTemplates(s.body, to), overwrite: true }] }),
    overwriteRequestSecurity: security,
  };
}

/** The recipe's own tests: the success status the document gives, and a JSON media type where a body is due. */
function tests(s: RecipeStep): string[] {
  const status =
    s.status === '2XX'
      ? 'pm.test("[recipe] status is 2xx (the success code is not shown)", () => ' +
        'pm.expect(pm.response.code).to.be.within(200, 299));'
      : `pm.test("[recipe] status is ${s.status}", () => pm.response.to.have.status(${s.status}));`;
  const media = s.schema
    ? [
        'pm.test("[recipe] Content-Type is the media type application/json (any case, any parameter)", () => {',
        '  const type = String(pm.response.headers.get("Content-Type") || "").split(";")[0].trim().toLowerCase();',
        '  pm.expect(type).to.equal("application/json");',
        '});',
      ]
    : [];
  const capture =
    s.capture?.from === 'listed'
      ? [
          '// The id of the record on the created disclosure, where the list shows one (four members are documented).',
          'let listedId;',
          'try {',
          '  const created = pm.collectionVariables.get("institutionDisclosureId");',
          '  const list = pm.response.json().institutionUserDisclosures || [];',
          '  const record = list.find((r) => r && r.institutionDisclosureId === created) || {};',
          '  listedId = record.institutionUserDisclosureId;',
          '} catch (e) {}',
          'if (typeof listedId === "string" && listedId !== "")',
          '  pm.collectionVariables.set("institutionUserDisclosureId", listedId);',
          'else pm.collectionVariables.unset("institutionUserDisclosureId");',
        ]
      : s.capture?.from === 'created'
        ? [
            'let createdId;',
            'try { createdId = pm.response.json().institutionDisclosureId; } catch (e) {}',
            'if (typeof createdId === "string" && createdId !== "")',
            '  pm.collectionVariables.set("institutionDisclosureId", createdId);',
            'else pm.collectionVariables.unset("institutionDisclosureId");',
          ]
        : [];
  return [status, ...media, ...capture];
}

/** A pre-request script: skip when an id is missing; for `before`, send that step first (pm.sendRequest). */
function preRequest(s: RecipeStep, before: RecipeStep | undefined, urlOf: (s: RecipeStep) => string): string[] {
  const lines: string[] = [];
  if (s.requires.length)
    lines.push(
      `const missing = ${js(s.requires)}.filter((n) => !pm.collectionVariables.get(n));`,
      'if (missing.length) {',
      `  console.log(${js(`${s.name}: skipped, the target showed no `)} + missing.join(", ") + ${js(` (${s.why})`)});`,
      '  pm.execution.skipRequest();',
      '}',
    );
  if (before) {
    const to = POSTMAN_VARIABLE;
    const headers = { ...(mapTemplates(before.headers, to) as object) };
    const token = before.auth.scheme === 'bearer' ? mapTemplates(before.auth.token, to) : '';
    const request = {
      url: urlOf(before),
      method: before.method,
      header: Object.entries({ ...headers, Authorization: `Bearer ${String(token)}` }).map(([key, value]) => ({
        key,
        value,
      })),
      body: { mode: 'raw', raw: JSON.stringify(mapTemplates(before.body, to)) },
    };
    lines.push(
      `// ${before.name}: ${before.why}`,
      `if (${before.requires.map((n) => `pm.collectionVariables.get(${js(n)})`).join(' && ')}) {`,
      `  const again = JSON.parse(pm.variables.replaceIn(${js(JSON.stringify(request))}));`,
      `  pm.sendRequest(again, (err, res) => console.log(${js(`${before.name}: `)} + (err ? err.message : res.code)));`,
      '}',
    );
  }
  return lines;
}

export function portmanFiles(plan: RecipePlan, doc: JsonObject): Record<string, string> {
  const explicit = withExplicitSuccessCodes(doc);
  const main = plan.steps.filter((s) => s.name === s.operationId);
  const again = plan.steps.find((s) => s.name === 'createUserDisclosureAgain');
  const urlOf = (s: RecipeStep) => `{{${s.base}}}${s.path}`;
  const pathOf = (s: RecipeStep) => `${s.method}::${s.path}`;
  const config = {
    version: 1.0,
    tests: {
      contractTests: [
        { openApiOperation: '*::/*', jsonBody: { enabled: true } },
        { openApiOperation: '*::/*', schemaValidation: { enabled: true } },
      ],
      extendTests: main.map((s) => ({ openApiOperationId: s.operationId, tests: tests(s) })),
    },
    overwrites: main.map((s) => overwrite(explicit, s)),
    operationPreRequestScripts: main
      .map((s) => ({
        openApiOperationId: s.operationId,
        scripts: preRequest(s, s.operationId === 'deleteUserDisclosure' ? again : undefined, urlOf),
      }))
      .filter((p) => p.scripts.length),
    globals: { orderOfOperations: main.map(pathOf) },
  };
  const environment = {
    name: `DBSI recipe: ${plan.name}`,
    values: [
      ...Object.entries(plan.urls).map(([key, value]) => ({ key, value, type: 'default', enabled: true })),
      ...main.flatMap((s) =>
        Object.entries(s.pathParams)
          .filter(([key]) => embedded(s, key))
          .map(([key, value]) => ({ key, value: encodeURIComponent(value), type: 'default', enabled: true })),
      ),
      ...Object.keys(SECRET_VARIABLES).map((key) => ({ key, value: '', type: 'secret', enabled: true })),
    ],
  };
  const json = (x: unknown) => `${JSON.stringify(x, null, 2)}\n`;
  return {
    'dbsi.openapi.json': json(explicit),
    'portman-config.json': json(config),
    'postman-environment.json': json(environment),
  };
}
