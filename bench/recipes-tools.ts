import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecipePlan, RecipeStep } from '../harness/openapi/recipe-plan';

/**
 * The tools the recipes run (bench/recipes.ts), installed into a scratch folder with npm (never dependencies of
 * this package), how each is run on a recipe's files, and what its output says: per operation of the plan,
 * whether a request for it was answered and whether its checks passed.
 */

export const TOOL_PACKAGES = ['@apideck/portman@1.33.0', 'newman@6.2.2', 'stepci@2.8.2', 'dredd@14.1.0'];
const BINARIES = ['portman', 'newman', 'stepci', 'dredd'];

export interface Outcome {
  /** Checks (assertions, steps, transactions) that passed and that failed, and requests skipped with a reason. */
  passed: number;
  failed: number;
  skipped: number;
  /** Operations (operationId) a request was sent for and answered. */
  exercised: string[];
  /** One line per failed check: the operation and what the tool said. */
  failures: string[];
  ms: number;
  /** Set when the tool could not run (a timeout, a crash before any result). */
  error?: string;
}

export interface Spawned {
  code: number | null;
  out: string;
  timedOut: boolean;
}

/** Runs a command without blocking this process (the reference target answers from it), killed after `timeoutMs`. */
export function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number) {
  return new Promise<Spawned>((done) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, out: out.replace(/\x1b\[[0-9;]*m/g, ''), timedOut });
    });
  });
}

export const bin = (dir: string, name: string) => join(dir, 'node_modules', '.bin', name);

/** Installs the tools into `dir` unless they are there; the npm output on failure. */
export async function installTools(dir: string, timeoutMs: number): Promise<string | undefined> {
  if (BINARIES.every((b) => existsSync(bin(dir, b)))) return undefined;
  const r = await run(
    'npm',
    ['install', '--prefix', dir, '--no-audit', '--no-fund', ...TOOL_PACKAGES],
    dir,
    {},
    timeoutMs,
  );
  if (r.code !== 0 || !BINARIES.every((b) => existsSync(bin(dir, b))))
    return r.timedOut ? `npm install did not finish in ${timeoutMs / 1000} s` : r.out.slice(-2000);
  return undefined;
}

/** The operation a request went to: by method and path, against each main step's base path and path. */
export function operationOf(plan: RecipePlan, method: string, url: string): string | undefined {
  let path: string;
  try {
    path = new URL(url, 'http://x').pathname;
  } catch {
    return undefined;
  }
  const main = plan.steps.filter((s) => s.name === s.operationId);
  const match = (s: RecipeStep) => {
    const prefix = new URL(plan.urls[s.base]).pathname.replace(/\/+$/, '');
    const pattern = (prefix + s.path).replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^/]+');
    return s.method === method.toUpperCase() && new RegExp(`^${pattern}$`).test(path);
  };
  return main.find(match)?.operationId;
}

/** newman's JSON report: each execution's request, its answer and its assertions. */
export function newmanOutcome(plan: RecipePlan, reportFile: string): Omit<Outcome, 'ms'> {
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as {
    run: {
      executions: {
        item: { name: string };
        request: { method: string; url: { path?: string[]; host?: string[] } | string };
        response?: { code: number };
        assertions?: { assertion: string; error?: { message: string } }[];
        requestError?: { message: string };
      }[];
    };
  };
  const o: Omit<Outcome, 'ms'> = { passed: 0, failed: 0, skipped: 0, exercised: [], failures: [] };
  for (const x of report.run.executions) {
    const url = typeof x.request.url === 'string' ? x.request.url : `/${(x.request.url.path ?? []).join('/')}`;
    const op = operationOf(plan, x.request.method, url) ?? x.item.name;
    if (!x.response) {
      o.skipped++;
      continue;
    }
    if (!o.exercised.includes(op)) o.exercised.push(op);
    for (const a of x.assertions ?? []) {
      if (a.error) {
        o.failed++;
        o.failures.push(`${op}: ${a.assertion}: ${a.error.message}`);
      } else o.passed++;
    }
  }
  // A request its pre-request script skipped (pm.execution.skipRequest) leaves no execution behind.
  const operations = new Set(plan.steps.map((s) => s.operationId));
  o.skipped = Math.max(o.skipped, operations.size - o.exercised.length);
  return o;
}

/** Step CI's verbose console: `✔ operations › step: …` passed, `● …` failed (checks follow), skips say so. */
export function stepCiOutcome(plan: RecipePlan, out: string): Omit<Outcome, 'ms'> {
  const o: Omit<Outcome, 'ms'> = { passed: 0, failed: 0, skipped: 0, exercised: [], failures: [] };
  const names = new Map(plan.steps.map((s) => [s.name, s.operationId]));
  const blocks = out.split(/\n(?=\S+ operations › )/).slice(1);
  for (const block of blocks) {
    const m = /^(\S+) operations › (\w+): /.exec(block);
    if (!m) continue;
    const [, mark, name] = m;
    const op = names.get(name!) ?? name!;
    if (/^Step was skipped because/m.test(block)) {
      o.skipped++;
      continue;
    }
    if (!o.exercised.includes(op)) o.exercised.push(op);
    if (mark === '✔') o.passed++;
    else {
      o.failed++;
      const checks = [
        ...block.matchAll(/^✕ (.+)\n\s*\nExpected\s*\n\s*\n([^\n]+)(?:[\s\S]*?)\nGiven\s*\n\s*\n([^\n]+)/gm),
      ];
      // A schema's Expected/Given are whole JSON documents: the name of the check says enough.
      const why = checks.map((c) => (c[2] === '{' ? c[1]! : `${c[1]}: expected ${c[2]}, got ${c[3]}`)).join('; ');
      o.failures.push(`${name}: ${why || 'failed'}`);
    }
  }
  return o;
}

/** Dredd's console: `pass: METHOD (code) path`, `fail: …` (reasons on the lines after), `skip: …` (not sent). */
export function dreddOutcome(plan: RecipePlan, out: string): Omit<Outcome, 'ms'> {
  const o: Omit<Outcome, 'ms'> = { passed: 0, failed: 0, skipped: 0, exercised: [], failures: [] };
  // Dredd lists each failure again at the end: a transaction is counted once, its reasons gathered from both.
  const seen = new Map<string, { verdict: string; op: string; why: string[] }>();
  for (const m of out.matchAll(/^(pass|fail|skip): (\w+) \((\d+)\) (\S+)(.*)$/gm)) {
    const [, verdict, method, code, path] = m;
    const key = `${method} (${code}) ${path}`;
    const t = seen.get(key) ?? { verdict: verdict!, op: operationOf(plan, method!, path!) ?? key, why: [] };
    seen.set(key, t);
    // Dredd's reasons follow on `fail: ` lines of their own (headers, body, statusCode).
    const after = out
      .slice(m.index! + m[0].length)
      .split('\n')
      .slice(1, 6);
    for (const l of after.filter((l) => /^fail: (?!\w+ \(\d+\))/.test(l)))
      if (!t.why.includes(l.slice(6).trim())) t.why.push(l.slice(6).trim());
  }
  for (const t of seen.values()) {
    if (t.verdict === 'skip') {
      o.skipped++;
      continue;
    }
    if (!o.exercised.includes(t.op)) o.exercised.push(t.op);
    if (t.verdict === 'pass') o.passed++;
    else {
      o.failed++;
      o.failures.push(`${t.op}: ${(t.why.join(' ') || 'failed').slice(0, 300)}`);
    }
  }
  return o;
}
