import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { buildOpenApiDocument } from '../harness/openapi/document';
import { recipeFiles, RECIPE_TOOLS } from '../harness/openapi/recipe-files';
import { SECRET_VARIABLES } from '../harness/openapi/recipe-plan';
import { recipePlan } from '../harness/openapi/recipe-requests';
import { mediaTypePattern } from '../harness/openapi/recipe-stepci';
import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { operationsOf, type Doc } from './_openapi';
import { ROOT } from './_spawn-cli';

/**
 * The recipes (npm run recipe; docs/recipes.md), without any tool installed: the files are well-formed, send
 * every operation with the credentials of its own scheme, carry no secret of the configuration (only the names
 * of the variables that carry them), and the Dredd hooks compare media types as media types and make each
 * transaction the recipe's request. npm run recipes-check runs the tools themselves (outside npm test).
 */

const doc = buildOpenApiDocument({ specUrl: 'https://spec.example/spec.md' }) as Doc;
const URLS = {
  baseUrl: 'http://127.0.0.1:4711/dbsi',
  authBaseUrl: 'http://127.0.0.1:4711/identity',
  transfersBaseUrl: 'http://127.0.0.1:4711/banking',
};
// A configuration that holds its secrets in the file: none of them may reach a recipe.
const ALL = { moneyMovement: true, contactUpdate: true, tokenRevocation: true, institutionDisclosureWrites: true };
const config = {
  name: 'ref',
  allow: ALL,
  ...URLS,
  callingAppId: 'recipe-test',
  credentials: { ...REFERENCE_CREDENTIALS },
  testData: { ...REFERENCE_TEST_DATA, institutionCustomerId: 'biz-9', accountType: 'CHECKING' },
};
const SECRETS = [
  ...Object.values(REFERENCE_CREDENTIALS),
  REFERENCE_TEST_DATA.revocation.password,
  REFERENCE_TEST_DATA.revocation.refresh_token,
];
const OPERATIONS = operationsOf(doc).map((o) => o.op.operationId);

describe('the recipe plan and the files of each tool', () => {
  const plan = recipePlan(doc, config, 'ref.json');

  test('every operation of the document once (the create of a record twice), each with its own scheme', () => {
    const main = plan.steps.filter((s) => s.name === s.operationId).map((s) => s.operationId);
    // An operation with no step written yet (a new one) is named as left out, with why; none is silently missing.
    const unwritten = plan.omitted.filter((o) => /no recipe step/.test(o.why)).map((o) => o.operationId);
    expect([...main, ...unwritten].sort()).toEqual([...OPERATIONS].sort());
    const scheme = Object.fromEntries(plan.steps.map((s) => [s.operationId, s.auth.securityScheme]));
    for (const o of operationsOf(doc)) {
      const documented = Object.keys((o.op.security as object[] | undefined)?.[0] ?? {})[0] ?? 'disclosuresBearer';
      expect(scheme[o.op.operationId], o.op.operationId).toBe(documented);
    }
    expect(plan.steps.find((s) => s.name === 'createTransfer')!.auth).toMatchObject({ token: '{{transfersToken}}' });
    expect(plan.steps.find((s) => s.name === 'revokeToken')!.auth).toMatchObject({ scheme: 'basic' });
    const byId = plan.steps.filter((s) => /ById$/.test(s.name));
    for (const s of byId) expect(s.requires).toContain('institutionUserDisclosureId');
  });

  test('an operation whose safety switch is off is left out, said, and not in the document a tool is given', () => {
    const off = { ...config, allow: { moneyMovement: false, contactUpdate: true, tokenRevocation: true } };
    const p = recipePlan(doc, off, 'off.json');
    expect(p.omitted.map((o) => o.operationId)).toContain('createTransfer');
    expect(p.omitted.find((o) => o.operationId === 'createInstitutionDisclosure')?.why).toBe(
      'allow.institutionDisclosureWrites is not true in off.json (it writes)',
    );
    expect(p.steps.map((s) => s.operationId)).toEqual([
      'listInstitutionDisclosures',
      'listUserDisclosures',
      'revokeToken',
      'updateContactInfo',
    ]);
    for (const [tool, name] of [
      ['portman', 'dbsi.openapi.json'],
      ['dredd', 'dbsi.openapi30.json'],
    ] as const) {
      const d = JSON.parse(recipeFiles(tool, doc, off, 'off.json')[name]!) as Doc;
      expect(
        operationsOf(d)
          .map((o) => o.op.operationId)
          .sort(),
      ).toEqual(p.steps.map((s) => s.operationId).sort());
    }
  });

  test.each(RECIPE_TOOLS)('%s: no secret of the configuration in any file, only the variables', (tool) => {
    const files = recipeFiles(tool, doc, config, 'ref.json');
    const all = Object.values(files).join('\n');
    for (const secret of SECRETS) expect(all, `${tool} carries a secret`).not.toContain(secret);
    expect(all).toMatch(/bearerToken/);
    expect(all).toMatch(/transfersToken/);
    for (const [name, content] of Object.entries(files))
      if (name.endsWith('.json')) expect(() => JSON.parse(content)).not.toThrow();
  });

  test('Step CI: 13 steps at their base URLs, secrets as ${{ secrets.… }}, the ids captured and carried', () => {
    const w = parse(recipeFiles('stepci', doc, config, 'ref.json')['workflow.yml']!) as {
      config: { continueOnFail: boolean };
      tests: { operations: { steps: { name: string; if?: string; http: Record<string, any> }[] } };
    };
    const steps = w.tests.operations.steps;
    expect(steps).toHaveLength(13);
    expect(w.config.continueOnFail).toBe(true);
    const at = (name: string) => steps.find((s) => s.name.startsWith(`${name}:`))!;
    expect(at('revokeToken').http.url).toBe(`${URLS.authBaseUrl}/oauth2/v1/revoke`);
    expect(at('revokeToken').http.auth.basic.password).toBe('${{ secrets.revocationClientSecret }}');
    expect(at('createTransfer').http.headers.Authorization).toBe('Bearer ${{ secrets.transfersToken }}');
    expect(at('createInstitutionDisclosure').http.captures.institutionDisclosureId.jsonpath).toBe(
      '$.institutionDisclosureId',
    );
    expect(at('changeUserDisclosureById').if).toBe('captures.institutionUserDisclosureId');
    expect(at('changeUserDisclosureById').http.url).toBe(
      `${URLS.baseUrl}/db-disclosures/v1/institution-user-disclosures/\${{ captures.institutionUserDisclosureId }}` +
        '?InstitutionCustomerId=biz-9',
    );
    expect(at('updateContactInfo').http.url).toBe(`${URLS.baseUrl}/customers/cust%2F7%2001:contact-info`);
    expect(at('createUserDisclosure').http.check.status).toBe(204);
    expect(at('listInstitutionDisclosures').http.check.status).toEqual([{ gte: 200 }, { lte: 299 }]);
    // The listed id, whatever the order of the members, only for the created disclosure.
    const regex = new RegExp(
      (at('listUserDisclosures').http.captures.institutionUserDisclosureId.regex as string).replace(
        '${{ captures.institutionDisclosureId }}',
        'disc-9',
      ),
    );
    const body = (records: object[]) => JSON.stringify({ institutionUserDisclosures: records });
    const mine = { institutionUserDisclosureId: 'uds-2', institutionDisclosureId: 'disc-9' };
    const other = { institutionDisclosureId: 'disc-1', institutionUserDisclosureId: 'uds-1' };
    expect(body([other, mine]).match(regex)?.[1]).toBe('uds-2');
    expect(body([{ ...mine, institutionDisclosureId: undefined, x: 'disc-9' }, other]).match(regex)).toBeNull();
    expect(JSON.stringify({ a: [{ institutionDisclosureId: 'disc-9', n: 1 }] }).match(regex)).toBeNull();
  });

  test('Step CI media type pattern: any case, any parameter, nothing else', () => {
    const re = new RegExp(mediaTypePattern('application/json'));
    for (const ok of ['application/json', 'application/json;charset=UTF-8', 'Application/JSON ; charset=utf-8'])
      expect(re.test(ok), ok).toBe(true);
    for (const no of ['application/jsonp', 'text/json', 'application/problem+json', ''])
      expect(re.test(no), no).toBe(false);
  });

  test('an operation of the document with no recipe step is named as left out, not silently missing', () => {
    const extra = structuredClone(doc) as Doc & { paths: Record<string, unknown> };
    extra.paths['/scratch/{id}'] = { get: { operationId: 'scratchRead', responses: { '200': { description: 'ok' } } } };
    const omitted = recipePlan(extra, config, 'ref.json').omitted;
    expect(omitted).toContainEqual({ operationId: 'scratchRead', why: expect.stringMatching(/no recipe step/) });
    expect(recipePlan(doc, config, 'ref.json').omitted.filter((o) => /no recipe step/.test(o.why))).toEqual([]);
  });

  test('Portman: each operation overwritten with its request and scheme; the environment holds no secret', () => {
    const files = recipeFiles('portman', doc, config, 'ref.json');
    const c = JSON.parse(files['portman-config.json']!) as {
      overwrites: { openApiOperationId: string; overwriteRequestSecurity: any; overwriteRequestQueryParams: any[] }[];
      globals: { orderOfOperations: string[] };
      operationPreRequestScripts: { openApiOperationId: string; scripts: string[] }[];
    };
    expect(c.overwrites.map((o) => o.openApiOperationId).sort()).toEqual([...OPERATIONS].sort());
    const of = (id: string) => c.overwrites.find((o) => o.openApiOperationId === id)!;
    expect(of('createTransfer').overwriteRequestSecurity).toEqual({ bearer: { token: '{{transfersToken}}' } });
    expect(of('revokeToken').overwriteRequestSecurity).toEqual({
      basic: { username: '{{revocationClientId}}', password: '{{revocationClientSecret}}' },
    });
    expect(of('listInstitutionDisclosures').overwriteRequestSecurity).toEqual({ bearer: { token: '{{bearerToken}}' } });
    expect(c.globals.orderOfOperations[0]).toBe('GET::/db-disclosures/v1/institution-disclosures');
    const skip = c.operationPreRequestScripts.find((p) => p.openApiOperationId === 'deleteUserDisclosureById')!;
    expect(skip.scripts.join('\n')).toContain('pm.execution.skipRequest()');
    const env = JSON.parse(files['postman-environment.json']!) as { values: { key: string; value: string }[] };
    for (const name of Object.keys(SECRET_VARIABLES)) expect(env.values.find((x) => x.key === name)?.value).toBe('');
    expect(env.values.find((x) => x.key === 'customerId')?.value).toBe('cust%2F7%2001');
  });
});

type Hook = (t: any, done: () => void) => void;

describe('the Dredd hooks of a recipe, in-process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dbsi-recipe-dredd-'));
  const files = recipeFiles('dredd', doc, config, 'ref.json');
  writeFileSync(join(dir, 'hooks.cjs'), files['dredd-hooks.cjs']!);
  const hooksModule = createRequire(import.meta.url)(join(dir, 'hooks.cjs')) as {
    register: (hooks: object, read: () => unknown, recipe?: unknown, run?: unknown) => void;
    recipe: { steps: unknown[] };
    mediaType: (v: string) => string;
    sameMediaTypes: (e: Record<string, string>, r: Record<string, string>) => Record<string, string>;
  };
  const recipe = hooksModule.recipe;

  test('Content-Type compared as a media type: parameters and case do not matter, the type does', () => {
    const { sameMediaTypes, mediaType } = hooksModule;
    expect(mediaType(' Application/JSON ; charset=UTF-8')).toBe('application/json');
    const expected = { 'Content-Type': 'application/json' };
    expect(sameMediaTypes(expected, { 'content-type': 'application/json;charset=UTF-8' })).toEqual({
      'Content-Type': 'application/json;charset=UTF-8',
    });
    expect(sameMediaTypes(expected, { 'content-type': 'text/html; charset=utf-8' })).toEqual(expected);
    expect(sameMediaTypes(expected, {})).toEqual(expected);
  });

  test('each transaction is the recipe request: its scheme, secrets from the environment, ids, skips', async () => {
    const registered: Record<string, Hook> = {};
    const logs: string[] = [];
    const sent: { url: string; init: any }[] = [];
    const on = (k: string) => (fn: Hook) => (registered[k] = fn);
    const hooks = {
      beforeAll: on('all'),
      beforeEach: on('each'),
      afterEach: on('after'),
      beforeEachValidation: on('validation'),
      log: (m: string) => logs.push(m),
    };
    const d30 = JSON.parse(files['dbsi.openapi30.json']!) as Doc;
    const env = Object.fromEntries(Object.values(SECRET_VARIABLES).map((n) => [n, `value-of-${n}`]));
    const { recipeRunner } = hooksModule as unknown as { recipeRunner: (...a: unknown[]) => unknown };
    let listed: object[] = [];
    const send = async (url: string, init: any) => {
      sent.push({ url, init });
      const body = init.method === 'GET' ? JSON.stringify({ institutionUserDisclosures: listed }) : '';
      return { status: init.method === 'GET' ? 200 : 204, text: async () => body };
    };
    // The hook file registers with process.env and fetch; here the same hooks with a test's env and sender.
    const runner = recipeRunner(recipe, hooks, env, send);
    hooksModule.register(hooks, () => d30, recipe, runner);
    const t = (path: string, method: string, status: string) => ({
      name: `${path} > ${method} > ${status}`,
      origin: { resourceName: path },
      request: { method, headers: { 'User-Agent': 'Dredd' }, uri: path, body: '' },
      expected: { statusCode: status, headers: { 'Content-Type': 'application/json' } },
      fullPath: path,
    });
    const create = t('/dbsi/db-disclosures/v1/institution-disclosures', 'POST', '200');
    const revoke = t('/identity/oauth2/v1/revoke', 'DELETE', '200');
    const byId = t('/dbsi/db-disclosures/v1/institution-user-disclosures/{institutionUserDisclosureId}', 'PUT', '204');
    const transfer = t('/banking/db-transfers/v1/transfers', 'POST', '200');
    registered.all!([create, revoke, byId, transfer], () => {});
    const each = (x: any) => new Promise<void>((r) => registered.each!(x, r));
    await each(create);
    expect(create.request.headers).toMatchObject({
      Authorization: `Bearer value-of-DBSI_BEARER_TOKEN`,
      'User-Agent': 'Dredd',
      InstitutionId: '1001',
    });
    expect(JSON.parse(create.request.body)).toMatchObject({ institutionDisclosureStatus: true });
    (create as any).real = { statusCode: 201, body: '{"institutionDisclosureId":"disc-77"}', headers: {} };
    registered.after!(create, () => {});
    await each(revoke);
    const basic = Buffer.from('value-of-DBSI_REVOCATION_CLIENT_ID:value-of-DBSI_REVOCATION_CLIENT_SECRET');
    expect(revoke.request.headers).toMatchObject({ Authorization: `Basic ${basic.toString('base64')}` });
    expect(JSON.parse(revoke.request.body).refresh_token).toBe('value-of-DBSI_REVOCATION_REFRESH_TOKEN');
    await each(transfer);
    expect(transfer.request.headers).toMatchObject({ Authorization: 'Bearer value-of-DBSI_TRANSFERS_TOKEN' });
    // The list shows no id: the change by id is skipped, said, and the record made for it deleted again.
    await each(byId);
    expect((byId as any).skip).toBe(true);
    expect(logs.join('\n')).toMatch(/skipped, the target showed no institutionUserDisclosureId/);
    expect(sent.map((s) => s.init.method)).toEqual(['POST', 'GET', 'DELETE']);
    // The list shows it: the change goes to that id.
    listed = [{ institutionDisclosureId: 'disc-77', institutionUserDisclosureId: 'uds 5' }];
    const again = t(byId.origin.resourceName, 'PUT', '204');
    registered.all!([create, revoke, again, transfer], () => {});
    await each(again);
    expect((again as any).skip).toBeUndefined();
    expect(again.fullPath).toBe(
      '/dbsi/db-disclosures/v1/institution-user-disclosures/uds%205?InstitutionCustomerId=biz-9',
    );
    expect(JSON.parse(again.request.body).institutionDisclosureId).toBe('disc-77');
  });
});

describe('npm run recipe', () => {
  const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const recipe = (args: string[]) =>
    spawnSync(process.execPath, ['--import', TSX, join(ROOT, 'bin/recipe.ts'), ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });

  test('writes every tool from a configuration; one message and exit 2 on a bad option', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbsi-recipe-cli-'));
    writeFileSync(join(dir, 'target.json'), JSON.stringify(config));
    const ok = recipe(['--tool', 'all', '--config', join(dir, 'target.json'), '--out', dir]);
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect(readFileSync(join(dir, 'stepci', 'workflow.yml'), 'utf8')).toContain('${{ secrets.bearerToken }}');
    const unknown = recipe(['--tool', 'postman', '--config', join(dir, 'target.json')]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^dbsi-conformance recipe: --tool is one of portman, stepci, dredd or all/);
    const noTestData = join(dir, 'bare.json');
    writeFileSync(noTestData, JSON.stringify({ ...URLS }));
    const bare = recipe(['--tool', 'stepci', '--config', noTestData, '--out', dir]);
    expect(bare.status).toBe(2);
    expect(bare.stderr).toMatch(/bare\.json: testData\.institutionId is missing/);
  });
});
