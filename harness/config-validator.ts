import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { OPERATIONS } from './operations';

/**
 * The validator of schemas/config.schema.json. The keys `paths` accepts are the operations table's
 * (harness/operations.ts), put into the schema as it is compiled: no copy of them is kept by hand. The file
 * itself carries the same list for the editors that read it, written by `npx tsx bin/config-schema.ts`
 * (selftest/config-schema-operations.test.ts holds the file equal to what that command writes).
 */
export const CONFIG_SCHEMA_FILE = fileURLToPath(new URL('../schemas/config.schema.json', import.meta.url));

/** verbose: each error carries the schema it failed (an unknown key's error lists the keys allowed there). */
export const CONFIG_AJV_OPTIONS = { allErrors: true, strict: false, verbose: true };

/** What the file says of the list (a JSON Schema `$comment`, which validators ignore). */
export const PATHS_KEYS_COMMENT =
  'The enum of propertyNames is the operations table (harness/operations.ts), written here by ' +
  '`npx tsx bin/config-schema.ts`; the suite validates with the table itself.';

/** schemas/config.schema.json as the suite validates with it: the keys of `paths` are the operations table's. */
export function configSchema(fileText = readFileSync(CONFIG_SCHEMA_FILE, 'utf8')): Record<string, any> {
  const schema = JSON.parse(fileText) as Record<string, any>;
  const { propertyNames: _generated, $comment: _said, additionalProperties, ...rest } = schema.properties.paths;
  const keys = { enum: Object.keys(OPERATIONS) };
  schema.properties.paths = { ...rest, $comment: PATHS_KEYS_COMMENT, propertyNames: keys, additionalProperties };
  return schema;
}

/** The text of schemas/config.schema.json, its `paths` keys generated from the operations table. */
export function configSchemaText(fileText?: string): string {
  return `${JSON.stringify(configSchema(fileText), null, 2)}\n`;
}

export function configValidator(): ValidateFunction {
  const ajv = new Ajv(CONFIG_AJV_OPTIONS);
  addFormats.default(ajv);
  return ajv.compile(configSchema());
}
