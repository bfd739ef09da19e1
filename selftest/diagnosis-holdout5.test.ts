import { appendFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { diagnosisBlock } from '../harness/setup/diagnosis';
import { FAULTS5 } from './_diagnosis-holdout5-faults';
import { MISTAKES5 } from './_diagnosis-holdout5-mistakes';
import { namedKeys, outcome5Line, runHoldout5Row, type Holdout5Row } from './_diagnosis-holdout5-run';
import { explain } from './_reference';

/**
 * Session 41: the fifth hold-out set for the setup diagnosis, written from the spec and the configuration's
 * documentation without the suite's own tables (docs/diagnosis.md, "A hold-out set (session 41)"). Each row makes one
 * operator's mistake (or two at once) or one target's fault against the reference target and asserts the exit code,
 * the failed requirements and exactly the configuration keys the DIAGNOSIS block names (none for a target's fault).
 * HOLDOUT_TABLE=<file> appends one line per row, for the before/after table.
 */

const ROWS: Holdout5Row[] = [...MISTAKES5, ...FAULTS5];

describe('the fifth hold-out set of the diagnosis (session 41): does each blame rest on evidence?', () => {
  test.each(ROWS.map((r) => [`${r.id}: ${r.name}`, r] as const))('%s', async (_name, r) => {
    const o = await runHoldout5Row(r);
    if (process.env.HOLDOUT_TABLE) appendFileSync(process.env.HOLDOUT_TABLE, `${outcome5Line(r, o)}\n`);
    const why = `${outcome5Line(r, o)}\n${explain(o.cases)}\n${diagnosisBlock(o.findings).join('\n')}`;
    expect(o.exit, why).toBe(r.exit);
    for (const id of r.failed ?? []) expect(o.failed, why).toContain(id);
    if (r.exit === 3) expect(o.failed, why).toEqual([]);
    expect(namedKeys(o), why).toEqual([...r.keys].sort());
    if (r.says) expect(o.findings.map((f) => f.problem).join('\n'), why).toMatch(r.says);
    if (r.noted) expect(o.cases.map((c) => c.reason ?? '').join('\n'), why).toMatch(r.noted);
  });
});
