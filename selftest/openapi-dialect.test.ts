import { describe, expect, test } from 'vitest';
import { SchemaTranslationError, toComponentSchema } from '../harness/openapi/dialect';

/** The translation of the suite's draft-07 schemas into Schema Objects of OpenAPI 3.1 (JSON Schema 2020-12). */

const BASE = 'https://dbsi-conformance.dev/schemas/';
const names = new Map([
  [`${BASE}a.schema.json`, 'a'],
  [`${BASE}b.schema.json`, 'b'],
]);
const source = { name: 'a', id: `${BASE}a.schema.json` };

describe('draft-07 to 2020-12', () => {
  test('drops $schema and $id, turns definitions into $defs and makes every $ref local to components/schemas', () => {
    const out = toComponentSchema(
      {
        $schema: 'http://json-schema.org/draft-07/schema#',
        $id: source.id,
        definitions: { date: { type: 'string' } },
        properties: {
          start: { $ref: '#/definitions/date' },
          other: { $ref: 'b.schema.json' },
          absolute: { $ref: `${BASE}b.schema.json#/definitions/x` },
          definitions: { type: 'string' },
        },
        allOf: [{ $ref: 'b.schema.json' }],
      },
      source,
      names,
    );
    expect(out).toEqual({
      $defs: { date: { type: 'string' } },
      properties: {
        start: { $ref: '#/components/schemas/a/$defs/date' },
        other: { $ref: '#/components/schemas/b' },
        absolute: { $ref: '#/components/schemas/b/$defs/x' },
        definitions: { type: 'string' },
      },
      allOf: [{ $ref: '#/components/schemas/b' }],
    });
  });

  test('translates the draft-07 forms whose meaning changed: dependencies, items as an array, additionalItems', () => {
    const out = toComponentSchema(
      {
        dependencies: { a: ['b'], c: { required: ['d'] } },
        properties: { t: { type: 'array', items: [{ type: 'string' }], additionalItems: false } },
      },
      source,
      names,
    );
    expect(out).toEqual({
      dependentRequired: { a: ['b'] },
      dependentSchemas: { c: { required: ['d'] } },
      properties: { t: { type: 'array', prefixItems: [{ type: 'string' }], items: false } },
    });
  });

  test('copies data keywords as they are: enum, examples, const, default, x- members', () => {
    const s = {
      properties: {
        s: { type: 'string', enum: ['A'], examples: ['$ref'], const: 'A', default: 'A', 'x-spec-section': 'S' },
      },
    };
    expect(toComponentSchema(s, source, names)).toEqual(s);
  });

  test(
    'a $ref that leads to no file of schemas/, or a draft-04 boolean ' +
      'exclusiveMinimum, is refused naming the file and the place',
    () => {
      expect(() => toComponentSchema({ properties: { x: { $ref: 'missing.schema.json' } } }, source, names)).toThrow(
        SchemaTranslationError,
      );
      expect(() => toComponentSchema({ properties: { x: { $ref: 'missing.schema.json' } } }, source, names)).toThrow(
        'schemas/a.schema.json/properties/x/$ref',
      );
      expect(() => toComponentSchema({ minimum: 0, exclusiveMinimum: true }, source, names)).toThrow('draft-04');
    },
  );
});
