import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, ROOT, s } from './measure';

/**
 * Scenario S: the start-up of commands that run no test, as `npm run conformance` starts them
 * (`node launch/conformance.mjs`, without npm's own start): `--version`, a refused configuration (not
 * valid JSON) and `--list`; each `times` times, one after another, wall time from spawn to exit.
 */
export async function startupScenario(times: number) {
  const dir = mkdtempSync(join(tmpdir(), 'dbsi-bench-'));
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '{"baseUrl": \n');
  const commands: Array<[string, string[]]> = [
    ['--version', ['--version']],
    ['a refused configuration', ['--config', bad, '--reports', join(dir, 'reports')]],
    ['--list', ['--list']],
  ];
  const rows = [];
  for (const [label, args] of commands) {
    const walls: number[] = [];
    const codes = new Set<number | null>();
    for (let i = 0; i < times; i++) {
      const t0 = performance.now();
      codes.add(await exitOf(args));
      walls.push(performance.now() - t0);
    }
    rows.push({ label, walls, median: median(walls), codes: [...codes] });
  }
  return rows;
}

function exitOf(args: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['launch/conformance.mjs', ...args], {
      cwd: ROOT,
      env: { ...process.env, DBSI_CONFIG: '' },
      stdio: 'ignore',
    });
    child.on('close', (code) => resolve(code));
  });
}

export function printStartup(rows: Awaited<ReturnType<typeof startupScenario>>): void {
  const targets: Record<string, string> = { '--version': '≤ 0.3 s', 'a refused configuration': '≤ 0.5 s' };
  console.log('');
  const times = rows[0]?.walls.length;
  console.log(`Start-up (node launch/conformance.mjs, as npm run conformance runs it; median of ${times}):`);
  console.log('| command | exit | wall, median | min–max | target (issue 21) |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) {
    const range = `${s(Math.min(...r.walls))}–${s(Math.max(...r.walls))}`;
    console.log(`| ${r.label} | ${r.codes.join(', ')} | ${s(r.median)} | ${range} | ${targets[r.label] ?? ''} |`);
  }
}
