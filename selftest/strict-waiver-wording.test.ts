import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runMain } from './_main';

/**
 * Issue 30: under --strict, a run whose only finding is a waiver no longer needed fails (exit 1, as documented),
 * and says so: "waiver no longer needed", not "non-conformant" (the target broke nothing).
 */
const SELECT = ['--area', 'disclosures', '--grep', 'listInstitutionDisclosures', '--seed', '7'];

describe('a waiver no longer needed under --strict', () => {
  test('is the verdict where no test failed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbsi-strict-waiver-'));
    const file = join(dir, 'waivers.json');
    const expires = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const waiver = { requirement: 'OP1-REQUEST', reason: 'accepted until 4.2', reference: 'CHG-9', expires };
    writeFileSync(file, JSON.stringify({ waivers: [waiver] }));
    const r = await runMain([...SELECT, '--strict', '--waivers', file], { timeoutMs: 120_000 });
    expect(r.code, r.stdout).toBe(1);
    const summary = JSON.parse(readFileSync(join(r.reports, 'conformance-summary.json'), 'utf8'));
    expect(summary.cases.filter((c: { outcome: string }) => c.outcome === 'failed')).toEqual([]);
    expect(summary.facts.verdict).toBe('waiver no longer needed');
    expect(r.stdout).toMatch(/^Verdict: waiver no longer needed \(exit 1\)/m);
    expect(r.stdout).not.toMatch(/non-conformant/);
    const md = readFileSync(join(r.reports, 'conformance-summary.md'), 'utf8');
    expect(md).toMatch(/^# DBSI conformance summary: WAIVER NO LONGER NEEDED$/m);
    // Without --strict it is a warning only: the run is conformant.
    const plain = await runMain([...SELECT, '--waivers', file], { timeoutMs: 120_000 });
    expect(plain.code, plain.stdout).toBe(0);
    expect(plain.stdout).toMatch(/^Verdict: conformant /m);
  });
});
