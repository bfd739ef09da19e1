import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { startReferenceTarget, type ReferenceTarget } from '../reference-target/server';
import { runAction, type ActionRun } from './_action-runner';
import { ROOT } from './_cli';
import { userEnv } from './_installed';

/**
 * action.yml (issue 35), its steps run as a runner runs them (selftest/_action-runner.ts): the outputs, the job
 * summary, what is uploaded, and nothing shown or uploaded on exit 4.
 */
const workspace = () => mkdtempSync(join(tmpdir(), 'dbsi-workspace-'));
const step = (run: ActionRun, prefix: string) => run.steps.find((s) => s.name.startsWith(prefix))!;

describe('the GitHub Action against the embedded target', () => {
  let first: ActionRun;
  let firstWorkspace: string;
  beforeAll(async () => {
    firstWorkspace = workspace();
    first = await runAction({
      actionPath: ROOT,
      workspace: firstWorkspace,
      inputs: { areas: 'disclosures', bundle: 'true', 'node-version': '' },
      env: userEnv(),
    });
  }, 300_000);

  test('outputs exit-code 0 and the verdict, and the gate passes', () => {
    expect(first.outputs).toEqual({ 'exit-code': '0', verdict: 'conformant' });
    expect(first.conclusion).toBe('success');
    expect(step(first, 'Gate').stdout).toContain('DBSI conformance: conformant');
  });

  test("writes the run's summary to the job summary; reports and bundle are in the workspace", () => {
    const md = readFileSync(join(firstWorkspace, 'reports', 'conformance-summary.md'), 'utf8');
    expect(first.summary).toBe(md);
    expect(readdirSync(join(firstWorkspace, 'reports')).some((f) => /^dbsi-evidence-.*\.tar\.gz$/.test(f))).toBe(true);
  });

  test("uploads the reports (upload-artifact) and uses the runner's node when node-version is empty", () => {
    const upload = step(first, 'Upload');
    expect(upload).toMatchObject({ ran: true, uses: 'actions/upload-artifact@v4' });
    expect(upload.with!.path).toContain('reports/conformance-summary.md');
    expect(upload.with!.path).toContain('reports/dbsi-evidence-*.tar.gz');
    expect(step(first, 'Set up Node')).toMatchObject({ ran: false });
  });

  describe('a non-conformant target, compared with the previous summary', () => {
    let target: ReferenceTarget;
    let run: ActionRun;
    beforeAll(async () => {
      target = await startReferenceTarget({ faults: ['op1-envelope-renamed'] });
      const ws = workspace();
      const raw = {
        name: 'faulty target',
        ...target.urls,
        credentials: { ...REFERENCE_CREDENTIALS },
        testData: REFERENCE_TEST_DATA,
      };
      writeFileSync(join(ws, 'target.json'), JSON.stringify(raw));
      mkdirSync(join(ws, 'last'));
      cpSync(join(firstWorkspace, 'reports', 'conformance-summary.json'), join(ws, 'last', 'conformance-summary.json'));
      run = await runAction({
        actionPath: ROOT,
        workspace: ws,
        inputs: {
          config: 'target.json',
          areas: 'disclosures',
          'previous-summary': 'last/conformance-summary.json',
          'node-version': '',
        },
        env: userEnv(),
      });
    }, 300_000);
    afterAll(() => target?.close());

    test('outputs exit-code 1 and non-conformant; the gate fails the step; the reports are still uploaded', () => {
      expect(run.outputs).toEqual({ 'exit-code': '1', verdict: 'non-conformant' });
      expect(run.conclusion).toBe('failure');
      expect(step(run, 'Gate').code).not.toBe(0);
      expect(step(run, 'Upload').ran).toBe(true);
    });

    test('the job summary says what newly failed since the previous summary', () => {
      expect(run.summary).toContain('## Compared with an earlier run');
      expect(run.summary).toMatch(/newly failed: [^\n]*OP1-RESPONSE-ENVELOPE/);
    });
  });

  test('a missing previous summary (a first night) is noted and the run goes on', async () => {
    const run = await runAction({
      actionPath: ROOT,
      workspace: workspace(),
      inputs: { areas: 'disclosures', 'previous-summary': 'none/conformance-summary.json', 'node-version': '' },
      env: userEnv(),
    });
    expect(step(run, 'Run').stdout).toContain('::notice::no previous summary at none/conformance-summary.json');
    expect(run.outputs['exit-code']).toBe('0');
  }, 300_000);

  test('a configuration error: exit-code 2, and a stale summary in the folder is not shown as this run', async () => {
    const ws = workspace();
    mkdirSync(join(ws, 'reports'));
    writeFileSync(join(ws, 'reports', 'conformance-summary.md'), '# STALE summary of an earlier run\n');
    const run = await runAction({
      actionPath: ROOT,
      workspace: ws,
      inputs: { config: 'missing.json', 'node-version': '', upload: 'false' },
      env: userEnv(),
    });
    expect(run.outputs).toEqual({ 'exit-code': '2', verdict: 'usage or configuration error' });
    expect(run.summary).toBe('**DBSI conformance: usage or configuration error (exit 2)**\n');
    expect(step(run, 'Run').stderr).toContain('missing.json');
    expect(step(run, 'Upload').ran).toBe(false);
    expect(run.conclusion).toBe('failure');
  }, 300_000);
});

describe('the GitHub Action on exit 4 (evidence refused)', () => {
  test('shows no summary and uploads nothing, and still gives the exit code', async () => {
    // The action's steps with a launcher that ends as a run whose bundle was refused: a summary holding a secret.
    const actionPath = mkdtempSync(join(tmpdir(), 'dbsi-action-'));
    cpSync(join(ROOT, 'action.yml'), join(actionPath, 'action.yml'));
    mkdirSync(join(actionPath, 'node_modules'));
    mkdirSync(join(actionPath, 'launch'));
    writeFileSync(
      join(actionPath, 'launch', 'bin.mjs'),
      `import { mkdirSync, writeFileSync } from 'node:fs';
const reports = process.argv[process.argv.indexOf('--reports') + 1];
mkdirSync(reports, { recursive: true });
writeFileSync(reports + '/conformance-summary.md', '# summary holding SECRET-VALUE-123\\n');
writeFileSync(reports + '/conformance-summary.json', JSON.stringify({ facts: { verdict: 'conformant' } }));
process.exit(4);
`,
    );
    const ws = workspace();
    const run = await runAction({
      actionPath,
      workspace: ws,
      inputs: { bundle: 'true', 'node-version': '' },
      env: userEnv(),
    });
    expect(run.outputs['exit-code']).toBe('4');
    expect(run.outputs.verdict).toMatch(/^evidence refused/);
    expect(run.summary).not.toContain('SECRET-VALUE-123');
    expect(run.summary).toContain('evidence refused (exit 4)');
    expect(step(run, 'Upload').ran).toBe(false);
    expect(run.conclusion).toBe('failure');
    expect(existsSync(join(ws, 'reports', 'conformance-summary.md'))).toBe(true);
  });
});
