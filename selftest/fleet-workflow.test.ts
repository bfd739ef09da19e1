import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './_cli';

/** docs/fleet-github-actions.yml: a CI matrix running the Action per target, and a last job merging the reports. */
interface Job {
  needs?: string;
  if?: string;
  strategy?: { 'fail-fast'?: boolean; matrix: { target: string[] } };
  steps: Array<{ uses?: string; run?: string; with?: Record<string, string>; env?: Record<string, string> }>;
}
const workflow = parse(readFileSync(join(ROOT, 'docs', 'fleet-github-actions.yml'), 'utf8')) as {
  jobs: Record<string, Job>;
};

describe('the fleet workflow template', () => {
  const { target, matrix } = workflow.jobs as { target: Job; matrix: Job };

  test('runs the Action once per target, each its own configuration, secrets and artifact, none gating', () => {
    expect(target.strategy!['fail-fast']).toBe(false);
    const run = target.steps.find((s) => s.uses === './')!;
    expect(run.with).toMatchObject({ config: 'conformance/${{ matrix.target }}.json', gate: 'false' });
    expect(run.with!['artifact-name']).toBe('${{ matrix.target }}');
    expect(run.env!.DBSI_BEARER_TOKEN).toContain('matrix.target');
  });

  test("merges every target's folder, even after a failed target, and gates on the worst", () => {
    expect(matrix.needs).toBe('target');
    expect(matrix.if).toBe('always()');
    const merge = matrix.steps.find((s) => s.run?.includes('npm run -s merge'))!;
    for (const t of target.strategy!.matrix.target) expect(merge.run).toContain(`jobs/${t}`);
    expect(merge.run).toContain('GITHUB_STEP_SUMMARY');
    expect(matrix.steps.at(-1)!.run).toContain('exit 1');
  });
});
