import { describe, expect, test } from 'vitest';
import { unremovableBlock } from '../harness/run/unremovable';
import { changes, listed, runHostile, unlisted } from './_safety-holdout';
import { CONTACT_ROWS, type Row } from './_safety-holdout-rows';
import { OTHER_ROWS } from './_safety-holdout-rows-others';

/**
 * Session 40's safety hold-out set (docs/what-the-suite-changes.md, "A hold-out set (session 40)"): does every run
 * leave a hostile real target as it found it, or say loudly what it changed and could not put back? Each row runs the
 * selected areas in-process against the reference target behind a hostile proxy, with a configuration as an operator
 * wrote it, and compares the target's own state (ReferenceState: customers, acceptance records, institution
 * disclosures, transfers) before and after: the end the row states, every change listed (a leftover, a value set to
 * the configured one, a record created for good), an exit code an honest run may have, and no exit 0 or 5 while
 * something owed a restore is left.
 */
const ROWS: Row[] = [...CONTACT_ROWS, ...OTHER_ROWS];

async function expectSafe(row: Row): Promise<void> {
  const r = await runHostile(row);
  const changed = changes(r.before, r.after);
  const said = `changed:\n${changed.join('\n')}\nlisted:\n${listed(r).join('\n')}`;
  if (row.end === 'as found') expect(changed, said).toEqual([]);
  if (row.end === 'changed, listed') expect(changed.length, said).toBeGreaterThan(0);
  expect(unlisted(r), said).toEqual([]);
  expect(row.exit, `exit ${r.exitCode}; ${said}`).toContain(r.exitCode);
  if (r.leftovers.length > 0) expect([0, 5]).not.toContain(r.exitCode);
}

describe('a hostile real target is left as found, or every change is listed', () => {
  for (const row of ROWS) {
    const title = `${row.id}: ${row.what}`;
    // A row still unsafe after the fixes states the safe outcome and is expected to fail: it turns red once fixed.
    if (row.left) test.fails(`${title} (left: ${row.left})`, () => expectSafe(row), 120_000);
    else test(title, () => expectSafe(row), 120_000);
  }
});

describe('a create whose outcome is unknown', () => {
  test('is listed with what was created for good, marked as such, with why', () => {
    const block = unremovableBlock([
      { kind: 'transfer', what: '0.01 from a to b', id: 'trf-1', test: 'creates a one-time transfer' },
      { kind: 'transfer', what: '0.01 from a to b', test: 'creates a one-time transfer', unknown: 'no answer' },
    ]);
    expect(block[0]).toMatch(/^CREATED, CANNOT BE REMOVED THROUGH THE INTERFACE: 2 records/);
    expect(block[1]).not.toContain('MAY HAVE BEEN CREATED');
    expect(block[2]).toContain('0.01 from a to b MAY HAVE BEEN CREATED: no answer; look for it');
  });
});
