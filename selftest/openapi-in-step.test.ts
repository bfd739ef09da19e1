import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildOpenApiDocument, DEFINED_IN } from '../harness/openapi/document';
import { toOpenApi30 } from '../harness/openapi/renderings';
import { AREAS, type Exchange } from '../harness/model';
import { OPERATION_DOCUMENTATION } from '../harness/operations-documented';
import { validate as suiteValidate } from '../harness/schemas';
import type { OperationKey } from '../harness/operations';
import { documentValidator, operationsOf, responseKeyFor, type Doc, type DocOperation } from './_openapi';
import { explain, runAreas, type AreaRun } from './_reference';

/**
 * The document's schemas are the suite's schemas: every answer the faultless reference target gave
 * to the suite's requests (an in-process run of every area) is documented by the document and
 * matches its response schema, and every request the target served matches the document's request
 * body and carries its required parameters.
 */

const doc = buildOpenApiDocument() as Doc;
const byId = new Map(operationsOf(doc).map((o) => [o.op.operationId, o]));
const validate = documentValidator(doc);

let run: AreaRun;
let exchanges: (Exchange & { response: NonNullable<Exchange['response']> })[];

beforeAll(async () => {
  // With the optional query parameters configured, so that every documented parameter is sent.
  run = await runAreas({
    areas: [...AREAS],
    configure: (c) => ({ ...c, testData: { ...c.testData, institutionCustomerId: 'biz-7', accountType: 'CHECKING' } }),
  });
  exchanges = run.cases
    .flatMap((c) => c.exchanges)
    .filter(
      (e): e is Exchange & { response: NonNullable<Exchange['response']> } =>
        e.operation !== 'raw' && e.response !== undefined,
    );
});

function responseSchemaAt(o: DocOperation, key: string): string[] | undefined {
  return o.op.responses[key]!.content
    ? [...o.at, 'responses', key, 'content', 'application/json', 'schema']
    : undefined;
}

describe("the document is in step with schemas/: the reference target's own exchanges", () => {
  test('the faultless reference target passes the run the exchanges come from', () => {
    expect(run.failed.size, explain(run.cases)).toBe(0);
    expect(exchanges.length).toBeGreaterThan(100);
  });

  test(
    'every answer to a documented operation has a documented ' + 'response, and its body matches the response schema',
    () => {
      const problems: string[] = [];
      const validated = new Set<string>();
      for (const e of exchanges) {
        const o = byId.get(e.operation);
        if (!o) {
          problems.push(`${e.operation}: not in the document`);
          continue;
        }
        const key = responseKeyFor(o.op.responses, e.response.status);
        if (!key) {
          problems.push(
            `${e.operation} answered ${e.response.status}: no documented ` +
              `response (${Object.keys(o.op.responses).join(', ')})`,
          );
          continue;
        }
        const at = responseSchemaAt(o, key);
        if (key === '204') {
          if (e.response.body !== '') problems.push(`${e.operation} 204 with a body`);
          continue;
        }
        if (!at) continue;
        let body: unknown;
        try {
          body = JSON.parse(e.response.body);
        } catch {
          problems.push(`${e.operation} ${e.response.status}: not JSON`);
          continue;
        }
        const errors = validate(at, body);
        if (errors.length)
          problems.push(`${e.operation} ${e.response.status} against ` + `responses/${key}: ${errors.join('; ')}`);
        validated.add(`${e.operation} ${key}`);
      }
      expect(problems).toEqual([]);
      // Every success response with a body, of every operation, was exercised; and the documented error shapes too.
      for (const key of [
        'listInstitutionDisclosures 2XX',
        'createInstitutionDisclosure 2XX',
        'changeInstitutionDisclosure 2XX',
        'listUserDisclosures 2XX',
        'revokeToken 200',
        'revokeToken 400',
        'revokeToken 401',
        'createTransfer 200',
        'createTransfer 400',
        'createTransfer 401',
        'createTransfer 403',
      ]) {
        expect(validated, key).toContain(key);
      }
    },
  );

  test(
    'every request the target served matches the document: its body the ' +
      'request body schema, its required parameters present',
    () => {
      const problems: string[] = [];
      const seen = new Set<string>();
      for (const e of exchanges.filter((x) => x.response.status >= 200 && x.response.status < 300)) {
        const o = byId.get(e.operation)!;
        seen.add(e.operation);
        if (o.op.requestBody) {
          const errors = validate(
            [...o.at, 'requestBody', 'content', 'application/json', 'schema'],
            JSON.parse(e.request.body ?? 'null'),
          );
          if (errors.length) problems.push(`${e.operation} request body: ${errors.join('; ')}`);
        }
        const url = new URL(e.request.url);
        const headers = new Set(Object.keys(e.request.headers).map((h) => h.toLowerCase()));
        for (const p of OPERATION_DOCUMENTATION[e.operation as OperationKey].parameters.filter((x) => x.required)) {
          const there =
            p.in === 'header'
              ? headers.has(p.name.toLowerCase())
              : p.in === 'query'
                ? url.searchParams.has(p.name)
                : true;
          if (!there) problems.push(`${e.operation}: required ${p.in} parameter ${p.name} missing`);
        }
      }
      expect(problems).toEqual([]);
      expect([...seen].sort()).toEqual(Object.keys(OPERATION_DOCUMENTATION).sort());
    },
  );

  test(
    'every parameter the operations table documents is sent, under the ' +
      'spelling of the spec, by a request the target served',
    () => {
      const missing: string[] = [];
      for (const [key, d] of Object.entries(OPERATION_DOCUMENTATION)) {
        const served = exchanges.filter(
          (e) => e.operation === key && e.response.status >= 200 && e.response.status < 300,
        );
        for (const p of d.parameters.filter((x) => x.in !== 'path')) {
          const sent = served.some((e) =>
            p.in === 'header'
              ? Object.keys(e.request.headers).includes(p.name)
              : new URL(e.request.url).searchParams.has(p.name),
          );
          if (!sent) missing.push(`${key}: ${p.in} ${p.name}`);
        }
      }
      expect(missing).toEqual([]);
    },
  );

  test(
    'every documented parameter value the suite sent in a served request matches the ' +
      'parameter\'s schema (a UUID, "true or false", a numeric institutionId)',
    () => {
      const problems: string[] = [];
      const checked = new Set<string>();
      for (const e of exchanges.filter((x) => x.response.status >= 200 && x.response.status < 300)) {
        const o = byId.get(e.operation)!;
        const url = new URL(e.request.url);
        (o.op.parameters ?? []).forEach((p, i) => {
          const value =
            p.in === 'header'
              ? e.request.headers[p.name as string]
              : p.in === 'query'
                ? (url.searchParams.get(p.name as string) ?? undefined)
                : undefined;
          if (value === undefined) return;
          checked.add(`${e.operation} ${p.in} ${String(p.name)}`);
          const errors = validate([...o.at, 'parameters', String(i), 'schema'], value);
          if (errors.length)
            problems.push(
              `${e.operation} ${p.in} ${String(p.name)} ` + `${JSON.stringify(value)}: ${errors.join('; ')}`,
            );
        });
      }
      expect(problems).toEqual([]);
      // Every header and query parameter of every operation was checked on at least one served request.
      const documented = [...byId.entries()].flatMap(([key, o]) =>
        (o.op.parameters ?? [])
          .filter((p) => p.in === 'header' || p.in === 'query')
          .map((p) => `${key} ${p.in} ${String(p.name)}`),
      );
      expect(documented.filter((d) => !checked.has(d))).toEqual([]);
      const revoke = byId.get('revokeToken')!;
      const at = revoke.op.parameters!.findIndex((p) => p.name === 'institutionId');
      expect(validate([...revoke.at, 'parameters', String(at), 'schema'], '1001x')).not.toEqual([]);
    },
  );

  test('the response schemas can fail: a body that breaks a documented type or envelope does not match', () => {
    const check = (key: string, status: string, body: unknown) =>
      validate(responseSchemaAt(byId.get(key)!, status)!, body);
    expect(
      check('listInstitutionDisclosures', '2XX', { institutionDisclosures: [{ institutionDisclosureId: 7 }] }).join(
        ' ',
      ),
    ).toContain('/institutionDisclosures/0/institutionDisclosureId');
    expect(check('listInstitutionDisclosures', '2XX', { disclosures: [] })).not.toEqual([]);
    expect(
      check('listUserDisclosures', '2XX', { institutionUserDisclosures: [{ institutionId: '1' }] }).join(' '),
    ).toContain('institutionUserId');
    // "Only those three may be omitted": an element without institutionId (or the id, or the name) does not match.
    const element = { institutionDisclosureId: 'd1', institutionId: '1001', institutionDisclosureName: 'E-Sign' };
    expect(check('listInstitutionDisclosures', '2XX', { institutionDisclosures: [element] })).toEqual([]);
    for (const k of Object.keys(element)) {
      const { [k]: _gone, ...rest } = element as Record<string, string>;
      expect(check('listInstitutionDisclosures', '2XX', { institutionDisclosures: [rest] }).join(' '), k).toContain(k);
    }
    expect(check('createTransfer', '200', { amount: { amount: '1.00' } }).join(' ')).toContain('/amount/amount');
    expect(check('createTransfer', '200', { schedule: { startDate: '2026-01-01T00:00:00Z' } })).not.toEqual([]);
    expect(check('revokeToken', '401', { error: 'invalid_client' })).not.toEqual([]);
    expect(check('revokeToken', '401', { code: 'E401', message: 'no' })).toEqual([]);
  });

  test(
    "every component schema gives the verdict of the suite's own schema (draft-07) on " +
      'the bodies exchanged and on each of them broken member by member',
    () => {
      const probes = probeBodies();
      const disagreements: string[] = [];
      let compared = 0;
      // A component hoisted out of a schema's definitions has no schema of the suite's own: it is compared as
      // part of the schemas that use it.
      const own = Object.keys(doc.components.schemas).filter((n) => !(DEFINED_IN in doc.components.schemas[n]!));
      for (const name of own) {
        // A request body whose required members the spec does not state: the suite's verdict less its "missing member"
        // lines.
        const requiredDropped = 'x-members-the-suite-sends' in doc.components.schemas[name]!;
        for (const p of probes) {
          const suite =
            suiteValidate(name, p).filter((line) => !(requiredDropped && /is missing member/.test(line))).length === 0;
          const document = validate(['components', 'schemas', name], p).length === 0;
          compared++;
          if (suite !== document)
            disagreements.push(
              `${name}: suite ${suite}, document ${document} for ` + `${JSON.stringify(p).slice(0, 120)}`,
            );
        }
      }
      expect(disagreements.slice(0, 10)).toEqual([]);
      expect(compared).toBeGreaterThan(1000);
    },
  );

  test("the OpenAPI 3.0 rendering's components give the verdicts of the 3.1 document's on the same bodies", () => {
    // 3.0's Schema Object read as JSON Schema draft-07 (as Dredd's hooks and most 3.0 validators do);
    // example, x-examples and nullable are annotations there.
    const d30 = toOpenApi30(doc) as Doc;
    const ajv = new Ajv({ strict: false, allErrors: false });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'urn:dbsi:openapi30', components: d30.components } as object);
    const disagreements: string[] = [];
    let compared = 0;
    const probes = probeBodies();
    for (const name of Object.keys(doc.components.schemas)) {
      const v30 = ajv.compile({ $ref: `urn:dbsi:openapi30#/components/schemas/${name}` });
      for (const p of probes) {
        const in31 = validate(['components', 'schemas', name], p).length === 0;
        compared++;
        if (v30(p) !== in31) disagreements.push(`${name}: 3.1 ${in31}: ${JSON.stringify(p).slice(0, 100)}`);
      }
    }
    expect(disagreements.slice(0, 10)).toEqual([]);
    expect(compared).toBeGreaterThan(1000);
  });
});

/** The bodies exchanged, and each of the first 200 broken member by member (a wrong type in each place). */
function probeBodies(): unknown[] {
  const parsed = (text: string | undefined): unknown[] => {
    try {
      return text ? [JSON.parse(text) as unknown] : [];
    } catch {
      return [];
    }
  };
  const bodies = exchanges.flatMap((e) => [...parsed(e.request.body), ...parsed(e.response.body)]);
  const probes: unknown[] = [{}, [], 'x', 1, null, ...bodies];
  for (const b of bodies.slice(0, 200)) {
    if (!b || typeof b !== 'object' || Array.isArray(b)) continue;
    for (const k of Object.keys(b)) {
      for (const wrong of [7, 'x', [], { a: 1 }, true]) probes.push({ ...(b as object), [k]: wrong });
    }
  }
  return probes;
}
