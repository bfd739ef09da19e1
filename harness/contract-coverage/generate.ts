import type { Faker } from '@faker-js/faker';
import type { OperationKey } from '../operations';
import { buildCoverageModel, type CoverageCell, type ModelSources } from './model';

/**
 * Generated cases (issue 23): the cells of the model a case is generated for, and the values that
 * exercise them. The suites turn each cell into a case (suites/<area>/type-violations.ts); the model
 * says which cells there are, so a member documented tomorrow gets its case without an edit there.
 */

/**
 * The body members of an operation whose documented type can be violated where the spec documents a
 * refusal: the testable type-violated cells of the model, in the schema's order.
 */
export function typeViolationCells(operation: OperationKey, sources: ModelSources = {}): CoverageCell[] {
  return buildCoverageModel({ ...sources, only: [operation] }).cells.filter(
    (c) => c.kind === 'body-member' && c.side === 'type-violated' && !c.notTestable,
  );
}

/** The documented JSON type of a cell's value ('string', 'number', 'integer', 'boolean', 'object', 'array'). */
export function documentedType(cell: CoverageCell): string {
  return String(cell.schema?.type ?? 'string');
}

/** How a value of another type than the documented one is written, for titles: "a number", "a string". */
export function violatingTypeOf(type: string): string {
  return type === 'string' ? 'number' : type === 'array' ? 'number' : 'string';
}

/**
 * A value whose JSON type is not the documented one, seeded: a string member gets a number; a number,
 * integer or boolean member the text of a valid value ("0.01", "1", "false"); an object the JSON text of a
 * valid one; an array its first element alone.
 */
export function violatingValue(type: string, valid: unknown, f: Faker): unknown {
  switch (type) {
    case 'string':
      return f.number.int({ min: 10_000, max: 99_999_999 });
    case 'array':
      return Array.isArray(valid) && typeof valid[0] === 'number' ? valid[0] : f.number.int({ min: 1, max: 28 });
    case 'object':
      return valid !== undefined ? JSON.stringify(valid) : f.lorem.word();
    case 'boolean':
      return String(valid ?? f.datatype.boolean());
    default:
      return String(valid ?? f.number.int({ min: 1, max: 9 }));
  }
}

type Json = Record<string, unknown>;

/** The value at a member path (a.b) of a body, or undefined. */
export function memberAt(body: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Json)[k] : undefined), body);
}

/** A copy of the body with the member at the path (a.b) set, creating the objects that hold it. */
export function withMember(body: Json, path: string, value: unknown): Json {
  const copy = structuredClone(body);
  const keys = path.split('.');
  let at = copy;
  for (const k of keys.slice(0, -1)) {
    if (!at[k] || typeof at[k] !== 'object' || Array.isArray(at[k])) at[k] = {};
    at = at[k] as Json;
  }
  at[keys[keys.length - 1]!] = value;
  return copy;
}
