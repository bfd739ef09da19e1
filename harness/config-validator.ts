import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * The validator of schemas/config.schema.json. The compiled main job holds it compiled already
 * (launch/build.mjs writes this module as Ajv's standalone code of the same schema and options, when the
 * build is made), so that a run does not spend Ajv's compilation (about 0.08 s) at every start.
 */
export const CONFIG_SCHEMA_FILE = fileURLToPath(new URL('../schemas/config.schema.json', import.meta.url));

/** verbose: each error carries the schema it failed (an unknown key's error lists the keys allowed there). */
export const CONFIG_AJV_OPTIONS = { allErrors: true, strict: false, verbose: true };

export function configValidator(): ValidateFunction {
  const ajv = new Ajv(CONFIG_AJV_OPTIONS);
  addFormats.default(ajv);
  return ajv.compile(JSON.parse(readFileSync(CONFIG_SCHEMA_FILE, 'utf8')));
}
