import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { removePreviousOutputs } from '../harness/evidence/previous-outputs';
import { runMain } from './_main';

/** Issue 25: a new run never leaves an older run's report or bundle beside its own summary. */
describe('the reports folder holds one run', () => {
  test("an earlier run's outputs go, Allure's history and other commands' files stay", () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbsi-prev-'));
    const names = ['conformance-summary.md', 'conformance-summary.json', 'junit.xml', 'conformance-report.html'];
    const kept = ['allure-history.jsonl', 'allure-history.last', 'dry-run-plan.md', 'openapi.json', 'notes.txt'];
    for (const n of [...names, 'dbsi-evidence-20261101T000000Z.tar.gz', ...kept]) writeFileSync(join(dir, n), 'x');
    expect(removePreviousOutputs(dir).sort()).toEqual([...names, 'dbsi-evidence-20261101T000000Z.tar.gz'].sort());
    expect(readdirSync(dir).sort()).toEqual([...kept].sort());
  });

  test('a run against the embedded target replaces an older green HTML report and bundle', async () => {
    const first = await runMain(['--area', 'authentication', '--grep', 'OP8-AUTH-401', '--quiet']);
    const stale = ['conformance-report.html', 'dbsi-evidence-20260101T000000Z.tar.gz'];
    for (const n of stale) writeFileSync(join(first.reports, n), 'an older run');
    writeFileSync(join(first.reports, 'allure-history.jsonl'), '{}\n');
    const again = await runMain([
      '--reports',
      first.reports,
      '--area',
      'authentication',
      '--grep',
      'OP8-AUTH-401',
      '--quiet',
    ]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    for (const n of stale) expect(existsSync(join(first.reports, n)), n).toBe(false);
    expect(existsSync(join(first.reports, 'allure-history.jsonl'))).toBe(true);
    expect(existsSync(join(first.reports, 'conformance-summary.json'))).toBe(true);
  });
});
