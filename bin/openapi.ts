import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { LocalFileError, readRegularFile, userCwd } from '../harness/local-files';
import { buildOpenApiDocument } from '../harness/openapi/document';
import type { JsonObject } from '../harness/openapi/dialect';
import {
  forTarget,
  OPENAPI_30_LOSSES,
  pathExamples,
  RenderingError,
  targetBaseUrls,
  targetDeclarations,
  type TargetDeclarations,
  toOpenApi30,
  withExplicitSuccessCodes,
  type TargetBaseUrls,
} from '../harness/openapi/renderings';
import { SPEC_FILE } from '../harness/spec-location';

/**
 * npm run openapi [-- --out FILE] [renderings]: write the interface as an OpenAPI 3.1 document, generated
 * from the suite's schemas, operations table and catalog, or one of its renderings for tools that cannot
 * read it (harness/openapi/renderings.ts). Exit 0; 1 when the suite's own data is inconsistent (the
 * message names the file); 2 on a usage error, an unusable --config or a file that cannot be written.
 */
/** `text` in lines of at most `width` characters, each indented by `indent` spaces (continuations by 2 more). */
function wrap(text: string, indent: number, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const pad = lines.length ? indent + 2 : indent;
    if (line && pad + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.map((l, i) => ' '.repeat(i ? indent + 2 : indent) + l).join('\n');
}

const USAGE = `Usage: npm run openapi -- [--out FILE] [--openapi 3.1|3.0] [--explicit-success-codes] [--config FILE]

Writes the Digital Banking Service Interface as an OpenAPI 3.1 document (JSON), generated from
schemas/, harness/operations.ts, harness/operations-documented.ts and requirements/.
  --out FILE                where to write it (default: reports/openapi.json)
  --openapi 3.0             OpenAPI 3.0.3 instead of 3.1 (for Dredd). What it says differently:
${OPENAPI_30_LOSSES.map((l) => wrap(`- ${l}`, 30, 100)).join('\n')}
  --explicit-success-codes  each 2XX response (success code not shown) written out as 200 to 299, each
                            with the same response (for Portman and Step CI, which test no range)
  --config FILE             for the target of a configuration: one server (the origin its baseUrl,
                            authBaseUrl and transfersBaseUrl share) and each path preceded by the path of
                            its own base URL (for tools that read one server: Step CI, Dredd, Prism proxy);
                            refused when the three base URLs have different origins; path parameters
                            get an example (Dredd needs one) from its test data, else a placeholder;
                            its declared paths and contactInfoBaseUrl are rendered where the target
                            serves the operation, each named in x-declared-deviations
  -h, --help                this text
Exit codes: 0 written, 1 the suite's own data is inconsistent (named), 2 usage error, unusable --config
or unwritable file.
DBSI_SPEC_URL sets where the document's links to spec sections point (default: the spec of this
checkout, relative to the document).`;

type Options = { out?: string; openapi?: string; 'explicit-success-codes'?: boolean; config?: string };
interface Target {
  urls: TargetBaseUrls;
  examples: Record<string, string>;
  declared: TargetDeclarations;
}

function fail(message: string, code: number): number {
  process.stderr.write(`dbsi-conformance openapi: ${message}\n`);
  return code;
}

function main(): number {
  const v = options();
  if (typeof v === 'number') return v;
  // A relative path is the user's, from the folder npm was run from (INIT_CWD), not the package root.
  const file = resolve(userCwd(), v.out!);
  const target = v.config === undefined ? undefined : readTarget(v.config);
  if (typeof target === 'number') return target;
  const doc = rendered(v, file, target);
  if (typeof doc === 'number') return doc;
  return written(file, doc);
}

/** The options, or the exit code of --help or a usage error. */
function options(): Options | number {
  let v;
  try {
    v = parseArgs({
      args: process.argv.slice(2),
      options: {
        out: { type: 'string', default: 'reports/openapi.json' },
        openapi: { type: 'string', default: '3.1' },
        'explicit-success-codes': { type: 'boolean', default: false },
        config: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (e) {
    return fail(`${(e as Error).message}\n\n${USAGE}`, 2);
  }
  if (v.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  if (!v.out) return fail(`--out needs a file name\n\n${USAGE}`, 2);
  if (v.openapi !== '3.1' && v.openapi !== '3.0') {
    const not = JSON.stringify(v.openapi);
    return fail(`--openapi is 3.1 or 3.0, not ${not}\n\n${USAGE}`, 2);
  }
  return v;
}

/** What --config gives the rendering for one target, or exit code 2. */
function readTarget(path: string): Target | number {
  try {
    const config = JSON.parse(readRegularFile(resolve(userCwd(), path), '--config').toString('utf8')) as unknown;
    return {
      urls: targetBaseUrls(config, path),
      examples: pathExamples(config),
      declared: targetDeclarations(config, path),
    };
  } catch (e) {
    const why = e instanceof LocalFileError || e instanceof RenderingError ? e.message : `${path}: not JSON`;
    return fail(why.replace(/^--config: /, ''), 2);
  }
}

/** The document, rendered as the options say, or the exit code of a failure. */
function rendered(v: Options, file: string, target: Target | undefined): JsonObject | number {
  let doc;
  try {
    // Without DBSI_SPEC_URL, the spec of this checkout relative to the document (no local absolute path in a document
    // meant to be shared).
    const specLink = process.env.DBSI_SPEC_URL || relative(dirname(file), SPEC_FILE).split(sep).join('/');
    doc = buildOpenApiDocument({ specUrl: specLink });
  } catch (e) {
    // The suite's own data is inconsistent (a $ref that leads nowhere, an undocumented schema name): the message names
    // the file.
    return fail(`cannot generate the document: ${(e as Error).message}`, 1);
  }
  try {
    // The configuration by its file name only: no local path in a document meant to be shared.
    if (target) doc = forTarget(doc, target.urls, basename(v.config!), target.examples, target.declared);
  } catch (e) {
    return fail((e as Error).message, 2);
  }
  try {
    if (v['explicit-success-codes']) doc = withExplicitSuccessCodes(doc);
    if (v.openapi === '3.0') doc = toOpenApi30(doc);
  } catch (e) {
    // A schema of the suite says what the rendering cannot (e.g. a keyword OpenAPI 3.0 lacks): the message names it.
    return fail(`cannot render the document: ${(e as Error).message}`, 1);
  }
  return doc;
}

function written(file: string, doc: JsonObject): number {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(doc, null, 2) + '\n');
  } catch (e) {
    return fail(`cannot write ${file}: ` + `${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, 2);
  }
  const paths = doc.paths as Record<string, Record<string, unknown>>;
  const operations = Object.values(paths).reduce(
    (n, item) => n + Object.keys(item).filter((k) => k !== 'servers').length,
    0,
  );
  const schemas = Object.keys((doc.components as { schemas: object }).schemas).length;
  const counts = `${operations} operations on ${Object.keys(paths).length} paths, ${schemas} schemas`;
  process.stdout.write(`OpenAPI ${String(doc.openapi)} document: ${file} (${counts})\n`);
  return 0;
}

process.exitCode = main();
