import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REFERENCE_CREDENTIALS } from '../reference-target/fixtures';
import { FIXTURE_SETS } from '../reference-target/fixture-sets';
import { criticalPath, requestsOf } from './critical-path';
import { measure, median, referenceProcess, s, type Measured } from './measure';

/**
 * The realistic scenario: the reference target in a process of its own (as a remote target is),
 * holding what a bank's sandbox typically offers (`--fixtures realistic`: 3 institution disclosures,
 * 1 of them already accepted by the configured user, 1 customer), every answer delayed by `latencyMs`,
 * and the suite run with the default configuration (http.concurrency 8) and at concurrency 1.
 * A fresh target for every run, so that no run sees what another left.
 */
export async function realisticScenario(opts: { runs: number; latencyMs: number }) {
  const run = async (label: string, latencyMs: number, args: string[] = []): Promise<Measured> => {
    const target = await referenceProcess(['--fixtures', 'realistic', '--latency', String(latencyMs)]);
    try {
      const cfgFile = join(mkdtempSync(join(tmpdir(), 'dbsi-bench-')), 'target.json');
      writeFileSync(
        cfgFile,
        JSON.stringify({
          name: 'reference target, realistic fixtures (own process)',
          ...target.urls,
          credentials: REFERENCE_CREDENTIALS,
          testData: FIXTURE_SETS.realistic.testData,
          allow: { moneyMovement: true, contactUpdate: true, tokenRevocation: true, institutionDisclosureWrites: true },
        }),
      );
      return await measure(label, ['--config', cfgFile, ...args]);
    } finally {
      await target.stop();
    }
  };
  const L = opts.latencyMs;
  const byDefault: Measured[] = [];
  for (let i = 0; i < opts.runs; i++)
    byDefault.push(await run(`realistic, +${L} ms, default ` + `concurrency #${i + 1}`, L));
  const sequential = await run(`realistic, +${L} ms, concurrency 1`, L, ['--concurrency', '1']);
  const doubled = await run(`realistic, +${2 * L} ms, default concurrency`, 2 * L);
  const unexplored = await run(`realistic, +${L} ms, default concurrency, --explore 0`, L, ['--explore', '0']);
  const mid = byDefault.find((m) => m.testPhaseMs === median(byDefault.map((x) => x.testPhaseMs)))!;
  const path = criticalPath(requestsOf(join(mid.reportsDir, 'allure-results')));
  return { byDefault, mid, sequential, doubled, unexplored, path, latencyMs: L };
}

export function printRealistic(r: Awaited<ReturnType<typeof realisticScenario>>): void {
  const { byDefault, mid, sequential, doubled, unexplored, path, latencyMs: L } = r;
  const phases = byDefault.map((m) => m.testPhaseMs);
  const walls = byDefault.map((m) => m.wallMs);
  const depth = Math.round((doubled.testPhaseMs - mid.testPhaseMs) / L);
  console.log('');
  console.log(`Realistic target (own process; 3 disclosures, 1 already accepted, 1 customer), +${L} ms per answer:`);
  console.log('| run | exit | tests | outcomes | requests | test phase | wall (process) |');
  console.log('|---|---|---|---|---|---|---|');
  for (const m of [...byDefault, sequential, doubled, unexplored])
    console.log(
      `| ${m.label} | ${m.exitCode} (${m.verdict}) | ${m.cases} | ` +
        `${Object.entries(m.outcomes)
          .map(([k, v]) => `${v} ${k}`)
          .join(', ')} | ${m.exchanges} | ` +
        `${s(m.testPhaseMs)} | ${s(m.wallMs)} |`,
    );
  console.log('');
  console.log(
    `- default concurrency: test phase ${s(mid.testPhaseMs)} (median of ${byDefault.length}; ` +
      `${s(Math.min(...phases))}–${s(Math.max(...phases))}), wall ${s(median(walls))} ` +
      `(${s(Math.min(...walls))}–${s(Math.max(...walls))})`,
  );
  console.log(
    `- concurrency 1: test phase ${s(sequential.testPhaseMs)}, wall ${s(sequential.wallMs)}; floor ` +
      `${sequential.exchanges} requests × ${L} ms = ${s(sequential.exchanges * L)}`,
  );
  console.log(
    `- ratio (concurrency 1 / default), test phase: ` +
      `${(sequential.testPhaseMs / mid.testPhaseMs).toFixed(2)}× (target ≥ 5×); whole process wall, start-up ` +
      `included: ${(sequential.wallMs / median(walls)).toFixed(2)}× (target ≥ 4×, issue 21)`,
  );
  console.log(
    `- requests per run: ${mid.exchanges} ` +
      `(${Object.entries(mid.exchangesByArea)
        .map(([a, n]) => `${a} ${n}`)
        .join(', ')})`,
  );
  console.log(
    `- critical path as executed: ${depth} requests one after another (run at ${2 * L} ms minus run at ${L} ` +
      `ms, / ${L} ms); rebuilt from the median run's exchanges, ${path.requests} requests:`,
  );
  for (const [test, n] of path.byTest) console.log(`    ${String(n).padStart(3)} × ${test}`);
}
