/**
 * npm run recipes-check: the recipes of docs/recipes.md run as a user runs them, outside `npm test`. Installs
 * Portman + newman, Step CI and Dredd into a scratch folder (npm install --prefix; never dependencies of this
 * package), starts the reference target on 127.0.0.1 (faultless, each conformant variant, the other fixture sets,
 * and a few faults for a figure), writes each tool's recipe for it (npm run recipe) and runs the tool. Prints per
 * tool × target: checks passed / failed (and which), requests skipped, operations exercised, duration.
 * Exit 0 when no check failed on a conformant target, 1 when one did (a false failure), 2 on a usage error,
 * 3 when the tools could not be installed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildOpenApiDocument } from '../harness/openapi/document';
import { recipeFiles, RECIPE_TOOLS, type RecipeTool } from '../harness/openapi/recipe-files';
import { SECRET_VARIABLES } from '../harness/openapi/recipe-plan';
import { recipePlan } from '../harness/openapi/recipe-requests';
import { referenceConfigFile } from '../reference-target/config';
import { FAULTS, checkFaultNames } from '../reference-target/faults';
import { FIXTURE_SETS, type FixtureSetName } from '../reference-target/fixture-sets';
import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { startReferenceTarget } from '../reference-target/server';
import {
  bin,
  dreddOutcome,
  installTools,
  newmanOutcome,
  type Outcome,
  run,
  stepCiOutcome,
  TOOL_PACKAGES,
} from './recipes-tools';

const USAGE = `Usage: npm run recipes-check -- [options]

Runs each tool's recipe (docs/recipes.md) against the reference target and its conformant variants.
  --tools DIR       where the tools are installed (default: $TMPDIR/dbsi-recipes-tools; installed when absent:
                    ${TOOL_PACKAGES.join(', ')})
  --tool NAME       only this tool (${RECIPE_TOOLS.join(', ')}; repeatable)
  --variant NAME    only this variant, or "none" for the faultless target (repeatable; default: all of them)
  --fault NAME      also a named fault, for a figure (repeatable; default: op1-envelope-renamed,
                    op5-200-with-body and op8-token-record-numbers; "none" for no fault)
  --timeout S       a tool's run is stopped after S seconds (default 120)
  --json FILE       also write the results as JSON
  -h, --help        this text
Exit codes: 0 no check failed on a conformant target (but for a tool's named limit, TOOL_LIMITS), 1 one did,
2 usage error, 3 the tools could not be installed.`;

/**
 * What a tool cannot express, measured here: its failures on that conformant target are reported as the tool's
 * limit, named, not as a failure of the target (docs/recipes.md says the same). Nothing else is excused.
 */
export const TOOL_LIMITS: { tool: RecipeTool; target: string; why: string }[] = [
  {
    tool: 'stepci',
    target: 'disc-strict-header-names',
    why:
      'Step CI sends every header name in lower case (its HTTP client, got 11, lowercases them): a target that ' +
      'refuses a header not spelled as the spec writes it (TransactionId, callingAppId) refuses its disclosures ' +
      'requests',
  },
];
const limitOf = (tool: RecipeTool, target: string) => TOOL_LIMITS.find((l) => l.tool === tool && l.target === target);

const DEFAULT_FAULTS = ['op1-envelope-renamed', 'op5-200-with-body', 'op8-token-record-numbers'];

let v;
try {
  v = parseArgs({
    options: {
      tools: { type: 'string', default: join(tmpdir(), 'dbsi-recipes-tools') },
      tool: { type: 'string', multiple: true },
      variant: { type: 'string', multiple: true },
      fault: { type: 'string', multiple: true },
      timeout: { type: 'string', default: '120' },
      json: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }).values;
} catch (e) {
  console.error(`recipes-check: ${(e as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
if (v.help) {
  console.log(USAGE);
  process.exit(0);
}
const tools = (v.tool ?? [...RECIPE_TOOLS]) as RecipeTool[];
const timeoutMs = Number(v.timeout) * 1000;
const variants = FAULTS.filter((f) => f.variant).map((f) => f.name);
const chosenVariants = v.variant ?? ['none', ...variants];
const faults = (v.fault ?? DEFAULT_FAULTS).filter((f) => f !== 'none');
const bad = [
  ...tools.filter((t) => !RECIPE_TOOLS.includes(t)).map((t) => `unknown tool ${t}`),
  ...(Number.isFinite(timeoutMs) && timeoutMs > 0 ? [] : [`--timeout ${v.timeout} is not a number of seconds`]),
];
try {
  checkFaultNames([...chosenVariants.filter((n) => n !== 'none'), ...faults]);
} catch (e) {
  bad.push((e as Error).message);
}
const notVariants = chosenVariants.filter((n) => n !== 'none' && !variants.includes(n));
if (notVariants.length) bad.push(`not a variant (a fault? use --fault): ${notVariants.join(', ')}`);
if (bad.length) {
  console.error(`recipes-check: ${bad.join('; ')}\n\n${USAGE}`);
  process.exit(2);
}

interface Target {
  label: string;
  conformant: boolean;
  faults: string[];
  fixtures?: FixtureSetName;
}
const targets: Target[] = [
  ...chosenVariants.map((n) => ({
    label: n === 'none' ? 'reference' : n,
    conformant: true,
    faults: n === 'none' ? [] : [n],
  })),
  ...(v.variant
    ? []
    : (['realistic', 'retail'] as const).map((f) => ({
        label: `fixtures ${f}`,
        conformant: true,
        faults: [],
        fixtures: f,
      }))),
  ...faults.map((n) => ({ label: `fault ${n}`, conformant: false, faults: [n] })),
];

const toolsDir = resolve(v.tools);
mkdirSync(toolsDir, { recursive: true });
console.log(`recipes-check: tools in ${toolsDir} (${TOOL_PACKAGES.join(', ')})`);
const installError = await installTools(toolsDir, 600_000);
if (installError) {
  console.error(`recipes-check: the tools could not be installed into ${toolsDir}:\n${installError}`);
  process.exit(3);
}

// The reference target's made-up credentials (not secrets of any system), given to each tool as a user gives theirs.
const env: Record<string, string> = {
  DBSI_BEARER_TOKEN: REFERENCE_CREDENTIALS.bearerToken,
  DBSI_TRANSFERS_TOKEN: REFERENCE_CREDENTIALS.transfersToken,
  DBSI_REVOCATION_CLIENT_ID: REFERENCE_CREDENTIALS.revocationClientId,
  DBSI_REVOCATION_CLIENT_SECRET: REFERENCE_CREDENTIALS.revocationClientSecret,
  DBSI_REVOCATION_PASSWORD: REFERENCE_TEST_DATA.revocation.password,
  DBSI_REVOCATION_REFRESH_TOKEN: REFERENCE_TEST_DATA.revocation.refresh_token,
};
const secretArgs = (flag: string) =>
  Object.entries(SECRET_VARIABLES).flatMap(([name, envName]) => [flag, `${name}=${env[envName]}`]);

const doc = buildOpenApiDocument({ specUrl: 'spec/digital-banking-service-interface.md' });
const scratch = mkdtempSync(join(tmpdir(), 'dbsi-recipes-'));

async function runTool(tool: RecipeTool, dir: string, plan: ReturnType<typeof recipePlan>, origin: string) {
  const started = Date.now();
  const ms = () => Date.now() - started;
  const failedRun = (why: string, out: string): Outcome => ({
    passed: 0,
    failed: 0,
    skipped: 0,
    exercised: [],
    failures: [],
    ms: ms(),
    error: `${why}: ${out.slice(-600)}`,
  });
  if (tool === 'portman') {
    const args = ['-l', 'dbsi.openapi.json', '-c', 'portman-config.json', '-o', 'dbsi.postman.json'];
    const p = await run(bin(toolsDir, 'portman'), args, dir, env, timeoutMs);
    if (p.code !== 0) return failedRun('portman', p.out);
    const n = await run(
      bin(toolsDir, 'newman'),
      ['run', 'dbsi.postman.json', '-e', 'postman-environment.json', ...secretArgs('--env-var')].concat([
        '--reporters',
        'json',
        '--reporter-json-export',
        'newman.json',
      ]),
      dir,
      env,
      timeoutMs,
    );
    if (n.timedOut) return failedRun('newman timed out', n.out);
    try {
      return { ...newmanOutcome(plan, join(dir, 'newman.json')), ms: ms() };
    } catch {
      return failedRun('newman wrote no report', n.out);
    }
  }
  if (tool === 'stepci') {
    const s = await run(
      bin(toolsDir, 'stepci'),
      ['run', 'workflow.yml', '-v', ...secretArgs('-s')],
      dir,
      {
        ...env,
        STEPCI_DISABLE_ANALYTICS: '1',
      },
      timeoutMs,
    );
    if (s.timedOut || !/Steps: /.test(s.out)) return failedRun('stepci', s.out);
    return { ...stepCiOutcome(plan, s.out), ms: ms() };
  }
  const d = await run(
    bin(toolsDir, 'dredd'),
    ['dbsi.openapi30.json', origin, '--hookfiles', 'dredd-hooks.cjs', '--loglevel', 'warning'],
    dir,
    env,
    timeoutMs,
  );
  if (d.timedOut || !/complete: /.test(d.out)) return failedRun('dredd', d.out);
  return { ...dreddOutcome(plan, d.out), ms: ms() };
}

const results: { target: string; conformant: boolean; tool: RecipeTool; outcome: Outcome }[] = [];
const OPERATIONS = Object.values(doc.paths as Record<string, object>).reduce(
  (n, item) => n + Object.keys(item).filter((k) => k !== 'servers').length,
  0,
);
try {
  for (const target of targets) {
    for (const tool of tools) {
      // A fresh target for each tool: a recipe's writes (a revoked refresh token) are not another's state.
      const ref = await startReferenceTarget({ faults: target.faults, fixtures: target.fixtures });
      try {
        const config = referenceConfigFile(ref, { testData: FIXTURE_SETS[target.fixtures ?? 'default'].testData });
        const dir = join(scratch, `${target.label.replace(/\W+/g, '-')}-${tool}`);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'target.json'), JSON.stringify(config, null, 2));
        for (const [name, content] of Object.entries(recipeFiles(tool, doc, config, 'target.json')))
          writeFileSync(join(dir, name), content);
        const plan = recipePlan(doc, config, 'target.json');
        const outcome = await runTool(tool, dir, plan, new URL(ref.urls.baseUrl).origin);
        results.push({ target: target.label, conformant: target.conformant, tool, outcome });
        const o = outcome;
        const missing = [...new Set(plan.steps.map((s) => s.operationId))].filter((op) => !o.exercised.includes(op));
        const limit = limitOf(tool, target.label);
        const bad = target.conformant && (o.failed || o.error);
        console.log(
          `${tool.padEnd(8)} ${target.label.padEnd(34)} ` +
            `${o.error ? 'COULD NOT RUN' : `${o.passed} passed, ${o.failed} failed`}` +
            `, ${o.skipped} skipped, ${o.exercised.length}/${OPERATIONS} operations` +
            `${missing.length ? ` (not: ${missing.join(', ')})` : ''}, ${(o.ms / 1000).toFixed(1)} s` +
            `${!bad ? '' : limit ? "  <- the tool's limit" : '  <- FALSE FAILURE'}`,
        );
        if (limit && bad) console.log(`           the tool's limit: ${limit.why}`);
        for (const f of o.failures.slice(0, 4)) console.log(`           ${f}`);
        if (o.error) console.log(`           ${o.error.split('\n').slice(-6).join('\n           ')}`);
      } finally {
        await ref.close();
      }
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

console.log('\nper tool: conformant targets with a failed check / run; operations exercised (fewest); faults caught');
for (const tool of tools) {
  const mine = results.filter((r) => r.tool === tool);
  const conformant = mine.filter((r) => r.conformant);
  const failing = conformant.filter((r) => r.outcome.failed || r.outcome.error);
  const falseFailures = failing.filter((r) => !limitOf(tool, r.target));
  const limited = failing.filter((r) => limitOf(tool, r.target));
  const fewest = Math.min(...conformant.map((r) => r.outcome.exercised.length));
  const caught = mine.filter((r) => !r.conformant && r.outcome.failed).map((r) => r.target);
  const seconds = mine.reduce((n, r) => n + r.outcome.ms, 0) / 1000;
  console.log(
    `  ${tool.padEnd(8)} ${falseFailures.length}/${conformant.length} conformant targets failed` +
      `${falseFailures.length ? ` (${falseFailures.map((r) => r.target).join(', ')})` : ''}` +
      `${limited.length ? `, ${limited.length} by the tool's named limit (${limited.map((r) => r.target)})` : ''}; ` +
      `at least ${fewest}/${OPERATIONS} operations; faults caught ${caught.length}/${mine.length - conformant.length}` +
      `; ${seconds.toFixed(0)} s in all`,
  );
}
if (v.json) writeFileSync(resolve(v.json), `${JSON.stringify(results, null, 2)}\n`);
process.exitCode = results.some(
  (r) => r.conformant && (r.outcome.failed || r.outcome.error) && !limitOf(r.tool, r.target),
)
  ? 1
  : 0;
