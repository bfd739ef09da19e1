import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, test } from 'vitest';
import { buildOpenApiDocument } from '../harness/openapi/document';
import {
  forTarget,
  RenderingError,
  targetBaseUrls,
  targetDeclarations,
  toOpenApi30,
} from '../harness/openapi/renderings';
import { operationsOf, type Doc } from './_openapi';

/**
 * Issue 30: `npm run openapi -- --config FILE` renders what the configuration declares the target does differently
 * from the spec: a declared path (paths) and a base URL of its own for contact info (contactInfoBaseUrl) put the
 * operation where the target serves it, named in x-declared-deviations; x-spec-path keeps the spec's path.
 */
const doc = buildOpenApiDocument({ specUrl: 'https://spec.example/spec.md' }) as Doc;
const BASES = {
  baseUrl: 'https://bank.example/api',
  authBaseUrl: 'https://bank.example/identity',
  transfersBaseUrl: 'https://bank.example/banking',
};
const find = (d: Doc, id: string) => operationsOf(d).find((o) => o.op.operationId === id)!;

async function valid(d: unknown): Promise<void> {
  const result = await new Validator().validate(d as Parameters<Validator['validate']>[0]);
  expect(result.errors, JSON.stringify(result.errors)?.slice(0, 1000)).toBeUndefined();
}

describe('--config renders the declared deviations', () => {
  test('a declared path and a contactInfoBaseUrl under the same origin', async () => {
    const config = {
      ...BASES,
      contactInfoBaseUrl: 'https://bank.example/gateway/contact',
      paths: { updateContactInfo: '/customers/{customerId}/contact-info' },
    };
    const declared = targetDeclarations(config, 'bank.json');
    expect(declared).toEqual({
      paths: config.paths,
      contactInfoBaseUrl: 'https://bank.example/gateway/contact',
    });
    const d = forTarget(doc, targetBaseUrls(config, 'bank.json'), 'bank.json', {}, declared) as Doc;
    const ci = find(d, 'updateContactInfo');
    expect(ci.path).toBe('/gateway/contact/customers/{customerId}/contact-info');
    expect(ci.op['x-spec-path']).toBe('/customers/{customerId}:contact-info');
    expect(ci.op['x-base-url']).toBe('contactInfoBaseUrl');
    expect(ci.op['x-declared-deviations']).toEqual([
      "paths.updateContactInfo: served at /customers/{customerId}/contact-info instead of the spec's " +
        '/customers/{customerId}:contact-info',
      'contactInfoBaseUrl: served under https://bank.example/gateway/contact instead of baseUrl ' +
        'https://bank.example/api',
    ]);
    // Every other operation as before, no deviation named.
    const list = find(d, 'listInstitutionDisclosures');
    expect(list.path).toBe('/api/db-disclosures/v1/institution-disclosures');
    expect(list.op['x-declared-deviations']).toBeUndefined();
    expect(String((d.info as { description: string }).description)).toContain(
      'Declared deviations of bank.json (the configuration says the target differs from the spec): ' +
        'paths.updateContactInfo /customers/{customerId}/contact-info, contactInfoBaseUrl https://bank.example/gateway',
    );
    await valid(d);
    await valid(toOpenApi30(d));
  });

  test('a contactInfoBaseUrl at another origin gets a server of its own; equal to baseUrl it is none', async () => {
    const config = { ...BASES, contactInfoBaseUrl: 'https://gateway.example/v1' };
    const d = forTarget(doc, targetBaseUrls(config, 'b.json'), 'b.json', {}, targetDeclarations(config, 'b.json'));
    const ci = find(d as Doc, 'updateContactInfo');
    expect(ci.path).toBe('/v1/customers/{customerId}:contact-info');
    expect(ci.op.servers).toEqual([{ url: 'https://gateway.example', description: expect.stringContaining('b.json') }]);
    await valid(d);
    expect(targetDeclarations({ ...BASES, contactInfoBaseUrl: `${BASES.baseUrl}/` }, 'b.json')).toEqual({});
    expect(() => targetDeclarations({ ...BASES, contactInfoBaseUrl: 'ftp://x' }, 'b.json')).toThrow(
      new RenderingError('b.json: contactInfoBaseUrl is not an http(s) URL'),
    );
  });
});
