import { readFileSync, writeFileSync } from 'node:fs';
import { CONFIG_SCHEMA_FILE, configSchemaText } from '../harness/config-validator';

/**
 * npx tsx bin/config-schema.ts: write the keys of `paths` into schemas/config.schema.json from the operations
 * table (harness/operations.ts), for the editors that read the file; the suite itself validates with the
 * table. Run it after adding an operation (selftest/config-schema-operations.test.ts fails until then).
 * Exit 0 written or already current; 2 when the file cannot be read or written (the message says why).
 */
function main(): number {
  try {
    const before = readFileSync(CONFIG_SCHEMA_FILE, 'utf8');
    const after = configSchemaText(before);
    if (after === before) {
      console.log('schemas/config.schema.json: already current (the keys of paths are the operations table)');
      return 0;
    }
    writeFileSync(CONFIG_SCHEMA_FILE, after);
    console.log('schemas/config.schema.json: the keys of paths written from harness/operations.ts');
    return 0;
  } catch (e) {
    console.error(`config-schema: ${(e as Error).message}`);
    return 2;
  }
}

process.exitCode = main();
