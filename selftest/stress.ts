/**
 * The stress mode of the self-tests (issue 34): `npm run test:stress` runs them with CPU hogs beside them, two
 * per core, so that a self-test that relies on the machine's speed fails here before it fails on a contributor's
 * busy laptop. Run it before a change to timing-sensitive code (CONTRIBUTING.md). Every hog is a child process
 * that ends by itself after HOG_MAX_MS whatever happens to this one, and is killed when the command ends (also on
 * Ctrl-C). Arguments after `--` replace the command (default: the self-tests, `vitest run`); its exit code is
 * this one's. `STRESS_HOGS` sets the number of hogs (0 to 64).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism, constants, loadavg } from 'node:os';

/** A hog ends by itself after this long, even if the command that started it was killed. */
const HOG_MAX_MS = 45 * 60_000;
const MAX_HOGS = 64;

/** Two hogs per core, or `STRESS_HOGS`; a message when that is not a whole number from 0 to 64. */
function hogCount(env: NodeJS.ProcessEnv, cores: number): number | string {
  const v = env.STRESS_HOGS;
  if (v === undefined || v === '') return 2 * cores;
  if (!/^\d+$/.test(v) || Number(v) > MAX_HOGS) return `STRESS_HOGS must be a whole number from 0 to ${MAX_HOGS}`;
  return Number(v);
}

function startHog(): ChildProcess {
  const code = `const end = Date.now() + ${HOG_MAX_MS}; let x = 0; while (Date.now() < end) x = (x + 1) % 1e9;`;
  return spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
}

async function main(argv: string[]): Promise<number> {
  const hogs = hogCount(process.env, availableParallelism());
  if (typeof hogs === 'string') {
    process.stderr.write(`test:stress: ${hogs}\n`);
    return 2;
  }
  // `npm run test:stress -- CMD` reaches here as CMD (npm takes the `--`), `node … stress.ts -- CMD` with it.
  const dash = argv.indexOf('--');
  const given = dash >= 0 ? argv.slice(dash + 1) : argv;
  const command =
    dash < 0 && given.length === 0 ? ['npx', 'vitest', 'run', '--config', 'selftest/vitest.config.ts'] : given;
  if (command.length === 0) {
    process.stderr.write('test:stress: nothing to run after "--"\n');
    return 2;
  }
  const children = Array.from({ length: hogs }, startHog);
  const stop = () => {
    for (const h of children) if (h.exitCode === null && h.signalCode === null) h.kill('SIGKILL');
  };
  const t0 = Date.now();
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  process.stdout.write(
    `test:stress: ${hogs} CPU hogs (pids ${children.map((h) => h.pid).join(',')}) beside: ${command.join(' ')}; ` +
      `load ${load()}\n`,
  );
  try {
    const code = await new Promise<number>((resolve) => {
      const child = spawn(command[0]!, command.slice(1), { stdio: 'inherit' });
      const forward = (sig: NodeJS.Signals) => child.kill(sig);
      process.on('SIGINT', forward);
      process.on('SIGTERM', forward);
      child.on('error', (e) => {
        process.stderr.write(`test:stress: could not start ${command[0]}: ${e.message}\n`);
        resolve(2);
      });
      child.on('exit', (c, sig) => {
        process.off('SIGINT', forward);
        process.off('SIGTERM', forward);
        resolve(c ?? 128 + (sig ? (constants.signals[sig] ?? 0) : 0));
      });
    });
    const secs = ((Date.now() - t0) / 1000).toFixed(0);
    process.stdout.write(`test:stress: exit ${code} after ${secs} s with ${hogs} hogs; load ${load()}\n`);
    return code;
  } finally {
    stop();
    process.stdout.write('test:stress: hogs stopped\n');
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code));
