import { parseArgs } from 'node:util';

/** The options of `npm run bench` (bench/run.ts), parsed apart from the bench so that a self-test can run them. */

export interface BenchOptions {
  runs: number;
  latencyMs: number;
  rounds: number;
  json?: string;
  scenario: 'all' | 'embedded' | 'realistic' | 'startup';
}

export const BENCH_USAGE = `Usage: npm run bench -- [options]

How fast the suite is on this machine (no verdict; not part of the tests). Scenario R runs the
reference target in its own process with a bank sandbox's fixtures and latency; S times the start of
--version, a refused configuration and --list (7 times each); A-E run the main job against the
embedded reference target (wall time, CPU per exchange, latency, concurrency 1).

Options:
  --scenario NAME  all (R, S, then A-E), embedded (A-E), realistic (R) or startup (S); default all
  --runs N         repetitions of A and R (default 3)
  --latency MS     milliseconds added to every answer in R and C-E (default 50)
  --rounds N       in-process rounds of every case for the CPU per exchange (default 20)
  --json FILE      also write the measurements as JSON to FILE
  -h, --help       this text`;

export interface BenchIo {
  out(line: string): void;
  err(line: string): void;
}

const SCENARIOS = ['all', 'embedded', 'realistic', 'startup'] as const;

/** The bench's options, or the exit code when there is nothing to run: 0 after --help, 2 after a usage error. */
export function benchArgs(argv: string[], io: BenchIo): BenchOptions | number {
  const fail = (message: string) => {
    io.err(`bench: ${message} (npm run bench -- --help lists the options)`);
    return 2;
  };
  let v;
  try {
    v = parseArgs({
      args: argv,
      allowPositionals: false,
      options: {
        runs: { type: 'string', default: '3' },
        latency: { type: 'string', default: '50' },
        rounds: { type: 'string', default: '20' },
        json: { type: 'string' },
        scenario: { type: 'string', default: 'all' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (e) {
    return fail((e as Error).message.split('\n')[0]!.replace(/\. To specify a positional argument.*$/, ''));
  }
  if (v.help) {
    io.out(BENCH_USAGE);
    return 0;
  }
  if (!(SCENARIOS as readonly string[]).includes(v.scenario!)) {
    return fail(`--scenario is one of ${SCENARIOS.join(', ')}, not "${v.scenario}"`);
  }
  const whole = (text: string, min: number) => {
    const n = Number(text);
    return /^\d+$/.test(text) && n >= min ? n : undefined;
  };
  const runs = whole(v.runs!, 1);
  if (runs === undefined) return fail(`--runs must be a whole number from 1, not "${v.runs}"`);
  const rounds = whole(v.rounds!, 1);
  if (rounds === undefined) return fail(`--rounds must be a whole number from 1, not "${v.rounds}"`);
  const latencyMs = whole(v.latency!, 0);
  if (latencyMs === undefined) return fail(`--latency must be a whole number of milliseconds, not "${v.latency}"`);
  return { runs, rounds, latencyMs, json: v.json, scenario: v.scenario as BenchOptions['scenario'] };
}
