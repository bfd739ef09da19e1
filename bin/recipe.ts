import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { LocalFileError, readRegularFile, userCwd } from '../harness/local-files';
import { buildOpenApiDocument } from '../harness/openapi/document';
import { recipeFiles, RECIPE_TOOLS, type RecipeTool } from '../harness/openapi/recipe-files';
import { recipePlan } from '../harness/openapi/recipe-requests';
import { RenderingError } from '../harness/openapi/renderings';

const USAGE = `Usage: npm run recipe -- --tool ${RECIPE_TOOLS.join('|')}|all --config FILE [--out DIR]

Writes, from a target configuration, what each tool needs beyond the OpenAPI document to send every operation
of the interface with the credentials of its security scheme, the configuration's test data and the ids the
target issues carried forward (docs/recipes.md):
  portman  dbsi.openapi.json, portman-config.json, postman-environment.json
  stepci   workflow.yml
  dredd    dbsi.openapi30.json, dredd-hooks.cjs
No credential of the configuration is copied: each file names the variable that carries it (DBSI_BEARER_TOKEN,
DBSI_TRANSFERS_TOKEN, DBSI_REVOCATION_CLIENT_ID/SECRET, DBSI_REVOCATION_PASSWORD/REFRESH_TOKEN), given to the
tool when it runs (the commands are in docs/recipes.md). The recipes write: they create a disclosure, an
acceptance record (then delete it), revoke the configured refresh token and move the configured amount; an
operation whose safety switch is not true in the configuration (allow.moneyMovement, …) is left out, said.
  --tool NAME     portman, stepci, dredd, or all
  --config FILE   the target configuration (config/example.target.json)
  --out DIR       where to write (default: recipes/<tool>, from the folder npm was run from)
  -h, --help      this text
Exit codes: 0 written, 1 the suite's own data is inconsistent (named), 2 usage error, unusable --config or
unwritable folder.`;

function fail(message: string, code = 2): number {
  process.stderr.write(`dbsi-conformance recipe: ${message}\n${code === 2 ? `\n${USAGE}\n` : ''}`);
  return code;
}

function main(): number {
  let v;
  try {
    v = parseArgs({
      args: process.argv.slice(2),
      options: {
        tool: { type: 'string' },
        config: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (e) {
    return fail((e as Error).message);
  }
  if (v.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const tools = v.tool === 'all' ? [...RECIPE_TOOLS] : [v.tool as RecipeTool];
  if (!v.tool || !tools.every((t) => RECIPE_TOOLS.includes(t)))
    return fail(`--tool is one of ${RECIPE_TOOLS.join(', ')} or all, not ${JSON.stringify(v.tool ?? '')}`);
  if (!v.config) return fail('--config FILE is needed (the target the recipe runs against)');
  let config: unknown;
  try {
    config = JSON.parse(readRegularFile(resolve(userCwd(), v.config), '--config').toString('utf8'));
  } catch (e) {
    return fail(e instanceof LocalFileError ? e.message.replace(/^--config: /, '') : `${v.config}: not JSON`);
  }
  let doc;
  try {
    doc = buildOpenApiDocument({ specUrl: process.env.DBSI_SPEC_URL || 'spec/digital-banking-service-interface.md' });
  } catch (e) {
    return fail(`cannot generate the document: ${(e as Error).message}`, 1);
  }
  for (const tool of tools) {
    let files: Record<string, string>;
    try {
      files = recipeFiles(tool, doc, config, basename(v.config));
    } catch (e) {
      if (e instanceof RenderingError) return fail(e.message);
      return fail(`cannot render the ${tool} recipe: ${(e as Error).message}`, 1);
    }
    const dir = resolve(userCwd(), v.out && tools.length === 1 ? v.out : join(v.out ?? 'recipes', tool));
    try {
      mkdirSync(dir, { recursive: true });
      for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      return fail(`cannot write ${dir}: ${why}`);
    }
    const written = Object.keys(files).map((f) => join(dir, f));
    process.stdout.write(`${tool} recipe: ${written.join(', ')}\n`);
  }
  // Each operation is said once, whatever the tools.
  for (const o of recipePlan(doc, config, basename(v.config)).omitted)
    process.stdout.write(`  ${o.operationId} left out: ${o.why}\n`);
  return 0;
}

process.exitCode = main();
