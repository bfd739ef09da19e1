import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One measured run of the main job (bin/conformance.ts's main, compiled, in a child process). Used by the bench only.
 * */

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** bench/measured-run.ts as `npm run conformance` runs the main job: compiled (launch/build.mjs). */
const MEASURED_RUN = 'launch/measured-run.mjs';

interface Summary {
  facts: { durationMs: number; exitCode: number; verdict: string };
  cases: Array<{ id: string; area: string; outcome: string; exchanges: number }>;
  /** The explorer's sequences (its own client: not in the cases' exchanges). */
  exploration?: { requests: number };
}

export interface Measured {
  label: string;
  wallMs: number;
  /** From the first test's start to the last test's end (Allure results): the run without start-up. */
  testPhaseMs: number;
  cpuMs: number;
  maxRssMb: number;
  exitCode: number | null;
  verdict: string;
  cases: number;
  exchanges: number;
  /** The most exchanges in one case: its requests go one after another. */
  longestChain: number;
  exchangesByArea: Record<string, number>;
  /** Cases by outcome (passed, failed, not-applicable, …). */
  outcomes: Record<string, number>;
  /** Where the run wrote its reports (a temporary directory). */
  reportsDir: string;
}

export async function measure(label: string, args: string[]): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'dbsi-bench-'));
  const usageFile = join(dir, 'usage.json');
  const reports = join(dir, 'reports');
  const t0 = performance.now();
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [MEASURED_RUN, '--quiet', '--seed', '1', '--reports', reports, ...args], {
      cwd: ROOT,
      env: { ...process.env, DBSI_CONFIG: '', BENCH_USAGE_FILE: usageFile },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('close', (c) => resolve(c));
  });
  const wallMs = performance.now() - t0;
  const summary = JSON.parse(readFileSync(join(reports, 'conformance-summary.json'), 'utf8')) as Summary;
  const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as { userMs: number; systemMs: number; maxRssKb: number };
  let first = Infinity;
  let last = 0;
  for (const f of readdirSync(join(reports, 'allure-results')).filter((n) => n.endsWith('-result.json'))) {
    const r = JSON.parse(readFileSync(join(reports, 'allure-results', f), 'utf8')) as Timed & { status?: string };
    // A test skipped from inside (not applicable, not allowed) gets its start and stop from allure-vitest
    // when vitest reports it, at the end of the run, not when it ran: its steps (recorded as they
    // happen) say when it sent anything.
    for (const x of r.status === 'skipped' ? stepsOf(r) : [r]) {
      if (x.start) first = Math.min(first, x.start);
      if (x.stop) last = Math.max(last, x.stop);
    }
  }
  return {
    label,
    wallMs,
    testPhaseMs: last > first ? last - first : NaN,
    cpuMs: usage.userMs + usage.systemMs,
    maxRssMb: usage.maxRssKb / 1024,
    exitCode: code,
    verdict: summary.facts.verdict,
    cases: summary.cases.length,
    exchanges: summary.cases.reduce((n, c) => n + c.exchanges, 0) + (summary.exploration?.requests ?? 0),
    longestChain: Math.max(0, ...summary.cases.map((c) => c.exchanges)),
    exchangesByArea: summary.cases.reduce<Record<string, number>>(
      (m, c) => ((m[c.area] = (m[c.area] ?? 0) + c.exchanges), m),
      {},
    ),
    outcomes: summary.cases.reduce<Record<string, number>>((m, c) => ((m[c.outcome] = (m[c.outcome] ?? 0) + 1), m), {}),
    reportsDir: reports,
  };
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
export const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Start bin/reference.ts in a child process with the given options; resolves to its URLs and a stop function. */
export async function referenceProcess(
  args: string[],
): Promise<{ urls: Record<'baseUrl' | 'authBaseUrl' | 'transfersBaseUrl', string>; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/reference.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const urls = await new Promise<Record<string, string>>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = [...out.matchAll(/^\s+(baseUrl|authBaseUrl|transfersBaseUrl):\s+(\S+)/gm)];
      if (m.length === 3) resolve(Object.fromEntries(m.map((x) => [x[1]!, x[2]!])));
    });
    void closed.then(() => reject(new Error('the reference target did not start')));
  });
  return {
    urls: urls as never,
    stop: async () => {
      child.kill('SIGTERM');
      await Promise.race([closed, new Promise((r) => setTimeout(r, 5_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

interface Timed {
  start?: number;
  stop?: number;
  steps?: Timed[];
}

/** Every step of an Allure result, nested ones included. */
function stepsOf(r: Timed): Timed[] {
  return (r.steps ?? []).flatMap((s) => [s, ...stepsOf(s)]);
}
