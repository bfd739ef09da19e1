import { describe, expect, test } from 'vitest';
import { deletedSinceCreated, foldUserDisclosures, UserDisclosureState } from '../harness/state/user-disclosures';
import { entry } from './_state-entries';

/** The queries the state rules ask of the users' acceptance records (harness/state/user-disclosures.ts). */

const record = (name: string, status: string, extra: Record<string, string> = {}) => ({
  institutionDisclosureName: name,
  institutionUserDisclosureStatus: status,
  ...extra,
});
const list = (i: number, user: string, ...records: unknown[]) =>
  entry(i, 'listUserDisclosures', {
    query: { InstitutionConsumerId: user },
    json: { institutionUserDisclosures: records },
  });
const write = (
  i: number,
  op: 'createUserDisclosure' | 'changeUserDisclosure' | 'deleteUserDisclosure',
  body: object,
  status = 204,
) => entry(i, op, { status, body });

describe('the moves of the users acceptance records (harness/state/user-disclosures.ts)', () => {
  test('a 2xx write is a move, with the status sent, pending until the next list of the user', () => {
    const log = [list(1, 'u1', record('Esign', 'ACCEPTED'))];
    log.push(
      write(2, 'changeUserDisclosure', {
        institutionDisclosureName: 'Esign',
        institutionDisclosureStatus: 'NOT_ACCEPTED',
      }),
    );
    log.push(
      write(3, 'createUserDisclosure', {
        institutionDisclosureName: 'Privacy',
        institutionUserDisclosureStatus: 'ACCEPTED',
      }),
    );
    const s = foldUserDisclosures(log, 'u1');
    expect([...s.moves('u1')]).toEqual([
      ['Esign', { kind: 'change', by: 2, status: 'NOT_ACCEPTED', knownPresent: true }],
      ['Privacy', { kind: 'create', by: 3, status: 'ACCEPTED', knownPresent: false }],
    ]);
    expect(s.usersWithMoves()).toEqual(['u1']);
    // Written since the list: no longer "as last listed", nor listed with no write since.
    expect([...s.lastListed('u1').keys()]).toEqual([]);
    expect(s.listedBy('u1', 'Esign')).toBeUndefined();
    s.add(list(4, 'u1', record('Esign', 'NOT_ACCEPTED'), record('Privacy', 'ACCEPTED')));
    expect(s.moves('u1').size).toBe(0);
    expect(s.listedBy('u1', 'Privacy')).toBe(4);
    expect(s.lastListed('u1').get('Esign')).toEqual(record('Esign', 'NOT_ACCEPTED'));
  });

  test('a list leaves as they were the records a write running meanwhile may touch (busy)', () => {
    const s = new UserDisclosureState('u1');
    s.add(list(1, 'u1', record('Esign', 'ACCEPTED'), record('Funds', 'ACCEPTED')));
    s.write(write(2, 'deleteUserDisclosure', { institutionDisclosureName: 'Esign' }), 'u1');
    s.list(list(3, 'u1', record('Funds', 'NOT_ACCEPTED')), (name) => name === 'Esign');
    expect(s.moves('u1').get('Esign')?.kind).toBe('delete');
    expect(s.listedBy('u1', 'Funds')).toBe(3);
    expect(s.has('u1', 'Esign')).toBeUndefined();
  });

  test('a write whose outcome is unknown, or whose user cannot be told, forgets; a refusal changes nothing', () => {
    const s = new UserDisclosureState(() => undefined);
    s.add(list(1, 'u1', record('Esign', 'ACCEPTED')));
    s.add(list(2, 'u2', record('Esign', 'ACCEPTED')));
    expect(
      s.write(write(3, 'deleteUserDisclosure', { institutionDisclosureName: 'Esign' }, 404), 'u1'),
    ).toBeUndefined();
    expect(s.listedBy('u1', 'Esign')).toBe(1);
    expect(s.write(write(4, 'deleteUserDisclosure', { institutionDisclosureName: 'Esign' }, 502), 'u1')).toEqual({
      user: 'u1',
      name: 'Esign',
    });
    expect([s.has('u1', 'Esign'), s.has('u2', 'Esign')]).toEqual([undefined, true]);
    const cannot = s.write(write(5, 'changeUserDisclosure', { institutionDisclosureName: 'Esign' }), undefined);
    expect(cannot).toEqual({ name: 'Esign', cannot: 'a 2xx write whose user cannot be told from the capture' });
    expect(s.has('u2', 'Esign')).toBeUndefined();
  });

  test('a write by id names the record a list showed with that id', () => {
    const s = new UserDisclosureState('u1');
    s.add(list(1, 'u1', record('Esign', 'ACCEPTED', { institutionUserDisclosureId: 'x-1' })));
    s.add(entry(2, 'deleteUserDisclosureById', { status: 204, pathParams: { institutionUserDisclosureId: 'x-1' } }));
    expect(s.nameOf('u1', 'x-1')).toBe('Esign');
    expect(s.moves('u1').get('Esign')).toMatchObject({ kind: 'delete', by: 2 });
  });

  test('whose records a list shows: the consumer own ones, and the id the target gives the user', () => {
    const s = new UserDisclosureState('u1');
    s.add(list(1, 'u2', record('Esign', 'ACCEPTED', { institutionUserId: 'u2', institutionUserDisclosureId: 'r-2' })));
    expect(s.ownRecords().get('u2')).toEqual({ ids: new Set(['r-2']), by: 1, userId: undefined });
    s.add(
      write(2, 'createUserDisclosure', {
        institutionDisclosureName: 'Privacy',
        institutionUserDisclosureStatus: 'ACCEPTED',
      }),
    );
    s.add(list(3, 'u1', record('Privacy', 'ACCEPTED', { institutionUserId: 'T-9' })));
    expect(s.targetUserId('u1')).toEqual({ id: 'T-9', by: 2 });
    expect(s.ownRecords().get('u1')).toEqual({ ids: new Set(), by: 3, userId: 'T-9' });
  });

  test('what the log says a record is now (known): listed, as a 2xx write left it, absent, or unknown', () => {
    const s = new UserDisclosureState('u1').assumeAbsent('u1', 'Esign');
    expect([s.known('u1', 'Esign'), s.known('u1', 'Funds')]).toEqual(['absent', undefined]);
    const body = { institutionDisclosureName: 'Esign', institutionUserDisclosureStatus: 'ACCEPTED' };
    s.add(write(1, 'createUserDisclosure', body, 201));
    const created = { institutionDisclosureName: 'Esign', institutionUserDisclosureStatus: 'ACCEPTED' };
    expect(s.known('u1', 'Esign')).toEqual(created);
    s.add(list(2, 'u1', record('Esign', 'ACCEPTED', { institutionUserDisclosureId: 'x-1' })));
    const change = { institutionDisclosureName: 'Esign', institutionDisclosureStatus: 'NOT_ACCEPTED' };
    s.add(write(3, 'changeUserDisclosure', change, 429));
    expect(s.known('u1', 'Esign')).toEqual({ ...created, institutionUserDisclosureId: 'x-1' });
    s.add(write(4, 'changeUserDisclosure', change));
    // The id the list gave stays with the record through a 2xx change.
    expect(s.known('u1', 'Esign')).toEqual({
      institutionDisclosureName: 'Esign',
      institutionUserDisclosureStatus: 'NOT_ACCEPTED',
      institutionUserDisclosureId: 'x-1',
    });
    s.add(write(5, 'deleteUserDisclosure', { institutionDisclosureName: 'Esign' }));
    expect(s.known('u1', 'Esign')).toBeUndefined();
    s.add(list(6, 'u1'));
    expect(s.known('u1', 'Esign')).toBe('absent');
    s.add(write(7, 'createUserDisclosure', body, 500));
    expect(s.known('u1', 'Esign')).toBeUndefined();
  });

  test('a record a 2xx delete removed since it was last created (deletedSinceCreated)', () => {
    const name = { institutionDisclosureName: 'Esign' };
    const created = write(1, 'createUserDisclosure', { ...name, institutionUserDisclosureStatus: 'ACCEPTED' }, 201);
    expect(deletedSinceCreated([], 'Esign')).toBe(false);
    expect(deletedSinceCreated([created, write(2, 'deleteUserDisclosure', name)], 'Esign')).toBe(true);
    expect(deletedSinceCreated([created, write(2, 'deleteUserDisclosure', name)], 'Funds')).toBe(false);
    // A refused delete removed nothing; a create sent since (whatever its answer) and a 2xx change end it.
    expect(deletedSinceCreated([created, write(2, 'deleteUserDisclosure', name, 404)], 'Esign')).toBe(false);
    const deleted = [created, write(2, 'deleteUserDisclosure', name), list(3, 'u1')];
    expect(deletedSinceCreated(deleted, 'Esign')).toBe(true);
    expect(deletedSinceCreated([...deleted, write(4, 'createUserDisclosure', name, 409)], 'Esign')).toBe(false);
    expect(deletedSinceCreated([...deleted, write(4, 'changeUserDisclosure', name, 200)], 'Esign')).toBe(false);
    expect(deletedSinceCreated([...deleted, write(4, 'changeUserDisclosure', name, 404)], 'Esign')).toBe(true);
  });
});
