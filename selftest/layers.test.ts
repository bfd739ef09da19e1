import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, test } from 'vitest';

/**
 * The architecture's layers (issue 22, "One judge"; issue 32, finer groups), bottom to top; an import points down
 * or sideways, never up:
 *
 *   (a) the catalog: requirements/ and schemas/;
 *   (b) the vocabulary (base): the rest of harness/ (model.ts, operations.ts, config.ts, redact.ts, setup/, …) and
 *       data-builders/;
 *   (c) the log: harness/log/, the entry and the answer type both the client and the rules read;
 *   (d) the rules with their checks and state folds: harness/rules/, harness/checks/, harness/state/ (and the
 *       shared rule pieces at the root of harness/ named in RULE_FILES);
 *   (e) the verdict: harness/verdict/, the one grader both sources call;
 *   (f) HTTP: harness/http/ (never the rules: HTTP writes log entries, the rules read them);
 *   (g) the case runner (drive): harness/case.ts and what it holds (DRIVE_FILES), which sends through HTTP and
 *       hands what it drove to the rules and the grader;
 *   (h) the drivers (suites/), the two sources (harness/run/ active, harness/traffic/ recorded), the writers
 *       (harness/evidence/, harness/openapi/) and the embedded reference target (reference-target/);
 *   (i) the CLI and composition root: bin/ and harness/run/main.ts.
 *
 * ALLOWED says which group may import which, and no import cycle may join files of two groups.
 * Imports are read with a regex (static `import … from`, `export … from`, `import '…'`, dynamic `import('…')`).
 */

const ROOT = join(dirname(new URL(import.meta.url).pathname), '..');
const SCANNED = ['requirements', 'schemas', 'harness', 'data-builders', 'suites', 'reference-target', 'bin'];

export type Group =
  | 'catalog'
  | 'base'
  | 'log'
  | 'rules'
  | 'verdict'
  | 'http'
  | 'drive'
  | 'suites'
  | 'run'
  | 'traffic'
  | 'evidence'
  | 'openapi'
  | 'reference'
  | 'cli';

/** Rule pieces at the root of harness/ that both the rules and the drivers read (values a rule judges). */
const RULE_FILES = ['harness/disclosure-records.ts', 'harness/transfer-values.ts', 'harness/transfer-assigned.ts'];
/** The case runner and what reads its types (the explorer's verdicts, the tests' titles). */
const DRIVE_FILES = ['harness/case.ts', 'harness/explore-verdicts.ts', 'harness/titles.ts'];
/** harness/<folder>/ of a group of its own. */
const FOLDERS = ['run', 'traffic', 'evidence', 'openapi', 'log', 'verdict', 'http'] as const;

/** The group of a file, by its folder (paths relative to the package root, with /). */
export function groupOf(file: string): Group | undefined {
  if (file.startsWith('bin/') || file === 'harness/run/main.ts') return 'cli';
  if (file.startsWith('requirements/') || file.startsWith('schemas/')) return 'catalog';
  const folder = FOLDERS.find((f) => file.startsWith(`harness/${f}/`));
  if (folder) return folder;
  if (/^harness\/(rules|checks|state)\//.test(file) || RULE_FILES.includes(file)) return 'rules';
  if (DRIVE_FILES.includes(file) || file.startsWith('harness/case/')) return 'drive';
  if (file.startsWith('harness/') || file.startsWith('data-builders/')) return 'base';
  if (file.startsWith('suites/')) return 'suites';
  if (file.startsWith('reference-target/')) return 'reference';
  return undefined;
}

const BASE = ['catalog', 'base'] as const;
/** Everything below the drivers and the sources. */
const BELOW = [...BASE, 'log', 'rules', 'verdict', 'http', 'drive'] as const;

/** The rule table: the groups a file of each group may import from (its own included). */
export const ALLOWED: Record<Group, readonly Group[]> = {
  catalog: ['catalog'],
  base: [...BASE],
  log: [...BASE, 'log'],
  // Rules never import HTTP: they read log entries, whichever source wrote them.
  rules: [...BASE, 'log', 'rules'],
  verdict: [...BASE, 'log', 'rules', 'verdict'],
  // HTTP never imports the rules: it writes log entries.
  http: [...BASE, 'log', 'http'],
  drive: [...BELOW],
  // The embedded target serves the spec; it knows the configuration and schemas, never the harness's runs.
  reference: [...BASE, 'reference'],
  openapi: [...BASE, 'openapi'],
  // The writers report what either source judged: the verdicts (run/results.ts) and the traffic section.
  evidence: [...BASE, 'log', 'rules', 'verdict', 'evidence', 'run', 'traffic'],
  // The driver's worker side (suites/_register.ts) runs under the active source and writes evidence.
  suites: [...BELOW, 'suites', 'run', 'evidence'],
  // The active source: never the recorded one (only the composition root chooses between them).
  run: [...BELOW, 'run', 'suites', 'evidence', 'reference'],
  // The recorded source: never the drivers nor the case runner; HTTP only to forward (the recorder).
  traffic: [...BASE, 'log', 'rules', 'verdict', 'http', 'traffic', 'run', 'evidence'],
  cli: [...BELOW, 'suites', 'run', 'traffic', 'evidence', 'openapi', 'reference', 'cli'],
};

/** The client itself (harness/http/client.ts) is imported only by these groups: who sends. */
export const SENDERS: readonly Group[] = ['drive', 'suites', 'run', 'cli'];

/**
 * Imports that break the table and stay, each with its reason. Keep it empty: move the shared piece down
 * a layer instead. An entry is `importer -> imported` (paths from the package root).
 */
export const EXEMPTIONS: ReadonlyArray<{ edge: string; reason: string }> = [];

const IMPORT = new RegExp(
  [
    /(?:^|[\s;])(?:import|export)\s[^'";]*?\sfrom\s*['"]([^'"]+)['"]/.source, // import … from, export … from
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/.source, // import('…')
    /^\s*import\s+['"]([^'"]+)['"]/.source, // import '…'
  ].join('|'),
  'gm',
);

/** The relative specifiers a source text imports. */
export function importsOf(source: string): string[] {
  return [...source.matchAll(IMPORT)].map((m) => (m[1] ?? m[2] ?? m[3])!).filter((s) => s.startsWith('.'));
}

function resolveImport(from: string, spec: string): string {
  const base = normalize(join(dirname(from), spec)).replace(/\.js$/, '.ts');
  for (const candidate of [base, `${base}.ts`, `${base}/index.ts`]) {
    const full = join(ROOT, candidate);
    if (existsSync(full) && statSync(full).isFile()) return candidate;
  }
  return `${base} (unresolved)`;
}

function tsFiles(folder: string): string[] {
  const full = join(ROOT, folder);
  if (!existsSync(full)) return [];
  return readdirSync(full, { withFileTypes: true }).flatMap((e) => {
    const path = `${folder}/${e.name}`;
    if (e.isDirectory()) return tsFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

/** The import graph of the scanned folders: file -> the files it imports (relative paths, with /). */
export function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of SCANNED.flatMap(tsFiles)) {
    const specs = importsOf(readFileSync(join(ROOT, file), 'utf8'));
    graph.set(
      file,
      specs.map((s) => resolveImport(file, s).split('\\').join('/')),
    );
  }
  return graph;
}

/** Every import the table forbids (exemptions aside), as `importer -> imported (group -> group)`. */
export function wrongWay(graph: Map<string, string[]>, exempt = EXEMPTIONS.map((e) => e.edge)): string[] {
  const bad: string[] = [];
  for (const [file, targets] of graph) {
    const from = groupOf(file);
    for (const target of targets) {
      const to = groupOf(target);
      const edge = `${file} -> ${target}`;
      if (exempt.includes(edge)) continue;
      if (!from || !to) bad.push(`${edge} (outside the layered folders)`);
      else if (!ALLOWED[from].includes(to)) bad.push(`${edge} (${from} may not import ${to})`);
    }
  }
  return bad;
}

/** Import cycles (strongly connected files) that join files of two or more groups. */
export function crossGroupCycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (new Set(component.map(groupOf)).size > 1) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

const list = (lines: string[]) => (lines.length ? `\n  ${lines.join('\n  ')}` : '');

describe('layers', () => {
  const graph = importGraph();

  test('the import reader sees the imports (static, re-exports, dynamic) and resolves them', () => {
    expect(
      importsOf("import { a } from './a';\nexport { b } from '../b';\nimport type {\n  C,\n} from './c.js';"),
    ).toEqual(['./a', '../b', './c.js']);
    expect(importsOf("const m = await import('../x');\nimport './side';\nimport { y } from 'node:fs';")).toEqual([
      '../x',
      './side',
    ]);
    expect(graph.get('harness/run/main.ts')).toContain('harness/run/common.ts');
    expect(graph.get('suites/index.ts')?.length).toBeGreaterThan(0);
    const unresolved = [...graph].flatMap(([f, targets]) =>
      targets.filter((t) => t.endsWith('(unresolved)')).map((t) => `${f}: ${t}`),
    );
    expect(unresolved, `imports that name no file:${list(unresolved)}`).toEqual([]);
  });

  test('every scanned file belongs to a layer', () => {
    const loose = [...graph.keys()].filter((f) => !groupOf(f));
    expect(loose, `files outside every layer:${list(loose)}`).toEqual([]);
  });

  test('no import points up a layer or against the table', () => {
    const bad = wrongWay(graph);
    expect(bad, `imports in the wrong direction (move the shared piece down a layer):${list(bad)}`).toEqual([]);
  });

  test('no import cycle joins two groups (the sources and the writers never import each other in a cycle)', () => {
    const cycles = crossGroupCycles(graph).map((c) => c.join(' <-> '));
    expect(cycles, `import cycles across groups:${list(cycles)}`).toEqual([]);
  });

  test('a driver states no rule: no file of suites/ calls verify or imports a check (harness/checks/)', () => {
    // Only the wording of what was received (checks/verdict.ts), for a could-not-test reason.
    const wording = 'harness/checks/verdict.ts';
    const stated = [...graph].flatMap(([file, targets]) =>
      groupOf(file) !== 'suites'
        ? []
        : [
            ...targets.filter((t) => t.startsWith('harness/checks/') && t !== wording).map((t) => `${file} -> ${t}`),
            ...(/\.verify\(/.test(readFileSync(join(ROOT, file), 'utf8')) ? [`${file}: calls verify`] : []),
          ],
    );
    expect(stated, `drivers hold what they sent to harness/rules/ (t.judge, t.judgeLog):${list(stated)}`).toEqual([]);
  });

  test('only who sends imports the client (harness/http/client.ts): case runner, drivers, active source, CLI', () => {
    const client = 'harness/http/client.ts';
    const bad = [...graph]
      .filter(([file, targets]) => targets.includes(client) && !SENDERS.includes(groupOf(file)!))
      .map(([file]) => `${file} (${groupOf(file)})`)
      .filter((edge) => !EXEMPTIONS.some((e) => e.edge === `${edge.split(' ')[0]} -> ${client}`));
    expect(bad, `files that import the client without sending (read harness/log/entry.ts):${list(bad)}`).toEqual([]);
  });

  test('every exemption is still needed and says why', () => {
    const noExemptions = wrongWay(graph, []);
    const stale = EXEMPTIONS.filter((e) => !noExemptions.some((b) => b.startsWith(`${e.edge} (`)) || !e.reason.trim());
    expect(stale.map((e) => e.edge)).toEqual([]);
  });

  test('the checker catches an upward import, a forbidden sideways one and a cycle', () => {
    const fake = new Map<string, string[]>([
      ['harness/checks/x.ts', ['suites/a.ts']],
      ['harness/traffic/y.ts', ['suites/a.ts']],
      ['suites/a.ts', ['harness/run/b.ts']],
      ['harness/run/b.ts', ['suites/a.ts']],
      ['requirements/z.ts', ['harness/model.ts']],
      ['harness/rules/r.ts', ['harness/http/client.ts']],
      ['harness/http/h.ts', ['harness/rules/judge.ts', 'harness/log/entry.ts']],
      ['harness/log/l.ts', ['harness/checks/index.ts']],
    ]);
    expect(wrongWay(fake, [])).toEqual([
      'harness/checks/x.ts -> suites/a.ts (rules may not import suites)',
      'harness/traffic/y.ts -> suites/a.ts (traffic may not import suites)',
      'requirements/z.ts -> harness/model.ts (catalog may not import base)',
      'harness/rules/r.ts -> harness/http/client.ts (rules may not import http)',
      'harness/http/h.ts -> harness/rules/judge.ts (http may not import rules)',
      'harness/log/l.ts -> harness/checks/index.ts (log may not import rules)',
    ]);
    expect(crossGroupCycles(fake)).toEqual([['harness/run/b.ts', 'suites/a.ts']]);
  });
});
