import { describe, expect, test } from 'vitest';
import type { Seen } from '../harness/log/entry';
import { RunLog } from '../harness/log/run-log';
import type { Exchange } from '../harness/model';
import { userRecordsOfRunLog, userRecordsOfTheRun } from '../harness/state/user-disclosure-run';
import { entry } from './_state-entries';

/** What the run's whole log says of the user's records, as drivers ask it (harness/state/user-disclosure-run.ts). */

const U = 'u1';
const record = (name: string, extra: Record<string, string> = {}) => ({
  institutionDisclosureName: name,
  institutionUserDisclosureStatus: 'ACCEPTED',
  ...extra,
});
const list = (i: number, user: string, ...records: unknown[]) =>
  entry(i, 'listUserDisclosures', {
    query: { InstitutionConsumerId: user },
    json: { institutionUserDisclosures: records },
  });
const create = (i: number, name: string, status = 201) =>
  entry(i, 'createUserDisclosure', {
    status,
    body: { institutionDisclosureName: name, institutionUserDisclosureStatus: 'ACCEPTED' },
  });
const change = (i: number, name: string, status = 200) =>
  entry(i, 'changeUserDisclosure', {
    status,
    body: { institutionDisclosureName: name, institutionDisclosureStatus: 'NOT_ACCEPTED' },
  });
const remove = (i: number, name: string, status = 204) =>
  entry(i, 'deleteUserDisclosure', { status, body: { institutionDisclosureName: name } });
/** The entry, sent at `start` and answered at `end` (milliseconds). */
const during = (s: Seen, start: number, end: number): Seen => ({ ...s, x: { ...s.x, startMs: start, endMs: end } });

const ask = (log: Seen[], name: string) => {
  const v = userRecordsOfTheRun(log, U);
  return { noRecord: v.noRecord(name), notOurs: v.notOurs(name) };
};

describe('the user has no record of a disclosure now (noRecord)', () => {
  test('the last list showed none and no write of it since; a list of another user says nothing', () => {
    expect(ask([], 'Esign').noRecord).toBe(false);
    expect(ask([list(1, 'u2')], 'Esign').noRecord).toBe(false);
    expect(ask([list(1, U, record('Funds'))], 'Esign').noRecord).toBe(true);
    expect(ask([list(1, U, record('Esign'))], 'Esign').noRecord).toBe(false);
    // A 2xx create, change or delete no list showed since: the record is not known to be absent.
    expect(ask([list(1, U), create(2, 'Esign')], 'Esign').noRecord).toBe(false);
    expect(ask([list(1, U), change(2, 'Esign')], 'Esign').noRecord).toBe(false);
    expect(ask([list(1, U, record('Esign')), remove(2, 'Esign')], 'Esign').noRecord).toBe(false);
    expect(ask([list(1, U, record('Esign')), remove(2, 'Esign'), list(3, U)], 'Esign').noRecord).toBe(true);
    // A write of another record leaves it absent.
    expect(ask([list(1, U), create(2, 'Funds')], 'Esign').noRecord).toBe(true);
  });

  test('a refused write changed nothing; one whose outcome is unknown, or that names no record, may have', () => {
    expect(ask([list(1, U), create(2, 'Esign', 409)], 'Esign').noRecord).toBe(true);
    expect(ask([list(1, U), create(2, 'Esign', 429)], 'Esign').noRecord).toBe(true);
    expect(ask([list(1, U), create(2, 'Esign', 500)], 'Esign').noRecord).toBe(false);
    expect(ask([list(1, U), create(2, 'Esign', 0)], 'Esign').noRecord).toBe(false);
    const nameless = entry(2, 'createUserDisclosure', { status: 201, body: {} });
    expect(ask([list(1, U), nameless], 'Esign').noRecord).toBe(false);
    expect(ask([list(1, U), nameless, list(3, U)], 'Esign').noRecord).toBe(true);
  });

  test('a write by id names the record any list showed with that id', () => {
    const byId = (i: number, id: string) =>
      entry(i, 'deleteUserDisclosureById', { status: 204, pathParams: { institutionUserDisclosureId: id } });
    const log = [list(1, U, record('Funds', { institutionUserDisclosureId: 'r-1' })), byId(2, 'r-1')];
    expect([ask(log, 'Esign').noRecord, ask(log, 'Funds').noRecord]).toEqual([true, false]);
    // An id no list showed may be any record's.
    expect(ask([list(1, U), byId(2, 'r-9')], 'Esign').noRecord).toBe(false);
  });

  test('a list that a write of the record overlaps does not settle it; one of another record does', () => {
    const created = during(create(2, 'Esign'), 10, 30);
    const listedMeanwhile = during(list(3, U), 20, 25);
    expect(ask([list(1, U), created, listedMeanwhile], 'Esign').noRecord).toBe(false);
    const other = during(create(2, 'Funds'), 10, 30);
    expect(ask([list(1, U, record('Esign')), other, during(list(3, U), 20, 25)], 'Esign').noRecord).toBe(true);
    // Taken after the write's answer: it shows the record's state.
    const after = during(list(4, U), 31, 32);
    expect(ask([list(1, U, record('Esign')), during(remove(2, 'Esign'), 10, 30), after], 'Esign').noRecord).toBe(true);
  });
});

describe('a record the run did not create, or could not remove (notOurs)', () => {
  test('a list showed it before any create of it by the run', () => {
    expect(ask([list(1, U, record('Esign'))], 'Esign').notOurs).toBe(true);
    expect(ask([list(1, U, record('Funds'))], 'Esign').notOurs).toBe(false);
    expect(ask([list(1, U), create(2, 'Esign'), list(3, U, record('Esign'))], 'Esign').notOurs).toBe(false);
    // The run's record, changed and listed again, stays the run's.
    const life = [list(1, U), create(2, 'Esign'), list(3, U, record('Esign')), change(4, 'Esign')];
    expect(ask([...life, list(5, U, record('Esign'))], 'Esign').notOurs).toBe(false);
    // A refused create made no record: what a list shows then is not the run's.
    expect(ask([list(1, U), create(2, 'Esign', 409), list(3, U, record('Esign'))], 'Esign').notOurs).toBe(true);
  });

  test('once a list showed the run record gone, or a delete of it was not refused, a record listed is not ours', () => {
    const gone = [list(1, U), create(2, 'Esign'), list(3, U, record('Esign')), remove(4, 'Esign'), list(5, U)];
    expect(ask([...gone, list(6, U, record('Esign'))], 'Esign').notOurs).toBe(true);
    expect(ask([...gone, create(6, 'Esign'), list(7, U, record('Esign'))], 'Esign').notOurs).toBe(false);
    // The target kept it after a 2xx delete: left behind, never touched again.
    const kept = [list(1, U), create(2, 'Esign'), remove(3, 'Esign'), list(4, U, record('Esign'))];
    expect(ask(kept, 'Esign').notOurs).toBe(true);
    // A refused delete (a request sent without valid credentials) leaves the record the run's.
    const refused = [list(1, U), create(2, 'Esign'), remove(3, 'Esign', 401), list(4, U, record('Esign'))];
    expect(ask(refused, 'Esign').notOurs).toBe(false);
  });

  test('a list that a create of the record overlaps may show the run record', () => {
    const log = [list(1, U), during(create(2, 'Esign'), 10, 30), during(list(3, U, record('Esign')), 5, 20)];
    expect(ask(log, 'Esign').notOurs).toBe(false);
    const nameless = entry(2, 'createUserDisclosure', { status: 201, body: {} });
    expect(ask([list(1, U), nameless, list(3, U, record('Esign'))], 'Esign').notOurs).toBe(false);
  });
});

describe('what the log says the record is now (known), and which lists show it', () => {
  test('as listed, as a 2xx create or change left it, absent, or unknown', () => {
    const known = (log: Seen[]) => userRecordsOfTheRun(log, U).known('Esign');
    expect(known([])).toBeUndefined();
    expect(known([list(1, U)])).toBe('absent');
    const listed = { institutionDisclosureName: 'Esign', institutionUserDisclosureStatus: 'ACCEPTED' };
    expect(known([list(1, U), create(2, 'Esign')])).toEqual(listed);
    expect(known([list(1, U, record('Esign', { institutionUserDisclosureId: 'r-1' }))])).toEqual({
      ...listed,
      institutionUserDisclosureId: 'r-1',
    });
    expect(known([list(1, U, record('Esign')), change(2, 'Esign', 403)])).toEqual(listed);
    expect(known([list(1, U, record('Esign')), remove(2, 'Esign')])).toBeUndefined();
  });

  test('a list sent with credentials the target never issued, or at another path, shows nothing of the records', () => {
    const madeUp: Seen = { ...list(2, U), authority: 'made-up' };
    const probe: Seen = { ...list(2, U), undocumentedPath: true };
    for (const other of [madeUp, probe]) {
      expect(ask([list(1, U, record('Esign'))], 'Esign').noRecord).toBe(false);
      expect(ask([list(1, U, record('Esign')), other], 'Esign').noRecord).toBe(false);
      expect(ask([{ ...other, x: { ...other.x, index: 1 } }], 'Esign').noRecord).toBe(false);
    }
    expect(ask([{ ...list(1, U, record('Esign')), authority: 'none' }], 'Esign').notOurs).toBe(false);
    expect(ask([{ ...list(1, U), authority: 'configured' }], 'Esign').noRecord).toBe(true);
  });
});

describe("the run's log (userRecordsOfRunLog)", () => {
  const logged = (s: Seen) => {
    const { keepsAuthorization: _k, ...rest } = s;
    return rest;
  };

  test('folded again once the log grew; no record is known absent where a write has no outcome in it', () => {
    const log = new RunLog();
    log.append(logged(list(1, U)));
    expect(userRecordsOfRunLog(log, U).noRecord('Esign')).toBe(true);
    log.append(logged(create(2, 'Esign')));
    expect(userRecordsOfRunLog(log, U).noRecord('Esign')).toBe(false);
    log.append(logged(list(3, U)));
    expect(userRecordsOfRunLog(log, U).noRecord('Esign')).toBe(true);
    const lost = { request: { method: 'POST' }, response: { status: 504 }, operation: 'createUserDisclosure' };
    log.recorded(lost as unknown as Exchange);
    log.append(logged(list(4, U, record('Funds'))));
    const view = userRecordsOfRunLog(log, U);
    expect([view.noRecord('Esign'), view.notOurs('Funds'), view.known('Funds')]).toEqual([false, true, undefined]);
  });
});
