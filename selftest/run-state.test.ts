import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { RunState, slot } from '../harness/run-state';

/**
 * Per-run state is explicit (issue 22): one object per run (harness/run-state.ts), handed to the drivers as
 * `t.run`. A driver module declares its slots; it keeps no collection of its own at module level, which two
 * runs in one process (the in-process self-tests, a dry run beside a run) would share.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );

describe('the run state', () => {
  test('a slot is made once per run, on first use, and two runs never share it', () => {
    let made = 0;
    const COUNT = slot('count', () => ({ n: ++made }));
    const a = new RunState();
    const b = new RunState();
    expect(a.names()).toEqual([]);
    a.get(COUNT).n += 10;
    expect(a.get(COUNT).n).toBe(11);
    expect(b.get(COUNT).n).toBe(2);
    expect(made).toBe(2);
    expect(a.names()).toEqual(['count']);
  });

  test('no driver keeps a collection at module level (per-case state keyed by the case is allowed)', () => {
    // An empty collection filled as the run goes (a constant set of names is no state).
    const registry = /^(?:export )?(?:const|let) \w+ = new (?:WeakMap|Map|Set|WeakSet)(?!<CaseContext\b)(?:<.*>)?\(\)/m;
    const found = files(join(ROOT, 'suites'))
      .filter((f) => registry.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f));
    expect(found, 'suites/ files with a module-level collection: declare a slot (harness/run-state.ts)').toEqual([]);
  });
});
