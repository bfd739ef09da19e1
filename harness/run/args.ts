import { parseArgs } from 'node:util';
import { SECRET_ENV } from '../config';
import { AREAS, type Area } from '../model';
import { nearest } from './suggest';

/** The reports folder without --reports (relative: in the folder npm was run from). */
export const DEFAULT_REPORTS = 'reports';

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface CliOptions {
  config?: string;
  /** Every --config given: more than one, or a folder, is a fleet (harness/run/fleet.ts). */
  configs: string[];
  /** A fleet's targets run at once (--parallel). */
  parallel?: number;
  areas: Area[];
  grep?: string;
  tags: string[];
  excludeGrep?: string;
  excludeTags: string[];
  seed?: number;
  strict: boolean;
  reports: string;
  /** --reports was given: else `reports` is the default folder (a message says so, not "--reports"). */
  reportsGiven: boolean;
  html: boolean;
  bundle: boolean;
  /** --sign KEY: sign the bundle's attestation with this Ed25519 private key (a PEM file, or env:NAME). */
  sign?: string;
  faults: string[];
  latencyMs?: number;
  /** Embedded target only: its spike arrest (requests per second, then 500 CMN_90002). */
  throttlePerSecond?: number;
  /** Overrides http.concurrency of the target's configuration. */
  concurrency?: number;
  /** Stop after this many tests failed a MUST check (clean-ups still run). */
  bail?: number;
  /** Print the selected tests and their requirement ids; send nothing. */
  list: boolean;
  /** Print (and write) the plan of every request the run would send; send nothing to the target. */
  dryRun: boolean;
  quiet: boolean;
  version: boolean;
  help: boolean;
  /** Judge this HAR capture instead of sending requests. */
  traffic?: string;
  /** Waivers file (deviations accepted by agreement); or DBSI_WAIVERS. */
  waivers?: string;
  /** An earlier conformance-summary.json, or its reports folder, to compare with. */
  compare?: string;
  /** The model-based explorer: sequences (0: off) and seconds; undefined: the target's default. */
  explore?: number;
  exploreTime?: number;
  /** Sequences of the institution disclosure explorer (none can be deleted); undefined: the target's default. */
  exploreInstitution?: number;
}

/** The option list: printed by --help and copied, exactly, into docs/options.md (a self-test compares them). */
export const OPTIONS_TEXT = `Options:
  --config FILE        target configuration (JSON, see schemas/config.schema.json); or DBSI_CONFIG;
                       repeated, or a folder of them: a fleet, each target run in a process of its
                       own, its reports in REPORTS/<name>/, one matrix REPORTS/fleet-matrix.md; the
                       exit code is the worst of the targets'
  --parallel N         a fleet's targets run at once (default 2)
  --area NAME          only this area; repeat or comma-separate:
                       disclosures, authentication, money-movement, contact-info
  --grep TEXT          only tests whose operation (name as the reports show it, or key), title or
                       requirement id matches TEXT (a regular expression, or plain text)
  --tag TAG            only tests carrying the tag: a requirement id (OP1-REQUEST), a grade
                       (MUST, SHOULD, INFO), an area or an operation key; repeatable
  --exclude-grep TEXT  leave out tests that --grep TEXT would select
  --exclude-tag TAG    leave out tests carrying the tag; repeatable
  --list               print the tests the selection runs, with their requirement ids; send nothing
  --dry-run            print the plan of every request the run would send to the target (method,
                       URL, the allow.* switch that gates it, secrets redacted) and write it to
                       REPORTS/dry-run-plan.md; nothing is sent to the target
  --bail [N]           stop after N tests failed a MUST check (default 1); clean-ups still run
  --seed N             seed of every generated value (printed, and recorded in the reports)
  --strict             SHOULD and INFO checks fail the run too (and a waiver no longer needed)
  --explore N          sequences the model-based explorer runs (0: off; default 12 on the embedded
                       target, 4 on a configured one); --explore-time S caps it at S seconds;
                       --explore-institution N: its sequences of institution disclosures, which
                       cannot be deleted (default: --explore's on the embedded target, 0 on a
                       configured one, where allow.institutionDisclosureWrites must be on too)
  --waivers FILE       accepted deviations (JSON, see schemas/waivers.schema.json); or DBSI_WAIVERS:
                       a failure a live waiver matches is reported WAIVED, listed first, and does
                       not fail the run; an expired waiver is ignored and reported
  --compare PREVIOUS   compare with an earlier run (its conformance-summary.json, or its reports
                       folder): newly failed, fixed, still failing, newly could not test, waivers
                       expiring within 14 days; the exit code does not change
  --reports DIR        where reports go (default: reports, in the folder npm was run from)
  --html               also build the single-file Allure HTML report
  --bundle             also pack the evidence bundle (implies --html): summaries, JUnit, HTML
                       report, MANIFEST.json and SHA256SUMS in one tar.gz, refused if a
                       configured secret appears in any of them
  --sign KEY           with --bundle: add a signed attestation (in-toto, DSSE, Ed25519) of every
                       file of the bundle; KEY is a PEM private key file, or env:NAME for a
                       variable holding it; check it with: dbsi-conformance verify BUNDLE --key PUB
  --fault NAME         embedded target only: switch on a named fault (repeatable)
  --latency MS         embedded target only: delay every answer by MS milliseconds
  --throttle N         embedded target only: above N requests in any second it answers 500
                       {"code":"CMN_90002","message":"Spike limit violation"} (a vendor's spike
                       arrest) and does not process the request; the client paces itself
  --concurrency N      at most N requests in flight (overrides http.concurrency)
  --quiet              no banner and no progress: only the summary (warnings still go to stderr)
  --traffic FILE.har   judge recorded traffic (HAR 1.2) instead of sending requests: nothing is
                       sent; with --config its base URLs map the entries to operations, without
                       it they are inferred from the spec's paths (npm run record captures one);
                       --area names the areas it must show (exit 5 when one shows no rule)
  --version            print the suite's version
  -h, --help           this text`;

export const EXIT_TEXT = `Exit codes: 0 conformant in every selected area (also when every failure is waived:
"conformant with N waived deviations"), 1 non-conformant (a MUST check failed and no live waiver
matches it; under --strict also a waiver no longer needed), 2 usage or configuration error (also a
bad waivers file, or a waiver naming no known requirement), 3 the target could not be tested (no
verdict), 4 evidence bundle refused (a configured secret appears in an artifact; nothing was
packed), 5 conformant in the areas tested but a selected area was not tested (allow.* off, or not
applicable), 130 interrupted.`;

/** The environment variables the main command reads, for --help. */
const ENV_VARIABLES: Array<[string, string]> = [
  ['DBSI_CONFIG', 'the target configuration, as --config FILE'],
  ['DBSI_WAIVERS', 'the waivers file, as --waivers FILE'],
  ['DBSI_SPEC_URL', "where the reports link the spec's sections (default: the spec file here)"],
  ['DBSI_SIGNING_KEY', 'read only as --sign env:DBSI_SIGNING_KEY: the PEM private key that signs the bundle'],
  ...Object.entries(SECRET_ENV).map(([name, key]): [string, string] => [
    name,
    `${key}${name === 'DBSI_CONTACT_INFO_HEADERS' ? ' (a JSON object)' : ''}`,
  ]),
];

export const ENV_TEXT = `Environment variables (a secret set here wins over the configuration file's value):
${ENV_VARIABLES.map(([name, what]) => `  ${name.padEnd(31)}${what}`).join('\n')}`;

export const USAGE = `Usage: npm run conformance -- [options]

Runs the DBSI conformance suites against a target. With no --config (and no DBSI_CONFIG),
the embedded reference target is started on 127.0.0.1 and every suite runs against it.
A relative FILE or DIR is taken from the folder npm was run from (INIT_CWD), else the current one.

${OPTIONS_TEXT}

${ENV_TEXT}

${EXIT_TEXT}`;

/** The options --help lists, as typed ("--grep"). */
export const OPTION_NAMES = [...OPTIONS_TEXT.matchAll(/^ {2}(?:-h, )?(--[a-z-]+)/gm)].map((m) => m[1]!);

/** parseArgs' message for an unknown option, with the nearest option named ("did you mean --grep?"). */
function unknownOption(e: Error & { code?: string }): string {
  const unknown = e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'(-[^']*)'/.exec(e.message)?.[1] : undefined;
  if (!unknown) return e.message;
  const name = unknown.split('=')[0]!;
  const near = nearest(name.startsWith('--') ? name : `-${name}`, OPTION_NAMES);
  return `unknown option ${name}` + (near ? `: did you mean ${near}?` : '') + ' (--help lists the options)';
}

/** `--bail` may stand alone (then 1) or take a number: a following argument that is a whole number is its value. */
function bailArgs(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--bail') out.push(/^\d+$/.test(argv[i + 1] ?? '') ? `--bail=${argv[++i]}` : '--bail=1');
    else out.push(a);
  }
  return out;
}

function nonEmpty(option: string, text: string | undefined): void {
  if (text === undefined) return;
  if (text.trim() === '') throw new UsageError(`${option} needs a text to match, not an empty string`);
}

const CLI_OPTIONS = {
  config: { type: 'string', multiple: true },
  parallel: { type: 'string' },
  area: { type: 'string', multiple: true },
  grep: { type: 'string' },
  tag: { type: 'string', multiple: true },
  'exclude-grep': { type: 'string' },
  'exclude-tag': { type: 'string', multiple: true },
  list: { type: 'boolean', default: false },
  'dry-run': { type: 'boolean', default: false },
  bail: { type: 'string' },
  seed: { type: 'string' },
  strict: { type: 'boolean', default: false },
  reports: { type: 'string' },
  html: { type: 'boolean', default: false },
  bundle: { type: 'boolean', default: false },
  sign: { type: 'string' },
  fault: { type: 'string', multiple: true },
  latency: { type: 'string' },
  throttle: { type: 'string' },
  concurrency: { type: 'string' },
  quiet: { type: 'boolean', default: false },
  version: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  traffic: { type: 'string' },
  waivers: { type: 'string' },
  compare: { type: 'string' },
  explore: { type: 'string' },
  'explore-time': { type: 'string' },
  'explore-institution': { type: 'string' },
} as const;

type CliValues = ReturnType<
  typeof parseArgs<{ args: string[]; allowPositionals: false; options: typeof CLI_OPTIONS }>
>['values'];

export function parseCli(argv: string[]): CliOptions {
  let v: CliValues;
  try {
    v = parseArgs({ args: bailArgs(argv), allowPositionals: false, options: CLI_OPTIONS }).values;
  } catch (e) {
    throw new UsageError(unknownOption(e as Error));
  }
  const areas = selectedAreas(v.area);
  const n = numbers(v);
  checkCombinations(v);
  let parallel: number | undefined;
  if (v.parallel !== undefined) {
    parallel = Number(v.parallel);
    if (!/^\d+$/.test(v.parallel) || parallel < 1 || parallel > 16)
      throw new UsageError(`--parallel must be a whole number of targets from 1 to 16, not "${v.parallel}"`);
  }
  if ((v.config?.length ?? 0) > 1 && v.traffic !== undefined)
    throw new UsageError('--traffic judges one capture with one configuration: give --config once');
  return cliOptions(v, areas, { ...n, parallel });
}

function selectedAreas(given: string[] | undefined): string[] {
  const areas = (given ?? [])
    .flatMap((a) => a.split(','))
    .map((a) => a.trim())
    .filter(Boolean);
  for (const a of areas)
    if (!AREAS.includes(a as Area))
      throw new UsageError(`unknown area "${a}": expected one of ` + `${AREAS.join(', ')}`);
  return areas;
}

/** The options that take a number, checked in the order the usage errors are given (and the texts to match). */
function numbers(v: CliValues) {
  let seed: number | undefined;
  if (v.seed !== undefined) {
    seed = Number(v.seed);
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
      throw new UsageError(`--seed must be a whole number from 0 to ` + `4294967295, not "${v.seed}"`);
  }
  nonEmpty('--grep', v.grep);
  nonEmpty('--exclude-grep', v['exclude-grep']);
  if (v.waivers?.trim() === '') throw new UsageError('--waivers needs a file, not an empty string');
  if (v.compare?.trim() === '') throw new UsageError('--compare needs a file or folder, not an empty string');
  let latencyMs: number | undefined;
  if (v.latency !== undefined) {
    latencyMs = Number(v.latency);
    if (!Number.isFinite(latencyMs) || latencyMs < 0)
      throw new UsageError(`--latency must be a number of ` + `milliseconds, not "${v.latency}"`);
  }
  let throttlePerSecond: number | undefined;
  if (v.throttle !== undefined) {
    throttlePerSecond = Number(v.throttle);
    if (!/^\d+$/.test(v.throttle) || throttlePerSecond < 1) {
      throw new UsageError(`--throttle must be a whole number of requests per second from 1, not "${v.throttle}"`);
    }
  }
  let concurrency: number | undefined;
  if (v.concurrency !== undefined) {
    concurrency = Number(v.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256)
      throw new UsageError(`--concurrency must be a whole number from 1 to ` + `256, not "${v.concurrency}"`);
  }
  const explore = wholeNumber('--explore', v.explore, 0, 100000);
  const exploreTime = wholeNumber('--explore-time', v['explore-time'], 1, 86400);
  const exploreInstitution = wholeNumber('--explore-institution', v['explore-institution'], 0, 100000);
  let bail: number | undefined;
  if (v.bail !== undefined) {
    bail = Number(v.bail);
    if (!/^\d+$/.test(v.bail) || bail < 1)
      throw new UsageError(`--bail takes a whole number of MUST failures ` + `from 1, not "${v.bail}"`);
  }
  return { seed, latencyMs, throttlePerSecond, concurrency, explore, exploreTime, exploreInstitution, bail };
}

/** Options that do not go together. */
function checkCombinations(v: CliValues): void {
  if (v.traffic !== undefined) {
    // --area names the areas the capture must cover (the traffic is judged whole).
    const sending = [
      'grep',
      'tag',
      'seed',
      'fault',
      'latency',
      'throttle',
      'concurrency',
      'bail',
      'explore',
      'explore-time',
      'explore-institution',
    ] as const;
    const active = [
      ...sending.filter((k) => v[k] !== undefined),
      ...(v.list ? (['list'] as const) : []),
      ...(v['dry-run'] ? (['dry-run'] as const) : []),
    ];
    if (active.length)
      throw new UsageError(
        `${active.map((k) => `--${k}`).join(', ')} ${active.length === 1 ? 'does' : 'do'} not apply ` +
          `with --traffic: recorded traffic is judged whole, and nothing is sent`,
      );
  }
  if (v.sign !== undefined && !v.bundle)
    throw new UsageError('--sign signs the evidence bundle: give --bundle with it');
  if (v.sign?.trim() === '') throw new UsageError('--sign needs a key file or env:NAME, not an empty string');
  if (v.list && v['dry-run'])
    throw new UsageError(
      '--list and --dry-run cannot be combined: --list shows ' + 'the tests, --dry-run the requests',
    );
}

function cliOptions(
  v: CliValues,
  areas: string[],
  n: ReturnType<typeof numbers> & { parallel: number | undefined },
): CliOptions {
  const { seed, latencyMs, throttlePerSecond, concurrency, bail, explore, exploreTime, exploreInstitution, parallel } =
    n;
  return {
    config: v.config?.[0],
    configs: v.config ?? [],
    parallel,
    areas: (areas.length ? [...new Set(areas)] : [...AREAS]) as Area[],
    grep: v.grep,
    tags: v.tag ?? [],
    excludeGrep: v['exclude-grep'],
    excludeTags: v['exclude-tag'] ?? [],
    seed,
    strict: v.strict!,
    reports: v.reports ?? DEFAULT_REPORTS,
    reportsGiven: v.reports !== undefined,
    html: v.html! || v.bundle!,
    bundle: v.bundle!,
    sign: v.sign,
    faults: (v.fault ?? []).flatMap((f) => f.split(',')).filter(Boolean),
    latencyMs,
    throttlePerSecond,
    concurrency,
    bail,
    list: v.list!,
    dryRun: v['dry-run']!,
    quiet: v.quiet!,
    version: v.version!,
    help: v.help!,
    traffic: v.traffic,
    waivers: v.waivers,
    compare: v.compare,
    explore,
    exploreTime,
    exploreInstitution,
  };
}

/** A whole number option from `min` to `max`, or undefined when not given. */
function wholeNumber(name: string, given: string | undefined, min: number, max: number): number | undefined {
  if (given === undefined) return undefined;
  const n = Number(given);
  if (!/^\d+$/.test(given) || n < min || n > max)
    throw new UsageError(`${name} must be a whole number from ${min} to ${max}, not "${given}"`);
  return n;
}
