import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { OPERATIONS } from '../harness/operations';

/**
 * Issue 32: the operation names the configuration accepts (`paths`, a declared deviation) are those of the operations
 * table, not a copy kept by hand: a new operation in harness/operations.ts without its key here fails.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('schemas/config.schema.json', () => {
  test('the keys of "paths" are exactly the operations of harness/operations.ts', () => {
    const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'config.schema.json'), 'utf8'));
    const names = schema.properties.paths.propertyNames.enum as string[];
    expect([...names].sort()).toEqual(Object.keys(OPERATIONS).sort());
  });
});
