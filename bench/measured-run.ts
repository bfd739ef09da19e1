import { writeFileSync } from 'node:fs';
import { main } from '../harness/run/main';

/**
 * The main job, plus the CPU time it used (main thread and vitest worker threads: getrusage of the
 * whole process) written to $BENCH_USAGE_FILE. Used by bench/run.ts only.
 */
const code = await main(process.argv.slice(2));
const cpu = process.cpuUsage();
if (process.env.BENCH_USAGE_FILE)
  writeFileSync(
    process.env.BENCH_USAGE_FILE,
    JSON.stringify({ userMs: cpu.user / 1000, systemMs: cpu.system / 1000, maxRssKb: process.resourceUsage().maxRSS }),
  );
process.exit(code);
