import { describe, expect, it } from 'vitest';
import { BENCH_USAGE, benchArgs } from '../bench/args';

/** `npm run bench`'s options (bench/args.ts, read by bench/run.ts before it measures anything). */
function parse(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const result = benchArgs(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { result, out, err };
}

describe('npm run bench options', () => {
  it.each([['--help'], ['-h']])('%s prints the usage text and exits 0, measuring nothing', (flag) => {
    const { result, out, err } = parse([flag]);
    expect(result).toBe(0);
    expect(out).toEqual([BENCH_USAGE]);
    expect(err).toEqual([]);
    for (const o of ['--scenario', '--runs', '--latency', '--rounds', '--json', '--help']) {
      expect(BENCH_USAGE).toContain(o);
    }
  });

  it.each([
    [['--nope'], /^bench: Unknown option '--nope' \(npm run bench -- --help lists the options\)$/],
    [['stray'], /^bench: Unexpected argument 'stray'/],
    [['--runs'], /^bench: Option '--runs <value>' argument missing/],
    [['--scenario', 'fast'], /^bench: --scenario is one of all, embedded, realistic, startup, not "fast"/],
    [['--runs', '0'], /^bench: --runs must be a whole number from 1, not "0"/],
    [['--rounds', 'x'], /^bench: --rounds must be a whole number from 1, not "x"/],
    [['--latency=1.5'], /^bench: --latency must be a whole number of milliseconds, not "1.5"/],
  ])('%j: one line on stderr, no stack trace, exit 2', (argv, message) => {
    const { result, out, err } = parse(argv);
    expect(result).toBe(2);
    expect(out).toEqual([]);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(message);
    expect(err[0]).not.toMatch(/\n|\bat \S+ \(|TypeError/);
  });

  it('without options: every scenario, 3 runs, 50 ms, 20 rounds', () => {
    expect(parse([]).result).toEqual({ scenario: 'all', runs: 3, latencyMs: 50, rounds: 20, json: undefined });
    expect(parse(['--scenario', 'realistic', '--runs', '1', '--latency', '0', '--json', 'b.json']).result).toEqual({
      scenario: 'realistic',
      runs: 1,
      latencyMs: 0,
      rounds: 20,
      json: 'b.json',
    });
  });
});
