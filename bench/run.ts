/**
 * npm run bench: how fast the suite is on this machine (not part of the tests; no verdict here).
 *
 *  R. the realistic scenario (bench/realistic.ts): the reference target in its own process with a
 *     bank sandbox's fixtures (3 disclosures, 1 already accepted, 1 customer), +50 ms per answer, at
 *     the default concurrency (--runs times) and at concurrency 1: their ratio, the requests, the
 *     critical path as executed;
 *  S. the start-up of --version, a refused configuration and --list (bench/startup.ts);
 *  A. the full run against the embedded reference target: wall time (median of 3), test phase;
 *  B. the same suite against the reference target hosted by this (bench) process, so that the
 *     child's CPU time is the harness's alone: CPU time per exchange;
 *  C. the full run against the embedded target with 50 ms added to every answer, compared with the
 *     shortest possible time (the longest chain of dependent requests × 50 ms);
 *  C'. the harness alone (no vitest, no Allure) against the same latency, in this process;
 *  D. run C at concurrency 1;
 *  E. run C with twice the latency: the difference gives the critical path as executed.
 *
 * Options: bench/args.ts (npm run bench -- --help).
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { startReferenceTarget } from '../reference-target/server';
import { benchArgs } from './args';
import { measure, median, referenceProcess, ROOT, s, type Measured } from './measure';
import { printRealistic, realisticScenario } from './realistic';
import { printStartup, startupScenario } from './startup';

const parsed = benchArgs(process.argv.slice(2), { out: (l) => console.log(l), err: (l) => console.error(l) });
if (typeof parsed === 'number') process.exit(parsed);
const values = parsed;
const ROUNDS = values.rounds;
const RUNS = values.runs;
const LATENCY = values.latencyMs;
const machine = () => ({ cpus: cpus().length, node: process.version });

console.log(
  `dbsi-conformance bench: ${cpus().length} CPU(s) (${cpus()[0]?.model ?? '?'}), Node ${process.version}, ` +
    `load average ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
);

// R. the realistic scenario: the reference target in its own process with a sandbox's fixtures.
const skipsRealistic = values.scenario === 'embedded' || values.scenario === 'startup';
const realistic = skipsRealistic ? undefined : await realisticScenario({ runs: RUNS, latencyMs: LATENCY });
if (realistic) printRealistic(realistic);
// S. the start-up of commands that run no test.
const startup = values.scenario === 'all' || values.scenario === 'startup' ? await startupScenario(7) : undefined;
if (startup) printStartup(startup);
if (values.scenario === 'startup') {
  if (values.json) writeFileSync(values.json, JSON.stringify({ machine: machine(), startup }, null, 2));
  process.exit(0);
}
if (values.scenario === 'realistic') {
  if (values.json) writeFileSync(values.json, JSON.stringify({ machine: machine(), realistic, startup }, null, 2));
  process.exit(0);
}

// A. embedded, no latency
const a: Measured[] = [];
for (let i = 0; i < RUNS; i++) a.push(await measure(`embedded #${i + 1}`, []));
const aMed = a.find((m) => m.wallMs === median(a.map((x) => x.wallMs)))!;

// B. reference target in this process, the harness alone in the child
const target = await startReferenceTarget();
const cfgFile = join(mkdtempSync(join(tmpdir(), 'dbsi-bench-')), 'target.json');
writeFileSync(
  cfgFile,
  JSON.stringify({
    name: 'reference target (bench process)',
    ...target.urls,
    credentials: REFERENCE_CREDENTIALS,
    testData: REFERENCE_TEST_DATA,
    allow: { moneyMovement: true, contactUpdate: true, tokenRevocation: true, institutionDisclosureWrites: true },
    http: { timeoutMs: 5_000, concurrency: 64 },
  }),
);
const b = await measure('harness only (target out of process)', ['--config', cfgFile]);
await target.close();

// B'. the harness's own work per exchange (client, redaction, checks, case runner; no vitest, no
// Allure), in this process, against the reference target in a child process: CPU of this process.
const perExchange = await inProcess(ROUNDS, 0);
// C'. the same with the latency: how well the harness itself overlaps the cases, without the runner.
const inProcessLatency = await inProcess(5, LATENCY);

// C and D. 50 ms latency, default concurrency and concurrency 1
const c = await measure(`embedded, +${LATENCY} ms latency`, ['--latency', String(LATENCY)]);
const d = await measure(`embedded, +${LATENCY} ms latency, concurrency 1`, [
  '--latency',
  String(LATENCY),
  '--concurrency',
  '1',
]);
// E. twice the latency: the extra time over C is (requests one after another on the run's critical path) × LATENCY.
const e = await measure(`embedded, +${2 * LATENCY} ms latency`, ['--latency', String(2 * LATENCY)]);

const chainMs = c.longestChain * LATENCY;
const lock = existsSync(join(ROOT, 'harness', 'lock.ts'));
const table = [...a, b, c, d, e];
const CONCURRENCY = 64; // the embedded target's http.concurrency
// Every area runs in one worker under one connection limit: no run can beat total work / concurrency.
const workMs = Math.ceil(c.exchanges / CONCURRENCY) * LATENCY;
const depth = Math.round((e.testPhaseMs - c.testPhaseMs) / LATENCY);
console.log('');
console.log('| run | exit | tests | exchanges | longest chain | wall | test phase | CPU (process) | max RSS |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const m of table)
  console.log(
    `| ${m.label} | ${m.exitCode} (${m.verdict}) | ${m.cases} | ${m.exchanges} | ${m.longestChain} | ` +
      `${s(m.wallMs)} | ${s(m.testPhaseMs)} | ${s(m.cpuMs)} | ${m.maxRssMb.toFixed(0)} MB |`,
  );
console.log('');
console.log(
  `A. full run, embedded target: ${s(aMed.wallMs)} wall (median of ${RUNS}; target ≤ 2.0 s on a quiet ` +
    `machine, issue 21), of which the tests ${s(aMed.testPhaseMs)}; the rest is start-up (vitest, module ` +
    `loading) and reports.`,
);
console.log(
  `B. harness CPU, whole CLI process: ${s(b.cpuMs)} for ${b.exchanges} exchanges ` +
    `(${(b.cpuMs / Math.max(1, b.exchanges)).toFixed(0)} ms per exchange, mostly the fixed start-up of vitest ` +
    `and module loading);`,
);
console.log(
  `   the harness's own work: ${perExchange.cpuMsPerExchange.toFixed(2)} ms CPU per exchange ` +
    `(${perExchange.exchanges} exchanges in ${ROUNDS} in-process rounds of every case, target in another process).`,
);
console.log(`C. +${LATENCY} ms latency: test phase ${s(c.testPhaseMs)}, wall ${s(c.wallMs)}. Shortest possible:`);
console.log(
  `   - longest chain of dependent requests in one case: ${c.longestChain} × ${LATENCY} ms = ` +
    `${s(chainMs)} → ${(c.testPhaseMs / Math.max(1, chainMs)).toFixed(2)}× (target: within 2×);`,
);
console.log(
  `   - work bound: ${c.exchanges} exchanges over http.concurrency ${CONCURRENCY} = ${s(workMs)} → ` +
    `${(c.testPhaseMs / Math.max(1, workMs, chainMs)).toFixed(2)}× the larger of the two bounds;`,
);
console.log(
  `   - as executed (run E minus run C): ${depth} requests one after another on the critical path ` +
    `(${s(depth * LATENCY)}) → ${(c.testPhaseMs / Math.max(1, depth * LATENCY)).toFixed(2)}×: what the harness ` +
    `adds beyond the latency.`,
);
console.log(
  `C'. the harness alone (no vitest, no Allure), +${LATENCY} ms: first round ` +
    `${s(inProcessLatency.firstRoundMs)}, then ${s(inProcessLatency.medianRoundMs)} per round of every case ` +
    `(${(inProcessLatency.medianRoundMs / Math.max(1, inProcessLatency.longestChain * LATENCY)).toFixed(2)}× ` +
    `its shortest possible ${s(inProcessLatency.longestChain * LATENCY)}).`,
);
if (lock)
  console.log(
    '   harness/lock.ts exists: cases serialized by a keyed lock form longer chains than one case; ' +
      'the chain bound ignores them, the critical path as executed includes them.',
  );
console.log(
  `D. concurrency 1: test phase ${s(d.testPhaseMs)} ` +
    `(${(d.testPhaseMs / Math.max(1, c.testPhaseMs)).toFixed(1)}× run C); the floor at concurrency 1 is ` +
    `${d.exchanges} × ${LATENCY} ms = ${s(d.exchanges * LATENCY)}.`,
);
if (values.json)
  writeFileSync(
    values.json,
    JSON.stringify(
      {
        machine: machine(),
        realistic,
        startup,
        runs: table,
        chainMs,
        workMs,
        criticalPathRequests: depth,
        perExchange,
        inProcessLatency,
      },
      null,
      2,
    ),
  );

/**
 * Every case, `rounds` times after a warm-up round, in this process (no vitest, no Allure), against
 * the reference target in a child process with `latencyMs`: CPU of this process per exchange, and
 * the wall time of a round.
 */
async function inProcess(rounds: number, latencyMs: number) {
  const target = await referenceProcess(['--latency', String(latencyMs)]);
  const urls = target.urls;
  try {
    const { referenceConfig } = await import('../reference-target/config');
    const { DbsiClient } = await import('../harness/http/client');
    const { Redactor } = await import('../harness/redact');
    const { secretValues } = await import('../harness/config');
    const { CaseContext, runCase } = await import('../harness/case');
    const { FEATURES_BY_AREA } = await import('../suites');
    const config = referenceConfig({ urls: urls as never }, { http: { concurrency: 64 } });
    const settings = { config, seed: 1, strict: false, runId: 'rbch', specUrl: 'spec.md' };
    const all = Object.values(FEATURES_BY_AREA).flatMap((fs) => fs.flatMap((f) => f.cases.map((c) => ({ f, c }))));
    // A client per round, as a run has one: what the cases of a run remember (lists asked once, the records' life)
    // lives under it.
    const round = async () => {
      const client = new DbsiClient(config, new Redactor(secretValues(config)));
      try {
        return await Promise.all(all.map(({ f, c }) => runCase(new CaseContext(settings, client, f, c))));
      } finally {
        await client.close();
      }
    };
    let t = performance.now();
    const first = await round(); // warm-up: module initialisation, schema compilation, connections
    const firstRoundMs = performance.now() - t;
    const longestChain = Math.max(0, ...first.map((r) => r.exchanges.length));
    const cpu0 = process.cpuUsage();
    let exchanges = 0;
    const times: number[] = [];
    for (let i = 0; i < rounds; i++) {
      t = performance.now();
      exchanges += (await round()).reduce((n, r) => n + r.exchanges.length, 0);
      times.push(performance.now() - t);
    }
    const cpu = process.cpuUsage(cpu0);
    return {
      exchanges,
      longestChain,
      firstRoundMs,
      medianRoundMs: median(times),
      cpuMsPerExchange: (cpu.user + cpu.system) / 1000 / Math.max(1, exchanges),
    };
  } finally {
    await target.stop();
  }
}
