import { describe, expect, test } from 'vitest';
import type { Logged, Seen } from '../harness/log/entry';
import { mergeStateCoverage, stateCoverage, stateCoverageLine } from '../harness/state/coverage';
import { contactInfoCoverage } from '../harness/state/coverage/contact-info';
import { institutionDisclosureCoverage } from '../harness/state/coverage/institution-disclosures';
import { userDisclosureCoverage } from '../harness/state/coverage/user-disclosures';
import type { FamilyCoverage } from '../harness/contract-coverage/states';
import { email, phone, update } from './_contact-entries';
import { contractCoverage } from '../harness/contract-coverage/measure';
import { buildCoverageModel } from '../harness/contract-coverage/model';
import { contractCoverageSection } from '../harness/evidence/coverage-html';
import { contractFigure, contractFigureMarkdown } from '../harness/evidence/summary-coverage';
import { entry } from './_state-entries';

/**
 * State coverage (harness/state/coverage/, docs/reports.md "State coverage"): "A coverage figure counts what a fault
 * could hide behind, not what was sent." A transition (the state a record was in, the write, the value) counts as
 * covered only where a later read showed its effect. Log in, coverage out.
 */

const status = (f: FamilyCoverage, transition: string) => f.transitions.find((t) => t.transition === transition);
const USER = 'u-1';
const list = (i: number, records: Array<[string, string]>) =>
  entry(i, 'listUserDisclosures', {
    query: { InstitutionConsumerId: USER },
    json: {
      institutionUserDisclosures: records.map(([name, st]) => ({
        institutionId: '1',
        institutionUserId: USER,
        institutionDisclosureName: name,
        institutionUserDisclosureStatus: st,
      })),
    },
  });
const create = (i: number, name: string, st: string, code = 204) =>
  entry(i, 'createUserDisclosure', {
    status: code,
    body: { institutionDisclosureName: name, institutionUserDisclosureStatus: st },
  });
const change = (i: number, name: string, st: string, code = 204) =>
  entry(i, 'changeUserDisclosure', {
    status: code,
    body: { institutionDisclosureName: name, institutionDisclosureStatus: st },
  });
const del = (i: number, name: string, code = 204) =>
  entry(i, 'deleteUserDisclosure', { status: code, body: { institutionDisclosureName: name } });

describe('acceptance records: taken, then read back by a later list of the user', () => {
  test('a create from absent, read back by the next list; a change never listed after is taken only', () => {
    const f = userDisclosureCoverage([list(1, []), create(2, 'E-Sign', 'ACCEPTED'), list(3, [['E-Sign', 'ACCEPTED']])]);
    expect(status(f, 'absent × create ACCEPTED')).toEqual({
      transition: 'absent × create ACCEPTED',
      status: 'read back',
      write: 2,
      readBack: 3,
    });
    const g = userDisclosureCoverage([list(1, [['E-Sign', 'ACCEPTED']]), change(2, 'E-Sign', 'NOT_ACCEPTED')]);
    expect(status(g, 'ACCEPTED × change (collection) NOT_ACCEPTED')?.status).toBe('taken');
  });

  test('a delete then a create again: from "deleted", each read back', () => {
    const f = userDisclosureCoverage([
      list(1, [['E-Sign', 'NOT_ACCEPTED']]),
      del(2, 'E-Sign'),
      list(3, []),
      create(4, 'E-Sign', 'NOT_ACCEPTED'),
      list(5, [['E-Sign', 'NOT_ACCEPTED']]),
    ]);
    expect(status(f, 'NOT_ACCEPTED × delete (collection)')?.status).toBe('read back');
    expect(status(f, 'deleted × create NOT_ACCEPTED')?.status).toBe('read back');
  });

  test('a create beside five or more records of the user is a state of its own (the sixth record on)', () => {
    const five: Array<[string, string]> = ['A', 'B', 'C', 'D', 'E'].map((n) => [n, 'ACCEPTED']);
    const f = userDisclosureCoverage([
      list(1, five.slice(0, 4)),
      create(2, 'E', 'ACCEPTED'),
      list(3, five),
      create(4, 'F', 'NOT_ACCEPTED'),
      list(5, [...five, ['F', 'NOT_ACCEPTED']]),
    ]);
    // The fifth record (four listed before it) is an ordinary create; the sixth is not.
    expect(status(f, 'absent × create ACCEPTED')?.status).toBe('read back');
    expect(status(f, 'absent × create NOT_ACCEPTED')?.status).toBe('not taken');
    expect(status(f, 'absent, 5 or more records of the user listed × create NOT_ACCEPTED')?.status).toBe('read back');
    expect(status(f, 'absent, 5 or more records of the user listed × create ACCEPTED')?.status).toBe('not taken');
  });

  test('a later write of the record before the list: only the later one is read back', () => {
    const f = userDisclosureCoverage([
      list(1, [['E-Sign', 'ACCEPTED']]),
      change(2, 'E-Sign', 'NOT_ACCEPTED'),
      change(3, 'E-Sign', 'ACCEPTED'),
      list(4, [['E-Sign', 'ACCEPTED']]),
    ]);
    expect(status(f, 'ACCEPTED × change (collection) NOT_ACCEPTED')?.status).toBe('taken');
    expect(status(f, 'NOT_ACCEPTED × change (collection) ACCEPTED')?.status).toBe('read back');
  });

  test('a change of a record the user does not have, refused, is taken; one of a present record refused is not', () => {
    const f = userDisclosureCoverage([list(1, []), change(2, 'E-Sign', 'ACCEPTED', 404), list(3, [])]);
    expect(status(f, 'absent × change (collection) ACCEPTED')?.status).toBe('read back');
    const g = userDisclosureCoverage([list(1, [['E-Sign', 'ACCEPTED']]), change(2, 'E-Sign', 'ACCEPTED', 401)]);
    expect(g.transitions.every((t) => t.status === 'not taken')).toBe(true);
  });

  test('an outcome unknown: the write pending is never read back', () => {
    const f = userDisclosureCoverage([
      list(1, [['E-Sign', 'ACCEPTED']]),
      change(2, 'E-Sign', 'NOT_ACCEPTED'),
      change(3, 'E-Sign', 'ACCEPTED', 0),
      list(4, [['E-Sign', 'ACCEPTED']]),
    ]);
    expect(status(f, 'ACCEPTED × change (collection) NOT_ACCEPTED')?.status).toBe('taken');
  });
});

describe('institution disclosures: read back by a later list', () => {
  const listed = (i: number, items: Array<[string, string, boolean]>) =>
    entry(i, 'listInstitutionDisclosures', {
      json: {
        institutionDisclosures: items.map(([id, name, st]) => ({
          institutionDisclosureId: id,
          institutionDisclosureName: name,
          institutionDisclosureStatus: st,
        })),
      },
    });
  test('a create with status false, and a rename of a true one to false, each read back', () => {
    const f = institutionDisclosureCoverage([
      listed(1, [['d-1', 'Terms', true]]),
      entry(2, 'createInstitutionDisclosure', {
        body: { institutionDisclosureName: 'New', institutionDisclosureStatus: false },
        json: { institutionDisclosureId: 'd-2' },
      }),
      entry(3, 'changeInstitutionDisclosure', {
        pathParams: { institutionDisclosureId: 'd-1' },
        body: { institutionDisclosureName: 'Terms 2', institutionDisclosureStatus: false },
      }),
      listed(4, [
        ['d-1', 'Terms 2', false],
        ['d-2', 'New', false],
      ]),
    ]);
    expect(status(f, 'new × create status false')?.status).toBe('read back');
    expect(status(f, 'status true × change to false, renamed')?.status).toBe('read back');
    expect(status(f, 'status false × change to true, same name')?.status).toBe('not taken');
  });
});

describe('contact data: read back by the next update naming an oldPhoneNumber', () => {
  const log = (...entries: Logged[]): Seen[] => entries.map((l) => ({ ...l, keepsAuthorization: true }));
  test('a confirmation, a change, an e-mail alone: each read back by the next update that names the old number', () => {
    const f = contactInfoCoverage(
      log(
        update(1, 204, phone('5550100', '5550100')),
        update(2, 204, phone('5550100', '5550100')),
        update(3, 204, phone('5550100', '5550177')),
        update(4, 204, email),
        update(5, 204, phone('5550177', '5550177')),
      ),
    );
    // The first update shows the number: before it the log knows none, so it takes no transition.
    expect(status(f, 'number as found × the number on record as old and new')).toMatchObject({ write: 2, readBack: 3 });
    // The e-mail update came between the change and the next read: the read shows the later write.
    expect(status(f, 'number as found × phone alone')).toMatchObject({ status: 'taken', write: 3 });
    expect(status(f, 'number changed × e-mail alone')).toMatchObject({ status: 'read back', write: 4, readBack: 5 });
  });

  test('a stale oldPhoneNumber refused is taken; the next update naming the number read it back', () => {
    const f = contactInfoCoverage(
      log(
        update(1, 204, phone('5550100', '5550100')),
        update(2, 409, phone('5550999', '5550111')),
        update(3, 204, phone('5550100', '5550100')),
      ),
    );
    expect(status(f, 'number as found × a stale oldPhoneNumber (refused)')).toMatchObject({ readBack: 3 });
  });
});

describe('the figure', () => {
  test('counts the families the log wrote, names the writes never read back, and merges per file', () => {
    const a = stateCoverage([list(1, []), create(2, 'E-Sign', 'ACCEPTED'), list(3, [['E-Sign', 'ACCEPTED']])]);
    expect(stateCoverageLine(a)).toBe(
      'state coverage: 1 of 24 transitions taken and read back (acceptance records 1/24)',
    );
    const b = stateCoverage([list(1, [['E-Sign', 'ACCEPTED']]), del(2, 'E-Sign')]);
    expect(stateCoverageLine(b)).toMatch(/0 of 24 .*; 1 taken and never read back$/);
    const both = mergeStateCoverage([a, b])!;
    expect(stateCoverageLine(both)).toBe(
      'state coverage: 1 of 24 transitions taken and read back (acceptance records 1/24); 1 taken and never read back',
    );
    expect(stateCoverageLine(stateCoverage([]))).toBe('');
  });
});

describe('the reports', () => {
  test('the HTML section and the summary carry the line; the section lists the transitions not read back', () => {
    const states = stateCoverage([list(1, [['E-Sign', 'ACCEPTED']]), del(2, 'E-Sign')]);
    const report = { ...contractCoverage([], buildCoverageModel({ only: ['listUserDisclosures'] })), states };
    const html = contractCoverageSection(report);
    expect(html).toContain('State coverage: 0 of 24 transitions taken and read back');
    expect(html).toMatch(/ACCEPTED × delete \(collection\)<\/td><td[^>]*>taken<\/td><td[^>]*>2<\/td>/);
    const md = contractFigureMarkdown(contractFigure(report, 'contract coverage: …')).join('\n');
    expect(md).toContain('State coverage: 0 of 24 transitions taken and read back');
    const none = contractCoverageSection({ ...report, states: stateCoverage([]) });
    expect(none).not.toContain('State coverage');
  });
});
