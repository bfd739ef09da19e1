import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { userCwd } from '../harness/local-files';
import { buildOpenApiDocument } from '../harness/openapi/document';
import { SPEC_FILE } from '../harness/spec-location';

/**
 * npm run openapi [-- --out FILE]: write the interface as an OpenAPI 3.1 document, generated from the
 * suite's schemas, operations table and catalog. Exit 0; 1 when the suite's own data is inconsistent
 * (the message names the file); 2 on a usage error or a file that cannot be written.
 */
const USAGE = `Usage: npm run openapi -- [--out FILE]

Writes the Digital Banking Service Interface as an OpenAPI 3.1 document (JSON), generated from
schemas/, harness/operations.ts, harness/operations-documented.ts and requirements/.
  --out FILE   where to write it (default: reports/openapi.json)
  -h, --help   this text
Exit codes: 0 written, 1 the suite's own data is inconsistent (named), 2 usage error or unwritable file.
DBSI_SPEC_URL sets where the document's links to spec sections point (default: the spec of this
checkout, relative to the document).`;

function main(): number {
  let v;
  try {
    v = parseArgs({ args: process.argv.slice(2), options: { out: { type: 'string', default: 'reports/openapi.json' }, help: { type: 'boolean', short: 'h', default: false } } }).values;
  } catch (e) {
    process.stderr.write(`dbsi-conformance openapi: ${(e as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (v.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  if (!v.out) {
    process.stderr.write(`dbsi-conformance openapi: --out needs a file name\n\n${USAGE}\n`);
    return 2;
  }
  // A relative path is the user's, from the folder npm was run from (INIT_CWD), not the package root.
  const file = resolve(userCwd(), v.out);
  let doc;
  try {
    // Without DBSI_SPEC_URL, the spec of this checkout relative to the document (no local absolute path in a document meant to be shared).
    const specLink = process.env.DBSI_SPEC_URL || relative(dirname(file), SPEC_FILE).split(sep).join('/');
    doc = buildOpenApiDocument({ specUrl: specLink });
  } catch (e) {
    // The suite's own data is inconsistent (a $ref that leads nowhere, an undocumented schema name): the message names the file.
    process.stderr.write(`dbsi-conformance openapi: cannot generate the document: ${(e as Error).message}\n`);
    return 1;
  }
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(doc, null, 2) + '\n');
  } catch (e) {
    process.stderr.write(`dbsi-conformance openapi: cannot write ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
    return 2;
  }
  const paths = doc.paths as Record<string, Record<string, unknown>>;
  const operations = Object.values(paths).reduce((n, item) => n + Object.keys(item).filter((k) => k !== 'servers').length, 0);
  const schemas = Object.keys((doc.components as { schemas: object }).schemas).length;
  process.stdout.write(`OpenAPI 3.1 document: ${file} (${operations} operations on ${Object.keys(paths).length} paths, ${schemas} schemas)\n`);
  return 0;
}

process.exitCode = main();
