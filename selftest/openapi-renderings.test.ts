import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, test } from 'vitest';
import { buildOpenApiDocument } from '../harness/openapi/document';
import { OPERATION_DOCUMENTATION } from '../harness/operations-documented';
import {
  forTarget,
  OPENAPI_30_LOSSES,
  pathExamples,
  RenderingError,
  SUCCESS_CODES,
  targetBaseUrls,
  toOpenApi30,
  withExplicitSuccessCodes,
} from '../harness/openapi/renderings';
import { operationsOf, type Doc } from './_openapi';
import { ROOT } from './_spawn-cli';

/**
 * The renderings of the document for tools that cannot read it as it is (npm run openapi -- --openapi 3.0,
 * --explicit-success-codes, --config FILE): valid OpenAPI of their version, the same twelve operations,
 * and nothing claimed that the 3.1 document does not claim.
 */

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const runOpenapi = (args: string[]) =>
  spawnSync(process.execPath, ['--import', TSX, join(ROOT, 'bin/openapi.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });

const doc = buildOpenApiDocument({ specUrl: 'https://spec.example/spec.md' }) as Doc;
const pairs = (d: Doc) =>
  operationsOf(d)
    .map((o) => `${o.method} ${String(o.op['x-spec-path'] ?? o.path)}`)
    .sort();
const REFERENCE = {
  baseUrl: 'http://127.0.0.1:4711/dbsi',
  authBaseUrl: 'http://127.0.0.1:4711/identity',
  transfersBaseUrl: 'http://127.0.0.1:4711/banking',
};
/** The operations whose success status is not shown: a 2XX response in their documented facts. */
const RANGED = Object.entries(OPERATION_DOCUMENTATION)
  .filter(([, d]) => d.responses.some((r) => r.status === '2XX'))
  .map(([key]) => key);

async function validOpenApi(d: unknown): Promise<string> {
  const validator = new Validator();
  const result = await validator.validate(d as Parameters<Validator['validate']>[0]);
  expect(result.errors, JSON.stringify(result.errors, null, 2)?.slice(0, 2000)).toBeUndefined();
  expect(result.valid).toBe(true);
  return validator.version;
}

describe('--openapi 3.0 (for Dredd, which reads no 3.1)', () => {
  test('--openapi 3.0 writes OpenAPI 3.0.3 that the validator accepts as 3.0, with the same 12 pairs', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'dbsi-openapi30-')), 'x.json');
    const r = runOpenapi(['--out', out, '--openapi', '3.0']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('OpenAPI 3.0.3 document');
    const written = JSON.parse(readFileSync(out, 'utf8')) as Doc;
    expect(written.openapi).toBe('3.0.3');
    expect(await validOpenApi(written)).toBe('3.0');
    expect(pairs(written)).toEqual(pairs(doc));
    const bad = runOpenapi(['--out', out, '--openapi', '2.0']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^dbsi-conformance openapi: --openapi is 3.1 or 3.0/);
  });

  test('says what it loses, keeps every value shown (example + x-examples), wraps $ref siblings in allOf', () => {
    const d30 = toOpenApi30(doc) as Doc;
    const info = d30.info as { description: string; summary?: string };
    for (const loss of OPENAPI_30_LOSSES) expect(info.description).toContain(loss);
    expect(info.summary).toBeUndefined();
    const schemas = JSON.stringify(d30.components.schemas);
    expect(schemas).not.toContain('"examples"');
    const status = (d30.components.schemas['institution-user-disclosure']!.properties as Record<string, object>)
      .institutionUserDisclosureStatus;
    expect(status).toMatchObject({ example: 'ACCEPTED', 'x-examples': ['ACCEPTED', 'NOT_ACCEPTED'] });
    // A $ref with siblings (transfer-error: title, description, x- members) is allOf: 3.0 ignores them.
    const walk = (n: unknown): void => {
      if (Array.isArray(n)) n.forEach(walk);
      else if (n && typeof n === 'object') {
        if ('$ref' in n) expect(Object.keys(n), JSON.stringify(n)).toEqual(['$ref']);
        Object.values(n).forEach(walk);
      }
    };
    walk(d30.components.schemas);
    walk(d30.paths);
    const error = d30.components.schemas['transfer-error'];
    expect(error).toMatchObject({ allOf: [{ $ref: '#/components/schemas/code-message-error' }] });
    // The responses are the 3.1 document's: 2XX where the success code is not shown.
    for (const o of operationsOf(d30)) {
      expect(Object.keys(o.op.responses), o.op.operationId).toEqual(Object.keys(byId(o.op.operationId).responses));
    }
  });

  test('a keyword OpenAPI 3.0 cannot say is refused, naming the place, rather than dropped', () => {
    const odd = structuredClone(doc);
    (odd.components.schemas['money']!.properties as Record<string, unknown>).currencyCode = { const: 'AED' };
    expect(() => toOpenApi30(odd)).toThrow(RenderingError);
    expect(() => toOpenApi30(odd)).toThrow('schemas/money/properties/currencyCode: const');
  });
});

function byId(id: string) {
  return operationsOf(doc).find((o) => o.op.operationId === id)!.op;
}

describe('--explicit-success-codes (for Portman, which makes no test for 2XX, and Step CI, which checks .nan)', () => {
  test('each 2XX is written out as 200 to 299 with the same response; nothing else changes; valid 3.1', async () => {
    const d = withExplicitSuccessCodes(doc) as Doc;
    expect(await validOpenApi(d)).toBe('3.1');
    expect(JSON.stringify(d.paths)).not.toContain('"2XX"');
    expect(SUCCESS_CODES).toHaveLength(100);
    expect(RANGED).toEqual(
      expect.arrayContaining(['listInstitutionDisclosures', 'createInstitutionDisclosure', 'listUserDisclosures']),
    );
    for (const o of operationsOf(d)) {
      const before = byId(o.op.operationId).responses;
      if (RANGED.includes(o.op.operationId)) {
        expect(Object.keys(o.op.responses), o.op.operationId).toEqual([...SUCCESS_CODES, 'default']);
        for (const code of SUCCESS_CODES) expect(o.op.responses[code]).toEqual(before['2XX']);
        expect(o.op['x-success-codes-not-shown']).toContain('200 to 299');
      } else expect(o.op.responses, o.op.operationId).toEqual(before);
    }
    expect((d.info as { description: string }).description).toContain('--explicit-success-codes');
  });
});

describe('--config FILE (for tools that read one server: Step CI, Dredd, a Prism proxy)', () => {
  test("one server, the origin the three base URLs share; each path preceded by its own base URL's path", async () => {
    const d = forTarget(doc, REFERENCE, 'ref.json', { customerId: 'cust-7' }) as Doc;
    expect(await validOpenApi(d)).toBe('3.1');
    expect(d.servers).toEqual([expect.objectContaining({ url: 'http://127.0.0.1:4711' })]);
    expect(pairs(d)).toEqual(pairs(doc));
    const at = Object.fromEntries(operationsOf(d).map((o) => [o.op.operationId, o]));
    expect(at.revokeToken!.path).toBe('/identity/oauth2/v1/revoke');
    expect(at.createTransfer!.path).toBe('/banking/db-transfers/v1/transfers');
    expect(at.updateContactInfo!.path).toBe('/dbsi/customers/{customerId}:contact-info');
    for (const o of operationsOf(d)) {
      expect(o.op.servers, o.op.operationId).toBeUndefined();
      const base = { revokeToken: 'authBaseUrl', createTransfer: 'transfersBaseUrl' }[o.op.operationId] ?? 'baseUrl';
      expect(o.op['x-base-url']).toBe(base);
      for (const p of (o.op.parameters ?? []).filter((x) => x.in === 'path')) {
        expect(p.example, `${o.op.operationId} ${String(p.name)}`).toBeTypeOf('string');
      }
    }
    const customerId = at.updateContactInfo!.op.parameters![0];
    expect(customerId).toMatchObject({ example: 'cust-7', 'x-example-source': expect.stringContaining('ref.json') });
    expect(await validOpenApi(toOpenApi30(withExplicitSuccessCodes(d)))).toBe('3.0');
  });

  test('reads base URLs and path examples of a configuration; refuses different origins, non-URLs (exit 2)', () => {
    const example = JSON.parse(readFileSync(join(ROOT, 'config/example.target.json'), 'utf8')) as object;
    expect(targetBaseUrls(example, 'x.json')).toEqual({
      baseUrl: 'https://sandbox.acme-bank.example/digital/api',
      authBaseUrl: 'https://sandbox.acme-bank.example/identity',
      transfersBaseUrl: 'https://sandbox.acme-bank.example/banking',
    });
    const examples = { customerId: 'conformance-customer-01', institutionDisclosureId: 'esign-2024' };
    expect(pathExamples(example)).toEqual(examples);
    const ftp = { ...REFERENCE, authBaseUrl: 'ftp://x' };
    expect(() => targetBaseUrls(ftp, 'x.json')).toThrow('x.json: authBaseUrl is not an http(s) URL');
    expect(() => targetBaseUrls({ baseUrl: REFERENCE.baseUrl }, 'x.json')).toThrow('x.json: authBaseUrl is missing');
    const dir = mkdtempSync(join(tmpdir(), 'dbsi-openapi-config-'));
    writeFileSync(join(dir, 'two.json'), JSON.stringify({ ...REFERENCE, authBaseUrl: 'https://idp.example/identity' }));
    const r = runOpenapi(['--out', join(dir, 'x.json'), '--config', join(dir, 'two.json')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^dbsi-conformance openapi: .*two\.json: the three base URLs do not share one origin/);
    writeFileSync(join(dir, 'one.json'), JSON.stringify(REFERENCE));
    const one = runOpenapi(['--out', join(dir, 'x.json'), '--config', join(dir, 'one.json')]);
    expect(one.status, one.stderr).toBe(0);
    const written = readFileSync(join(dir, 'x.json'), 'utf8');
    expect(written).toContain('one.json');
    expect(written, 'no local path in a document meant to be shared').not.toContain(dir);
    const missing = runOpenapi(['--out', join(dir, 'x.json'), '--config', join(dir, 'none.json')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^dbsi-conformance openapi: .*none\.json does not exist/);
  });
});

describe('docs/dredd-hooks.cjs (Dredd reads 2XX and default as 200, and tests every documented response)', () => {
  type Hook = (x: unknown, done: () => void) => void;
  type Transaction = {
    name: string;
    origin: { resourceName: string };
    request: { method: string };
    expected: { statusCode: string; bodySchema?: string };
    real?: { statusCode: number };
    skip?: boolean;
  };

  test('only the first response of each operation is tested; any 2xx passes for 2XX; bodies by the document', () => {
    const { register } = createRequire(import.meta.url)('../docs/dredd-hooks.cjs') as {
      register: (hooks: object, read: () => unknown) => void;
    };
    const d30 = toOpenApi30(forTarget(doc, REFERENCE, 'ref.json')) as Doc;
    const registered: Record<string, Hook> = {};
    const logs: string[] = [];
    const on = (k: string) => (fn: Hook) => (registered[k] = fn);
    const hooks = { beforeAll: on('all'), beforeEach: on('each'), beforeEachValidation: on('validation') };
    register({ ...hooks, log: (m: string) => logs.push(m) }, () => d30);
    const t = (path: string, method: string, status: string, n = ''): Transaction => ({
      name: `${path} > ${method} > ${status}${n}`,
      origin: { resourceName: path },
      request: { method },
      expected: { statusCode: status },
    });
    const list = t('/dbsi/db-disclosures/v1/institution-disclosures', 'GET', '200');
    const listDefault = t('/dbsi/db-disclosures/v1/institution-disclosures', 'GET', '200', ' (default)');
    const revoke = t('/identity/oauth2/v1/revoke', 'DELETE', '200');
    const revoke400 = t('/identity/oauth2/v1/revoke', 'DELETE', '400');
    const all = [list, listDefault, revoke, revoke400];
    registered.all!(all, () => {});
    for (const x of all) registered.each!(x, () => {});
    expect(all.map((x) => !!x.skip)).toEqual([false, true, false, true]);
    expect(logs.join('\n')).toContain('response 400 is not the success response');
    list.real = { statusCode: 203 };
    revoke.real = { statusCode: 201 };
    for (const x of [list, revoke]) registered.validation!(x, () => {});
    expect(list.expected.statusCode).toBe('203');
    expect(revoke.expected.statusCode).toBe('200'); // revocation shows 200: no other code passes
    const schema = JSON.parse(list.expected.bodySchema!) as { allOf: unknown[]; components: unknown };
    const used = ['institution-disclosure', 'institution-disclosure-list', 'institution-disclosure-list-element'];
    expect(schema.components).toEqual({ schemas: Object.fromEntries(used.map((n) => [n, d30.components.schemas[n]])) });
    expect(JSON.stringify(schema.allOf)).toContain('#/components/schemas/institution-disclosure-list-element');
  });
});

describe('docs/portman-config.json (Portman gives both Bearer schemes one {{bearerToken}})', () => {
  test('sends the transfer with {{transfersToken}}: the operations transfersBearer secures, by operationId', () => {
    const config = JSON.parse(readFileSync(join(ROOT, 'docs/portman-config.json'), 'utf8')) as {
      overwrites: { openApiOperationId: string; overwriteRequestSecurity: unknown }[];
    };
    const secured = operationsOf(doc).filter((o) => JSON.stringify(o.op.security ?? []).includes('transfersBearer'));
    expect(config.overwrites.map((o) => o.openApiOperationId)).toEqual(secured.map((o) => o.op.operationId));
    expect(config.overwrites[0]!.overwriteRequestSecurity).toEqual({ bearer: { token: '{{transfersToken}}' } });
  });
});
