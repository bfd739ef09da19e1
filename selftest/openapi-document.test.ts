import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { CATALOG } from '../requirements';
import { buildOpenApiDocument, DEFINED_IN } from '../harness/openapi/document';
import { OPERATIONS } from '../harness/operations';
import { OPERATION_DOCUMENTATION } from '../harness/operations-documented';
import { SCHEMA_DIR } from '../harness/schemas';
import { SPEC_FILE } from '../harness/spec-location';
import { specSections } from '../harness/openapi/spec-sections';
import { documentValidator, operationsOf, type Doc } from './_openapi';
/**
 * The OpenAPI document, generated in-process: the spec's operations, and nothing the spec does not
 * state. The command (npm run openapi) as a user runs it: openapi-command.test.ts.
 */

const doc = buildOpenApiDocument({ specUrl: 'https://spec.example/spec.md' }) as Doc;
const ops = operationsOf(doc);
const byId = new Map(ops.map((o) => [o.op.operationId, o]));

describe("the document is generated from the suite's own data", () => {
  test('every spec schema of schemas/ (those with x-spec-section) is a component, and nothing else is', () => {
    const spec = readdirSync(SCHEMA_DIR)
      .filter((f) => f.endsWith('.schema.json'))
      .filter((f) => 'x-spec-section' in JSON.parse(readFileSync(join(SCHEMA_DIR, f), 'utf8')))
      .map((f) => f.replace('.schema.json', ''));
    const hoisted = Object.keys(doc.components.schemas).filter((n) => DEFINED_IN in doc.components.schemas[n]!);
    expect(
      Object.keys(doc.components.schemas)
        .filter((n) => !hoisted.includes(n))
        .sort(),
    ).toEqual(spec.sort());
    // The definitions of a schema are components of their own (Dredd refuses, and Step CI does not resolve,
    // a $ref into $defs).
    expect(hoisted.sort()).toEqual(['authentication-record-phoneNumbers', 'schedule-date']);
    expect(doc.components.schemas['schedule-date']).toMatchObject({
      format: 'date',
      [DEFINED_IN]: 'schemas/schedule.schema.json#/definitions/date',
    });
  });

  test('no $defs and no $ref into a schema: every $ref names a component (#/components/schemas/<name>)', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toContain('$defs');
    const refs = [...text.matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!);
    for (const r of refs) expect(r, r).toMatch(/^#\/components\/schemas\/[A-Za-z0-9._-]+$/);
    for (const r of refs) expect(doc.components.schemas, r).toHaveProperty([r.split('/').pop()!]);
    const props = (n: string) => doc.components.schemas[n]!.properties;
    expect(props('transfer')).toMatchObject({ schedule: { $ref: '#/components/schemas/schedule' } });
    expect(props('schedule')).toMatchObject({ startDate: { $ref: '#/components/schemas/schedule-date' } });
  });

  test(
    'every component is a valid JSON Schema 2020-12 with no draft-07 ' +
      'leftovers, and every $ref resolves inside the document',
    () => {
      const ajv = new Ajv2020({ strict: false });
      const text = JSON.stringify(doc.components.schemas);
      expect(text).not.toMatch(/"\$schema"|"\$id"|"definitions"|"dependencies"/);
      for (const [name, s] of Object.entries(doc.components.schemas))
        expect(ajv.validateSchema(s), `${name}: ${ajv.errorsText()}`).toBe(true);
      const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!);
      expect(refs.length).toBeGreaterThan(10);
      const validate = documentValidator(doc);
      for (const r of new Set(refs)) {
        expect(r.startsWith('#/components/schemas/'), r).toBe(true);
        expect(
          () =>
            validate(
              r
                .slice(2)
                .split('/')
                .map((p) => decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~')),
              {},
            ),
          r,
        ).not.toThrow();
      }
    },
  );

  test(
    'every operation of the operations table is in the document, under ' +
      'its operationId, with its spec section quoted',
    () => {
      const sections = specSections(readFileSync(SPEC_FILE, 'utf8'));
      expect([...byId.keys()].sort()).toEqual(Object.keys(OPERATIONS).sort());
      for (const [key, def] of Object.entries(OPERATIONS)) {
        const o = byId.get(key)!;
        expect(o.path).toBe(def.path);
        expect(o.method).toBe(def.method.toLowerCase());
        expect(o.op['x-spec-section']).toBe(def.section);
        expect(o.op.description as string).toContain(sections.get(def.section));
      }
    },
  );

  test(
    'every operation and schema carries a description, x-spec-section (a heading ' +
      'of the spec) and x-requirements (ids of the catalog)',
    () => {
      const headings = new Set(specSections(readFileSync(SPEC_FILE, 'utf8')).keys());
      const known = new Set(CATALOG.map((r) => r.id));
      const carriers = [
        ...ops.map((o) => [o.op.operationId, o.op] as const),
        ...Object.entries(doc.components.schemas),
      ];
      for (const [name, o] of carriers) {
        expect(typeof o.description === 'string' && o.description.length > 20, `${name} description`).toBe(true);
        expect(
          headings.has(o['x-spec-section'] as string),
          `${name} x-spec-section ` + `${String(o['x-spec-section'])}`,
        ).toBe(true);
        expect(Array.isArray(o['x-requirements']), `${name} x-requirements`).toBe(true);
        for (const id of [
          ...(o['x-requirements'] as string[]),
          ...((o['x-requirements-not-testable'] as string[] | undefined) ?? []),
        ])
          expect(known.has(id), `${name}: ${id}`).toBe(true);
      }
    },
  );

  test("every area is a tag described by the spec's own line for it", () => {
    const spec = readFileSync(SPEC_FILE, 'utf8');
    const tags = doc.tags as { name: string; description?: string }[];
    expect(tags.map((t) => t.name).sort()).toEqual([...new Set(Object.values(OPERATIONS).map((o) => o.area))].sort());
    for (const t of tags) expect(spec, t.name).toContain(t.description ?? '(no description)');
  });

  test(
    'an operation lists the checked catalog entries of its operation number in ' +
      'x-requirements, the "not shown" ones apart; of two forms, each its own',
    () => {
      for (const n of new Set(Object.values(OPERATIONS).map((d) => d.number))) {
        const forms = Object.entries(OPERATIONS)
          .filter(([, d]) => d.number === n)
          .map(([k]) => byId.get(k)!.op);
        const mine = CATALOG.filter((r) => r.operations.includes(n));
        const listed = (field: string) => new Set(forms.flatMap((o) => (o[field] as string[] | undefined) ?? []));
        expect([...listed('x-requirements')].sort(), `operation ${n}`).toEqual(
          mine
            .filter((r) => !r.notTestable)
            .map((r) => r.id)
            .sort(),
        );
        expect([...listed('x-requirements-not-testable')].sort(), `operation ${n}`).toEqual(
          mine
            .filter((r) => r.notTestable)
            .map((r) => r.id)
            .sort(),
        );
        if (forms.length === 1)
          expect(forms[0]!['x-requirements']).toEqual(mine.filter((r) => !r.notTestable).map((r) => r.id));
      }
      expect(byId.get('changeUserDisclosure')!.op['x-requirements']).toEqual(
        expect.arrayContaining(['OP6-REQUEST', 'OP6-STATUS-204']),
      );
      expect(byId.get('changeUserDisclosure')!.op['x-requirements']).not.toContain('OP6-REQUEST-BY-ID');
      expect(byId.get('deleteUserDisclosureById')!.op['x-requirements']).toEqual(
        expect.arrayContaining(['OP7-REQUEST-BY-ID', 'OP7-STATUS-204']),
      );
      expect(byId.get('deleteUserDisclosureById')!.op['x-requirements']).not.toContain('OP7-REQUEST');
      expect(byId.get('listInstitutionDisclosures')!.op['x-requirements']).toContain('OP1-RESPONSE-ENVELOPE');
      expect(doc.components.schemas['transfer']!['x-requirements']).toContain('OP9-RESPONSE-TRANSFER');
    },
  );

  test(
    'every documented parameter is a parameter (path, query, header), except Authorization, Accept and ' +
      'Content-Type, which OpenAPI ignores as parameters and the description names',
    () => {
      for (const [key, d] of Object.entries(OPERATION_DOCUMENTATION)) {
        const o = byId.get(key)!.op;
        for (const p of d.parameters) {
          const asParameter = o.parameters?.find((x) => x.name === p.name && x.in === p.in);
          if (p.in === 'header' && /^(authorization|accept|content-type)$/i.test(p.name)) {
            expect(asParameter, `${key} ${p.name}`).toBeUndefined();
            expect(o.description as string).toContain(`- ${p.name} (in `);
          } else {
            expect(asParameter, `${key} ${p.in} ${p.name}`).toBeDefined();
            expect(asParameter!.required, `${key} ${p.name}`).toBe(p.in === 'path' ? true : p.required);
          }
        }
      }
    },
  );
});

describe('where the spec says "not shown", the document does not invent', () => {
  test(
    'no success code where none is shown: 2XX for the GET operations and create/change ' +
      'institution disclosure; 204 with no content where the spec says so',
    () => {
      for (const key of [
        'listInstitutionDisclosures',
        'createInstitutionDisclosure',
        'changeInstitutionDisclosure',
        'listUserDisclosures',
      ]) {
        const codes = Object.keys(byId.get(key)!.op.responses);
        expect(codes, key).toContain('2XX');
        expect(
          codes.filter((c) => c.startsWith('2')),
          key,
        ).toEqual(['2XX']);
      }
      for (const key of [
        'createUserDisclosure',
        'changeUserDisclosure',
        'changeUserDisclosureById',
        'deleteUserDisclosure',
        'deleteUserDisclosureById',
        'updateContactInfo',
      ]) {
        const r = byId.get(key)!.op.responses;
        expect(
          Object.keys(r).filter((c) => c.startsWith('2')),
          key,
        ).toEqual(['204']);
        expect(r['204']!.content, key).toBeUndefined();
      }
    },
  );

  test(
    'errors "not shown" are a default response with no body; documented ' +
      'errors carry their shapes and there is no default',
    () => {
      for (const o of ops.filter((x) => x.path.startsWith('/db-disclosures') || x.path.startsWith('/customers'))) {
        expect(o.op.responses.default, o.op.operationId).toBeDefined();
        expect(o.op.responses.default!.content, o.op.operationId).toBeUndefined();
      }
      const revoke = byId.get('revokeToken')!.op.responses;
      expect(Object.keys(revoke).sort()).toEqual(['200', '400', '401', '500']);
      for (const s of ['400', '401', '500'])
        expect(revoke[s]!.content).toEqual({
          'application/json': { schema: { $ref: '#/components/schemas/token-revocation-error' } },
        });
      const transfer = byId.get('createTransfer')!.op.responses;
      expect(Object.keys(transfer).sort()).toEqual(['200', '400', '401', '403', '500']);
      for (const s of ['400', '401', '403', '500'])
        expect(transfer[s]!.content).toEqual({
          'application/json': { schema: { $ref: '#/components/schemas/transfer-error' } },
        });
    },
  );

  test(
    'no enumeration is closed beyond the values shown: an unlisted value is valid ' +
      'wherever values are only "shown" (the suite reports it as INFO)',
    () => {
      const validate = documentValidator(doc);
      const openValues: [string, Record<string, unknown>][] = [
        ['institution-disclosure', { institutionDisclosureDataType: 'PDF' }],
        ['institution-user-disclosure', { institutionUserDisclosureStatus: 'PENDING' }],
        [
          'transfer',
          {
            paymentOption: 'EXPRESS',
            status: 'PENDING',
            amount: { currencyCode: 'EUR', amount: 1 },
            schedule: { lifeType: 'NOENDDATE', frequency: 'WEEKLY' },
          },
        ],
        [
          'token-error',
          { statusMessage: 'x', errorInfo: { errorType: 'SYSTEM_ERROR', errorCode: 'E1', errorMessage: 'm' } },
        ],
        [
          'authentication-record',
          {
            alternateCredentialType: 'TOUCH_ID',
            requestChannel: 'MOBILE',
            status: 'AUTHENTICATED',
            grantType: 'PASSWORD',
          },
        ],
      ];
      for (const [name, data] of openValues) expect(validate(['components', 'schemas', name], data), name).toEqual([]);
      expect(doc.components.schemas['transfer']!.properties).toMatchObject({
        paymentOption: { examples: ['DEFAULT'] },
        status: { examples: ['SUCCESS'] },
      });
      // The one closed set: "Values: CUSTOMER_ID, LOGIN_ID", listed without "shown".
      const enums = [...JSON.stringify(doc.components.schemas).matchAll(/"enum":(\[[^\]]*\])/g)].map((m) => m[1]);
      expect(enums).toEqual(['["CUSTOMER_ID","LOGIN_ID"]']);
      expect(validate(['components', 'schemas', 'contact-update-request'], { userIdType: 'EMAIL' })).not.toEqual([]);
    },
  );

  test(
    'no required member the spec does not require: request bodies require ' +
      'nothing but oldPhoneNumber of a phone update',
    () => {
      const validate = documentValidator(doc);
      for (const o of ops.filter((x) => x.op.requestBody)) {
        const at = [...o.at, 'requestBody', 'content', 'application/json', 'schema'];
        expect(validate(at, {}), o.op.operationId).toEqual([]);
      }
      const contact = [...byId.get('updateContactInfo')!.at, 'requestBody', 'content', 'application/json', 'schema'];
      expect(validate(contact, { phoneNumber: { newPhoneNumber: '5550100' } }).join(' ')).toContain('oldPhoneNumber');
      expect(doc.components.schemas['institution-disclosure-create-request']!['x-members-the-suite-sends']).toEqual([
        'institutionId',
        'institutionDisclosureName',
        'institutionDisclosureStatus',
      ]);
    },
  );

  test(
    'security: Bearer for disclosures and transfers, HTTP Basic for revocation, ' +
      'none declared for contact info (not shown, and said so)',
    () => {
      expect(doc.components.securitySchemes).toMatchObject({
        disclosuresBearer: { type: 'http', scheme: 'bearer' },
        transfersBearer: { type: 'http', scheme: 'bearer' },
        revocationBasic: { type: 'http', scheme: 'basic' },
      });
      expect(doc.security).toBeUndefined();
      for (const o of ops) {
        const expected = o.path.startsWith('/db-disclosures')
          ? [{ disclosuresBearer: [] }]
          : o.path.endsWith('/revoke')
            ? [{ revocationBasic: [] }]
            : o.path.endsWith('/transfers')
              ? [{ transfersBearer: [] }]
              : undefined;
        expect(o.op.security, o.op.operationId).toEqual(expected);
      }
      const contact = byId.get('updateContactInfo')!.op;
      expect(contact['x-authentication-not-shown']).toContain(
        'Authentication of the contact-info ' + 'operations: not shown.',
      );
      expect(contact.description).toContain('Authentication of the contact-info operations: not shown.');
    },
  );

  test('servers: the three base URLs as server variables; revocation and transfers on their own, per operation', () => {
    const servers = doc.servers as JsonServer[];
    expect(servers).toHaveLength(1);
    expect(servers[0]!.url).toBe('{baseUrl}');
    expect(Object.keys(servers[0]!.variables)).toEqual(['baseUrl']);
    // No path-level servers (Portman and Dredd ignore them, Step CI makes a step of them): on the operation.
    for (const [p, item] of Object.entries(doc.paths)) expect(item, p).not.toHaveProperty('servers');
    const pathServer = (p: string) => {
      const [only, ...others] = Object.values(doc.paths[p]!);
      expect(others, p).toEqual([]);
      return (only!.servers as unknown as JsonServer[])[0]!;
    };
    expect(pathServer('/oauth2/v1/revoke').url).toBe('{authBaseUrl}');
    expect(pathServer('/db-transfers/v1/transfers').url).toBe('{transfersBaseUrl}');
    for (const s of [servers[0]!, pathServer('/oauth2/v1/revoke'), pathServer('/db-transfers/v1/transfers')]) {
      const [v] = Object.values(s.variables);
      expect(v!.default).toMatch(/^https:\/\//);
    }
    const elsewhere = ops.filter((x) => !/revoke|transfers/.test(x.path));
    for (const o of elsewhere) expect(o.op.servers, o.op.operationId).toBeUndefined();
  });
});

interface JsonServer {
  url: string;
  variables: Record<string, { default: string; description?: string }>;
}
