import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { ConfigError, resolveConfig } from '../harness/config';
import { CONFIG_SCHEMA_FILE, configSchema, configSchemaText } from '../harness/config-validator';
import { OPERATIONS } from '../harness/operations';
import { runMain } from './_main';

/**
 * Issue 32: the operation names the configuration accepts (`paths`, a declared deviation) are those of the
 * operations table, not a copy kept by hand. The validator builds the list from harness/operations.ts when it
 * compiles the schema; the file editors read carries the same list, written by `npx tsx bin/config-schema.ts`.
 */
const minimal = {
  baseUrl: 'https://bank.example/api',
  authBaseUrl: 'https://bank.example/identity',
  transfersBaseUrl: 'https://bank.example/banking',
};
const FILE_TEXT = readFileSync(CONFIG_SCHEMA_FILE, 'utf8');
const keysOf = (schema: Record<string, any>) => schema.properties.paths.propertyNames.enum as string[];
const UNKNOWN_KEY =
  `invalid configuration: "paths" must be one of ${JSON.stringify(Object.keys(OPERATIONS))}; ` +
  '"paths" property name must be valid';

describe('schemas/config.schema.json: the keys of "paths" are the operations table', () => {
  test('the validator takes them from harness/operations.ts, whatever the file lists', () => {
    expect(keysOf(configSchema())).toEqual(Object.keys(OPERATIONS));
    // A file whose list is stale (an operation missing, one too many) is compiled with the table's list.
    const stale = JSON.parse(FILE_TEXT);
    stale.properties.paths.propertyNames = { enum: ['updateContactInfo', 'noLongerAnOperation'] };
    expect(keysOf(configSchema(JSON.stringify(stale)))).toEqual(Object.keys(OPERATIONS));
    // Nothing else of the file is changed.
    const rest = (s: Record<string, any>) => {
      const { propertyNames: _k, $comment: _c, ...paths } = s.properties.paths;
      return { ...s, properties: { ...s.properties, paths } };
    };
    expect(rest(configSchema(JSON.stringify(stale)))).toEqual(rest(stale));
  });

  test('the file lists exactly them: `npx tsx bin/config-schema.ts` writes it after a new operation', () => {
    expect(keysOf(JSON.parse(FILE_TEXT)).sort()).toEqual(Object.keys(OPERATIONS).sort());
    expect(FILE_TEXT, 'schemas/config.schema.json is stale: run npx tsx bin/config-schema.ts').toBe(
      configSchemaText(FILE_TEXT),
    );
    // What the command writes from a stale file is the current file.
    const stale = JSON.parse(FILE_TEXT);
    stale.properties.paths.propertyNames.enum.pop();
    expect(configSchemaText(JSON.stringify(stale, null, 1))).toBe(FILE_TEXT);
  });

  test('every operation of the table is accepted as a key of paths', () => {
    for (const [key, op] of Object.entries(OPERATIONS)) {
      const cfg = resolveConfig({ ...minimal, paths: { [key]: `/elsewhere${op.path}` } }, {});
      expect(cfg.paths).toEqual({ [key]: `/elsewhere${op.path}` });
    }
  });

  test('an unknown key of paths: one message listing the keys, a configuration error (exit 2)', async () => {
    let error: unknown;
    try {
      resolveConfig({ ...minimal, paths: { updateContactInf: '/customers/{customerId}' } }, {});
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(UNKNOWN_KEY);
    const run = await runMain(['--dry-run'], { raw: { ...minimal, paths: { noSuchOperation: '/x' } } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`dbsi-conformance: configuration error: ${UNKNOWN_KEY}`);
  });
});
