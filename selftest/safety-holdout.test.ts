import { describe, test } from 'vitest';
import { expectSafe } from './_safety-holdout';
import { CONTACT_ROWS, type Row } from './_safety-holdout-rows';

/**
 * Session 40's safety hold-out set (docs/what-the-suite-changes.md, "A hold-out set (session 40)"): does every run
 * leave a hostile real target as it found it, or say loudly what it changed and could not put back? Each row runs the
 * selected areas in-process against the reference target behind a hostile proxy, with a configuration as an operator
 * wrote it, and compares the target's own state (ReferenceState: customers, acceptance records, institution
 * disclosures, transfers) before and after: the end the row states, every change listed (a leftover, a value set to
 * the configured one, a record created for good), an exit code an honest run may have, and no exit 0 or 5 while
 * something owed a restore is left.
 */
const ROWS: Row[] = CONTACT_ROWS;

describe('contact data of a hostile real target is left as found, or every change is listed', () => {
  for (const row of ROWS) {
    const title = `${row.id}: ${row.what}`;
    // A row still unsafe after the fixes states the safe outcome and is expected to fail: it turns red once fixed.
    if (row.left) test.fails(`${title} (left: ${row.left})`, () => expectSafe(row), 120_000);
    else test(title, () => expectSafe(row), 120_000);
  }
});
