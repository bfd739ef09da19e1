import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * A small interpreter of a composite action (action.yml), as a GitHub runner runs one: each step's `if`, its
 * `env` and `run` with `${{ }}` expressions substituted, `shell: bash` as `bash --noprofile --norc -eo pipefail`,
 * a GITHUB_OUTPUT file per step read back into `steps.<id>.outputs`, one GITHUB_STEP_SUMMARY file, then the action's
 * `outputs`. A `uses:` step is not run (it is another action): only whether it would run is recorded. The
 * expressions understood are the ones action.yml uses; any other is an error, never a guess.
 */

interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  shell?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

interface Action {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

export interface StepRecord {
  name: string;
  /** Whether its `if` let it run. */
  ran: boolean;
  uses?: string;
  /** A uses: step's `with`, its expressions substituted. */
  with?: Record<string, string>;
  code?: number | null;
  stdout?: string;
  stderr?: string;
}

export interface ActionRun {
  steps: StepRecord[];
  outputs: Record<string, string>;
  summary: string;
  /** failure when a step that ran exited non-zero. */
  conclusion: 'success' | 'failure';
}

interface Context {
  inputs: Record<string, string>;
  steps: Record<string, { outputs: Record<string, string> }>;
  github: Record<string, string>;
  failed: boolean;
}

function value(path: string, c: Context): string {
  const parts = path.split('.');
  if (parts[0] === 'inputs' && parts.length === 2) {
    if (!(parts[1]! in c.inputs)) throw new Error(`action.yml: no input ${parts[1]}`);
    return c.inputs[parts[1]!]!;
  }
  if (parts[0] === 'steps' && parts[2] === 'outputs' && parts.length === 4)
    return c.steps[parts[1]!]?.outputs[parts[3]!] ?? '';
  if (parts[0] === 'github' && parts.length === 2 && parts[1]! in c.github) return c.github[parts[1]!]!;
  throw new Error(`action-runner: unsupported expression ${path}`);
}

/** One term: always(), success(), failure(), a value, or a value compared (== or !=) with a quoted literal. */
function term(t: string, c: Context): boolean {
  t = t.trim();
  if (t === 'always()') return true;
  if (t === 'success()') return !c.failed;
  if (t === 'failure()') return c.failed;
  const m = /^([\w.-]+)\s*(==|!=)\s*'([^']*)'$/.exec(t);
  if (!m) throw new Error(`action-runner: unsupported condition ${t}`);
  const v = value(m[1]!, c);
  return m[2] === '==' ? v === m[3] : v !== m[3];
}

/** A step's `if`: terms joined by &&; without a status function, success() is implied (as GitHub does). */
export function condition(expr: string | undefined, c: Context): boolean {
  const text = (expr ?? '').replace(/^\$\{\{(.*)\}\}$/s, '$1').trim();
  if (!text) return !c.failed;
  if (text.includes('||')) throw new Error(`action-runner: unsupported condition ${text}`);
  const terms = text.split('&&');
  const status = terms.some((t) => /^(always|success|failure)\(\)$/.test(t.trim()));
  return (status || !c.failed) && terms.every((t) => term(t, c));
}

const substitute = (text: string, c: Context) => text.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_, p) => value(p, c));

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number) {
  const dir = mkdtempSync(join(tmpdir(), 'dbsi-step-'));
  writeFileSync(join(dir, 'step.sh'), script);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', join(dir, 'step.sh')], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** GITHUB_OUTPUT's two forms: name=value, and name<<DELIMITER ... DELIMITER. */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([\w-]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      if (end < 0) throw new Error(`GITHUB_OUTPUT: ${heredoc[1]} has no closing ${heredoc[2]}`);
      out[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (line.includes('=')) out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
  }
  return out;
}

/** Run the composite action in `actionPath` with `inputs`, in the workspace `workspace`, with the caller's `env`. */
export async function runAction(opts: {
  actionPath: string;
  workspace: string;
  inputs: Record<string, string>;
  env: NodeJS.ProcessEnv;
  stepTimeoutMs?: number;
}): Promise<ActionRun> {
  const action = parse(readFileSync(join(opts.actionPath, 'action.yml'), 'utf8')) as Action;
  if (action.runs.using !== 'composite') throw new Error('action-runner: only composite actions');
  for (const k of Object.keys(opts.inputs))
    if (!(k in action.inputs)) throw new Error(`action-runner: action.yml has no input ${k}`);
  const inputs = Object.fromEntries(
    Object.entries(action.inputs).map(([k, i]) => [k, opts.inputs[k] ?? String(i.default ?? '')]),
  );
  const files = mkdtempSync(join(tmpdir(), 'dbsi-runner-'));
  const summaryFile = join(files, 'step-summary.md');
  writeFileSync(summaryFile, '');
  const c: Context = {
    inputs,
    steps: {},
    github: { action_path: opts.actionPath, workspace: opts.workspace },
    failed: false,
  };
  const steps: StepRecord[] = [];
  for (const [i, step] of action.runs.steps.entries()) {
    const name = step.name ?? step.id ?? `step ${i + 1}`;
    if (!condition(step.if, c)) {
      steps.push({ name, ran: false, ...(step.uses ? { uses: step.uses } : {}) });
      continue;
    }
    if (step.uses) {
      const given = Object.entries(step.with ?? {}).map(([k, v]) => [k, substitute(String(v), c)]);
      steps.push({ name, ran: true, uses: step.uses, with: Object.fromEntries(given) });
      continue;
    }
    if (step.shell !== 'bash' || step.run === undefined) throw new Error(`action-runner: ${name}: only bash run steps`);
    const outputFile = join(files, `output-${i}`);
    writeFileSync(outputFile, '');
    const env: NodeJS.ProcessEnv = {
      ...opts.env,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v), c)])),
      GITHUB_ACTION_PATH: opts.actionPath,
      GITHUB_WORKSPACE: opts.workspace,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_ACTIONS: 'true',
    };
    const r = await bash(substitute(step.run, c), opts.workspace, env, opts.stepTimeoutMs ?? 300_000);
    if (step.id) c.steps[step.id] = { outputs: parseOutputFile(readFileSync(outputFile, 'utf8')) };
    if (r.code !== 0) c.failed = true;
    steps.push({ name, ran: true, ...r });
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, o]) => [k, substitute(o.value, c)]));
  return {
    steps,
    outputs,
    summary: readFileSync(summaryFile, 'utf8'),
    conclusion: c.failed ? 'failure' : 'success',
  };
}
