import { parseArgs } from 'node:util';
import { AREAS, type Area } from '../model';

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface CliOptions {
  config?: string;
  areas: Area[];
  grep?: string;
  tags: string[];
  seed?: number;
  strict: boolean;
  reports: string;
  html: boolean;
  bundle: boolean;
  faults: string[];
  latencyMs?: number;
  /** Overrides http.concurrency of the target's configuration. */
  concurrency?: number;
  quiet: boolean;
  help: boolean;
}

export const USAGE = `Usage: npm run conformance -- [options]

Runs the DBSI conformance suites against a target. With no --config (and no DBSI_CONFIG),
the embedded reference target is started on 127.0.0.1 and every suite runs against it.

Options:
  --config FILE        target configuration (JSON, see schemas/config.schema.json); or DBSI_CONFIG
  --area NAME          only this area; repeat or comma-separate:
                       disclosures, authentication, money-movement, contact-info
  --grep REGEX         only tests whose operation or title matches
  --tag TAG            only tests carrying the tag: a requirement id (OP1-REQUEST), a grade
                       (MUST, SHOULD, INFO), an area or an operation key; repeatable
  --seed N             seed of every generated value (printed, and recorded in the reports)
  --strict             SHOULD and INFO checks fail the run too
  --reports DIR        where reports go (default: reports)
  --html               also build the single-file Allure HTML report
  --bundle             also pack the evidence bundle (implies --html): summaries, JUnit, HTML
                       report, MANIFEST.json and SHA256SUMS in one tar.gz, refused if a
                       configured secret appears in any of them
  --fault NAME         embedded target only: switch on a named fault (repeatable)
  --latency MS         embedded target only: delay every answer by MS milliseconds
  --concurrency N      at most N requests in flight (overrides http.concurrency)
  --quiet              print only the summary
  -h, --help           this text

Exit codes: 0 conformant, 1 non-conformant (a MUST check failed), 2 usage or configuration
error, 3 the target could not be tested (no verdict), 4 evidence bundle refused (a configured
secret appears in an artifact; nothing was packed), 130 interrupted.`;

export function parseCli(argv: string[]): CliOptions {
  let v;
  try {
    v = parseArgs({
      args: argv,
      allowPositionals: false,
      options: {
        config: { type: 'string' },
        area: { type: 'string', multiple: true },
        grep: { type: 'string' },
        tag: { type: 'string', multiple: true },
        seed: { type: 'string' },
        strict: { type: 'boolean', default: false },
        reports: { type: 'string', default: 'reports' },
        html: { type: 'boolean', default: false },
        bundle: { type: 'boolean', default: false },
        fault: { type: 'string', multiple: true },
        latency: { type: 'string' },
        concurrency: { type: 'string' },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const areas = (v.area ?? []).flatMap((a) => a.split(',')).map((a) => a.trim()).filter(Boolean);
  for (const a of areas) if (!AREAS.includes(a as Area)) throw new UsageError(`unknown area "${a}": expected one of ${AREAS.join(', ')}`);
  let seed: number | undefined;
  if (v.seed !== undefined) {
    seed = Number(v.seed);
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new UsageError(`--seed must be a whole number from 0 to 4294967295, not "${v.seed}"`);
  }
  if (v.grep) {
    try {
      new RegExp(v.grep);
    } catch {
      throw new UsageError(`--grep is not a valid regular expression: ${v.grep}`);
    }
  }
  let latencyMs: number | undefined;
  if (v.latency !== undefined) {
    latencyMs = Number(v.latency);
    if (!Number.isFinite(latencyMs) || latencyMs < 0) throw new UsageError(`--latency must be a number of milliseconds, not "${v.latency}"`);
  }
  let concurrency: number | undefined;
  if (v.concurrency !== undefined) {
    concurrency = Number(v.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256) throw new UsageError(`--concurrency must be a whole number from 1 to 256, not "${v.concurrency}"`);
  }
  return {
    config: v.config,
    areas: (areas.length ? [...new Set(areas)] : [...AREAS]) as Area[],
    grep: v.grep,
    tags: v.tag ?? [],
    seed,
    strict: v.strict!,
    reports: v.reports!,
    html: v.html! || v.bundle!,
    bundle: v.bundle!,
    faults: (v.fault ?? []).flatMap((f) => f.split(',')).filter(Boolean),
    latencyMs,
    concurrency,
    quiet: v.quiet!,
    help: v.help!,
  };
}
