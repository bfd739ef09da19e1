import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mergeCommand } from '../harness/evidence/merge';
import { worstExit, type FleetMatrix } from '../harness/evidence/fleet-matrix';
import { envPrefix, sharedArgs, targetEnv, targetNames } from '../harness/run/fleet';
import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { startReferenceTarget, type ReferenceTarget } from '../reference-target/server';
import { closedPort } from './_closed-port';
import { runMain, type MainRun } from './_main';

/**
 * A fleet (issue 35): three configurations, one conformant target, one with a fault and one unreachable, each run
 * in a process of its own; one matrix with conformant, non-conformant and could-not-test columns, exit 1 (the
 * worst), and each target's own reports. Then the same matrix merged from the report folders.
 */
const configOf = (name: string, urls: ReferenceTarget['urls']) => ({
  name,
  ...urls,
  credentials: { ...REFERENCE_CREDENTIALS },
  testData: REFERENCE_TEST_DATA,
  http: { timeoutMs: 2_000, retries: 0 },
});

describe('a fleet of three targets: conformant, faulty, unreachable', () => {
  const targets: ReferenceTarget[] = [];
  let run: MainRun;
  let matrix: FleetMatrix;
  let configs: string;
  beforeAll(async () => {
    targets.push(await startReferenceTarget(), await startReferenceTarget({ faults: ['op1-envelope-renamed'] }));
    const port = await closedPort();
    const dead = `http://127.0.0.1:${port}`;
    configs = mkdtempSync(join(tmpdir(), 'dbsi-fleet-configs-'));
    writeFileSync(join(configs, 'a-sandbox.json'), JSON.stringify(configOf('sandbox', targets[0]!.urls)));
    writeFileSync(join(configs, 'b-uat.json'), JSON.stringify(configOf('uat', targets[1]!.urls)));
    const gone = { baseUrl: `${dead}/dbsi`, authBaseUrl: `${dead}/identity`, transfersBaseUrl: `${dead}/banking` };
    writeFileSync(join(configs, 'c-prod.json'), JSON.stringify(configOf('prod', gone)));
    run = await runMain(['--config', configs, '--area', 'disclosures', '--parallel', '2'], { timeoutMs: 280_000 });
    matrix = JSON.parse(readFileSync(join(run.reports, 'fleet-matrix.json'), 'utf8'));
  }, 300_000);
  afterAll(() => Promise.all(targets.map((t) => t.close())));

  test('exits 1, the worst of the targets (0, 1 and 3), and says each verdict', () => {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(matrix.targets.map((t) => [t.name, t.verdict, t.exitCode])).toEqual([
      ['a-sandbox', 'conformant', 0],
      ['b-uat', 'non-conformant', 1],
      ['c-prod', 'could not test', 3],
    ]);
    expect(run.stdout).toMatch(/\[b-uat\] Verdict: non-conformant(;[^\n]*)? \(exit 1\)/);
    expect(run.stdout).toContain('Fleet verdict: exit 1');
  });

  test('the matrix: requirement × target, the fault failing only on its target; links to each report', () => {
    const row = matrix.requirements.find((r) => r.id === 'OP1-RESPONSE-ENVELOPE')!;
    expect(row.verdicts).toEqual({ 'a-sandbox': 'passed', 'b-uat': 'failed', 'c-prod': 'could-not-test' });
    const failedOnSandbox = matrix.requirements.filter((r) => r.verdicts['a-sandbox'] === 'failed');
    expect(failedOnSandbox).toEqual([]);
    const md = readFileSync(join(run.reports, 'fleet-matrix.md'), 'utf8');
    expect(md).toContain('| OP1-RESPONSE-ENVELOPE | MUST | ✅ passed | ❌ failed | ❔ could not test |');
    expect(md).toContain('[summary](b-uat/conformance-summary.md)');
    for (const t of ['a-sandbox', 'b-uat', 'c-prod'])
      expect(existsSync(join(run.reports, t, 'conformance-summary.md')), t).toBe(true);
  });

  test('no secret of the configurations in the matrix or any console log', () => {
    const texts = [
      readFileSync(join(run.reports, 'fleet-matrix.md'), 'utf8'),
      readFileSync(join(run.reports, 'fleet-matrix.json'), 'utf8'),
      ...['a-sandbox', 'b-uat', 'c-prod'].map((t) => readFileSync(join(run.reports, t, 'console.txt'), 'utf8')),
      run.stdout,
    ];
    for (const secret of Object.values(REFERENCE_CREDENTIALS).filter((v) => v.length > 8))
      for (const t of texts) expect(t).not.toContain(secret);
  });

  test('merge over the report folders (a CI matrix: one job per target) gives the same matrix and exit code', () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'dbsi-ci-jobs-'));
    for (const t of ['a-sandbox', 'b-uat', 'c-prod'])
      cpSync(join(run.reports, t), join(elsewhere, t), { recursive: true });
    mkdirSync(join(elsewhere, 'd-missing'));
    const out = join(elsewhere, 'merged');
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(`ERR ${l}`) };
    const dirs = ['a-sandbox', 'b-uat', 'c-prod', 'd-missing'].map((t) => join(elsewhere, t));
    const code = mergeCommand([...dirs, '--reports', out], {}, io);
    expect(lines.filter((l) => l.startsWith('ERR'))).toEqual([]);
    expect(code).toBe(1);
    const merged = JSON.parse(readFileSync(join(out, 'fleet-matrix.json'), 'utf8')) as FleetMatrix;
    expect(merged.requirements.find((r) => r.id === 'OP1-RESPONSE-ENVELOPE')!.verdicts).toEqual({
      'a-sandbox': 'passed',
      'b-uat': 'failed',
      'c-prod': 'could-not-test',
    });
    expect(merged.targets.at(-1)).toMatchObject({ name: 'd-missing', verdict: 'no report', exitCode: null });
    expect(merged.targets[1]!.reports.summary).toBe('../b-uat/conformance-summary.md');
  });

  test('--compare with the previous fleet folder: what newly failed on which target', async () => {
    // The sandbox now answers as the faulty target does.
    const next = mkdtempSync(join(tmpdir(), 'dbsi-fleet-next-'));
    writeFileSync(join(next, 'a-sandbox.json'), JSON.stringify(configOf('sandbox', targets[1]!.urls)));
    const args = ['--config', join(next, 'a-sandbox.json'), '--config', join(configs, 'b-uat.json')];
    const again = await runMain([...args, '--area', 'disclosures', '--compare', run.reports], { timeoutMs: 280_000 });
    expect(again.code).toBe(1);
    const md = readFileSync(join(again.reports, 'fleet-matrix.md'), 'utf8');
    expect(md).toContain('## Newly failed since the previous run');
    expect(md).toMatch(/- a-sandbox: [^\n]*OP1-RESPONSE-ENVELOPE/);
    expect(md).toMatch(/- b-uat: none\n/);
  }, 300_000);
});

describe('fleet pieces', () => {
  test("each target gets its own DBSI_<NAME>__ credentials as DBSI_*, and never another target's", () => {
    const names = ['sandbox', 'u-a-t'];
    expect(envPrefix('u-a-t')).toBe('DBSI_U_A_T__');
    const env = {
      DBSI_BEARER_TOKEN: 'shared',
      DBSI_SANDBOX__BEARER_TOKEN: 'sandbox-token',
      DBSI_U_A_T__BEARER_TOKEN: 'uat-token',
      DBSI_U_A_T__TRANSFERS_TOKEN: 'uat-transfers',
      PATH: '/bin',
    };
    expect(targetEnv('sandbox', names, env)).toEqual({ DBSI_BEARER_TOKEN: 'sandbox-token', PATH: '/bin' });
    expect(targetEnv('u-a-t', names, env)).toEqual({
      DBSI_BEARER_TOKEN: 'uat-token',
      DBSI_TRANSFERS_TOKEN: 'uat-transfers',
      PATH: '/bin',
    });
    expect(targetEnv('prod', [...names, 'prod'], env)).toEqual({ DBSI_BEARER_TOKEN: 'shared', PATH: '/bin' });
  });

  test('the worst exit code: usage 2 and refused 4 above non-conformant 1, above could not test 3', () => {
    expect(worstExit([0, 1, 3])).toBe(1);
    expect(worstExit([0, 5])).toBe(5);
    expect(worstExit([3, 5, 0])).toBe(3);
    expect(worstExit([1, 4])).toBe(4);
    expect(worstExit([4, 2])).toBe(2);
    expect(worstExit([0, null])).toBe(3);
  });
  test('target names from the file names, made unique; the shared options lose --config, --reports, --parallel', () => {
    expect(targetNames(['/a/sandbox.json', '/b/sandbox.json', '/c/u a t.json'])).toEqual([
      'sandbox',
      'sandbox-2',
      'u-a-t',
    ]);
    expect(sharedArgs(['--config', 'a', '--area', 'x', '--reports=r', '--parallel', '3', '--strict'])).toEqual([
      '--area',
      'x',
      '--strict',
    ]);
  });
});
