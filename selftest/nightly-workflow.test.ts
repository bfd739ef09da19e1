import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from './_cli';

/**
 * docs/nightly-github-actions.yml, the workflow the README tells users to copy: a maintained Node,
 * the JUnit file published as a test report by a maintained action, the suite run through its own Action
 * (action.yml), and on exit 4 (a secret found in an artifact) nothing cached, uploaded or published.
 */
const workflow = readFileSync(join(ROOT, 'docs', 'nightly-github-actions.yml'), 'utf8');
/** The steps of the job, each as its text (a step starts with "      - " at the steps' indentation). */
const steps = workflow
  .slice(workflow.indexOf('    steps:\n'))
  .split(/\n(?= {6}- )/)
  .slice(1);
const ifOf = (step: string) => /\n {8}if: (.*)/.exec(step)?.[1] ?? '';

describe('the nightly workflow', () => {
  test('runs on Node 22 (maintained), not an end-of-life Node', () => {
    expect(workflow).toMatch(/node-version: 22\n/);
    expect(workflow).not.toMatch(/node-version: (1\d|20)\b/);
  });

  test('publishes the JUnit file as a test report with a maintained action, with the permission it needs', () => {
    const publish = steps.find((s) => s.includes('uses: mikepenz/action-junit-report@v5'));
    expect(publish).toBeDefined();
    expect(publish).toContain('report_paths: reports/junit.xml');
    expect(workflow).toMatch(/\n {2}checks: write/);
  });

  test('runs the suite through its own Action (action.yml), which uploads and writes the job summary', () => {
    const run = steps.find((s) => /\n {8}id: run\n/.test(s))!;
    expect(run).toContain('uses: ./\n');
    expect(run).toContain("bundle: 'true'");
    expect(run).toContain("upload: 'true'");
    // The action never uploads or shows the summary on exit 4 (selftest/github-action.test.ts); nor does the workflow.
    expect(steps.filter((s) => /actions\/upload-artifact@|GITHUB_STEP_SUMMARY/.test(s))).toEqual([]);
  });

  test('every step that caches or publishes something is skipped on exit 4', () => {
    const leaving = steps.filter((s) =>
      /uses: (actions\/cache\/save|mikepenz\/action-junit-report)@|dbsi-last-night\/$/m.test(s),
    );
    expect(leaving.length).toBe(4);
    for (const s of leaving) expect(ifOf(s), s.split('\n')[0]).toContain("steps.run.outputs.exit-code != '4'");
  });

  test("compares each night with the last kept summary, and keeps tonight's (not on exit 4)", () => {
    const restore = steps.find((s) => s.includes('uses: actions/cache/restore@v4') && s.includes('dbsi-last-night/'));
    expect(restore).toContain('path: dbsi-last-night/conformance-summary.json');
    const run = steps.find((s) => /\n {8}id: run\n/.test(s))!;
    expect(run).toContain('previous-summary: dbsi-last-night/conformance-summary.json');
    expect(run).toContain(
      "waivers: ${{ hashFiles('conformance/waivers.json') != '' && 'conformance/waivers.json' || '' }}",
    );
    const keep = steps.filter((s) => s.includes('dbsi-last-night') && s !== restore && s !== run);
    expect(keep.length).toBe(2);
    for (const s of keep) expect(ifOf(s), s.split('\n')[0]).toContain("steps.run.outputs.exit-code != '4'");
    const save = keep.find((s) => s.includes('actions/cache/save@v4'))!;
    expect(/key: (.*)/.exec(save)?.[1]).toBe(/key: (.*)/.exec(restore!)?.[1]);
  });

  test('the gate fails on every exit code but 0 and 5 (conformant in the areas tested, with a warning)', () => {
    const gate = steps.find((s) => s.includes('Gate on the exit code'))!;
    expect(gate).toMatch(/0\) echo "conformant" ;;/);
    expect(gate).toMatch(/5\) echo "::warning::[^\n]*code=0 ;;/);
    expect(gate).toContain('exit "${code:-3}"');
  });
});
