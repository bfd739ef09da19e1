import { describe, expect, test } from 'vitest';
import { unremovableBlock } from '../harness/run/unremovable';
import { expectSafe } from './_safety-holdout';
import { OTHER_ROWS } from './_safety-holdout-rows-others';

/**
 * Session 40's safety hold-out set beyond contact data (selftest/safety-holdout.test.ts has the contact rows and says
 * how a row is judged): acceptance records, institution disclosures and transfers of a hostile real target.
 */
describe('records and transfers of a hostile real target are left as found, or every change is listed', () => {
  for (const row of OTHER_ROWS) {
    const title = `${row.id}: ${row.what}`;
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
