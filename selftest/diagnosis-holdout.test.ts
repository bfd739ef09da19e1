import { appendFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { diagnosisBlock } from '../harness/setup/diagnosis';
import { FAULTS } from './_diagnosis-holdout-faults';
import { MISTAKES } from './_diagnosis-holdout-mistakes';
import { outcomeLine, runHoldoutRow, sameKeys, type HoldoutRow } from './_diagnosis-holdout-run';
import { explain } from './_reference';

/**
 * Session 40: a hold-out set for the setup diagnosis, written from the spec and the configuration's documentation
 * without the suite's own table (docs/diagnosis.md, "A hold-out set (session 40)"). Each row makes one operator's
 * mistake or one target's fault against the reference target and asserts the exit code, the failed requirements and
 * exactly the keys the DIAGNOSIS block names (none for a target's fault). HOLDOUT_TABLE=<file> appends one line per
 * row, for the before/after table.
 */

const ROWS: HoldoutRow[] = [...MISTAKES, ...FAULTS];

describe('the hold-out set of the diagnosis (session 40): does each blame rest on evidence?', () => {
  test.each(ROWS.map((r) => [`${r.id}: ${r.name}`, r] as const))('%s', async (_name, r) => {
    const o = await runHoldoutRow(r);
    if (process.env.HOLDOUT_TABLE) appendFileSync(process.env.HOLDOUT_TABLE, `${outcomeLine(r, o)}\n`);
    const why = `${outcomeLine(r, o)}\n${explain(o.cases)}\n${diagnosisBlock(o.findings).join('\n')}`;
    expect(o.exit, why).toBe(r.exit);
    for (const id of r.failed ?? []) expect(o.failed, why).toContain(id);
    if (r.exit === 3) expect(o.failed, why).toEqual([]);
    expect(sameKeys(o.keys, r.keys), why).toBe(true);
    for (const key of r.notNamed ?? []) expect(o.keys.join('\n'), why).not.toContain(key);
    if (r.says) expect(o.findings.map((f) => f.problem).join('\n'), why).toMatch(r.says);
    if (r.noted) expect(o.cases.map((c) => c.reason ?? '').join('\n'), why).toMatch(r.noted);
  });
});
