import { describe, expect, test } from 'vitest';
import type { Seen } from '../harness/rules/exchange';
import { foldUserDisclosures } from '../harness/state/user-disclosures';
import { entry as stateEntry } from './_state-entries';

/** A log entry as the fold reads it (selftest/_state-entries.ts), by record id and user. */
function entry(
  index: number,
  operation: Seen['mapped']['operation'],
  o: { status?: number; json?: unknown; body?: unknown; id?: string; user?: string } = {},
): Seen {
  const { id, user, ...rest } = o;
  return stateEntry(index, operation, {
    ...rest,
    pathParams: id ? { institutionUserDisclosureId: id } : {},
    query: user ? { InstitutionConsumerId: user } : {},
  });
}
const record = (name: string, status: string, id?: string) => ({
  institutionDisclosureName: name,
  institutionUserDisclosureStatus: status,
  ...(id ? { institutionUserDisclosureId: id } : {}),
});
const list = (i: number, ...records: unknown[]) =>
  entry(i, 'listUserDisclosures', { user: 'u1', json: { institutionUserDisclosures: records } });

describe('the fold of the users acceptance records (harness/state/user-disclosures.ts)', () => {
  test('a list says which records the user has, their status and id', () => {
    const s = foldUserDisclosures(
      [list(1, record('Privacy', 'ACCEPTED', 'uds-1'), record('Esign', 'NOT_ACCEPTED'))],
      'u1',
    );
    expect(s.has('u1', 'Privacy')).toBe(true);
    expect(s.has('u1', 'Funds')).toBe(false);
    expect(s.record('u1', 'Esign')).toEqual({ name: 'Esign', status: 'NOT_ACCEPTED', id: undefined });
    expect(s.record('u1', 'Privacy')?.id).toBe('uds-1');
    expect(s.has('u2', 'Privacy')).toBeUndefined();
  });

  test('a write makes the record it names unknown until the next list; a refusal changes nothing', () => {
    const log = [list(1, record('Privacy', 'ACCEPTED', 'uds-1'))];
    log.push(entry(2, 'changeUserDisclosure', { status: 404, body: { institutionDisclosureName: 'Privacy' } }));
    expect(foldUserDisclosures(log, 'u1').has('u1', 'Privacy')).toBe(true);
    log.push(entry(3, 'deleteUserDisclosureById', { status: 204, id: 'uds-1' }));
    expect(foldUserDisclosures(log, 'u1').has('u1', 'Privacy')).toBeUndefined();
    log.push(list(4));
    const s = foldUserDisclosures(log, 'u1');
    expect(s.has('u1', 'Privacy')).toBe(false);
    // The id stays known (a stale id), and among the ids the target issued.
    expect(s.lastId('u1', 'Privacy')).toBe('uds-1');
    expect([...s.issuedIds('u1')]).toEqual(['uds-1']);
  });

  test('a 2xx write by an id no list showed makes every record unknown', () => {
    const log = [list(1, record('Privacy', 'ACCEPTED', 'uds-1'), record('Esign', 'ACCEPTED', 'uds-2'))];
    log.push(entry(2, 'deleteUserDisclosureById', { status: 204, id: 'uds-1x' }));
    const s = foldUserDisclosures(log, 'u1');
    expect([s.has('u1', 'Privacy'), s.has('u1', 'Esign')]).toEqual([undefined, undefined]);
    expect(s.listedNames('u1')).toEqual(['Privacy', 'Esign']);
  });

  test('a list refused, or without the envelope, tells nothing', () => {
    const s = foldUserDisclosures(
      [
        entry(1, 'listUserDisclosures', { user: 'u1', status: 403, json: {} }),
        entry(2, 'listUserDisclosures', { user: 'u1', json: { x: [] } }),
      ],
      'u1',
    );
    expect(s.has('u1', 'Privacy')).toBeUndefined();
  });
});
