import { describe, expect, test } from 'vitest';
import { InstitutionDisclosureState } from '../harness/state/institution-disclosures';
import { entry } from './_state-entries';

/** The institution disclosures as a log shows them (harness/state/institution-disclosures.ts): log in, queries out. */

const disclosure = (id: string, name: string, status: boolean, institutionId = 'I1') => ({
  institutionDisclosureId: id,
  institutionDisclosureName: name,
  institutionDisclosureStatus: status,
  institutionId,
});
const list = (i: number, ...items: unknown[]) =>
  entry(i, 'listInstitutionDisclosures', { json: { institutionDisclosures: items }, label: 'A' });
const change = (i: number, id: string, status = 200, body: object = { institutionDisclosureStatus: false }) =>
  entry(i, 'changeInstitutionDisclosure', { status, body, pathParams: { institutionDisclosureId: id } });

describe('the fold of the institution disclosures (harness/state/institution-disclosures.ts)', () => {
  test('a list says which disclosures there are, their name and status, and which list showed them', () => {
    const s = new InstitutionDisclosureState().add(list(1, disclosure('d1', 'Privacy', true)));
    expect(s.record('d1')).toEqual({ id: 'd1', name: 'Privacy', status: true });
    expect(s.idOf('Privacy')).toBe('d1');
    expect(s.listedBy('d1')).toEqual({ by: 1, label: 'A' });
    expect([s.listsSeen(), [...s.issuedIds()]]).toEqual([1, ['d1']]);
  });

  test('a 2xx change is a move the next list settles; a refusal changes nothing', () => {
    const s = new InstitutionDisclosureState().add(list(1, disclosure('d1', 'Privacy', true)));
    s.add(change(2, 'd1', 400));
    expect([s.record('d1')?.status, s.moves()]).toEqual([true, []]);
    s.add(change(3, 'd1'));
    expect(s.moves()).toEqual([{ kind: 'change', by: 3, id: 'd1', status: false }]);
    expect([s.record('d1'), s.listedBy('d1')]).toEqual([undefined, undefined]);
    const settled = s.list(list(4, disclosure('d1', 'Privacy', false)));
    expect(settled.map((m) => m.by)).toEqual([3]);
    expect([s.moves(), s.record('d1')?.status]).toEqual([[], false]);
  });

  test('a change whose outcome is unknown forgets the disclosure until a list shows it', () => {
    const s = new InstitutionDisclosureState().add(list(1, disclosure('d1', 'Privacy', true)));
    expect(s.write(change(2, 'd1', 502))).toBe('unknown');
    expect([s.record('d1'), s.listedBy('d1'), s.moves()]).toEqual([undefined, undefined, []]);
  });

  test('a create is a move by the id answered; only a list of its institution settles it; busy ones wait', () => {
    const s = new InstitutionDisclosureState();
    const body = { institutionDisclosureName: 'New', institutionDisclosureStatus: true, institutionId: 'I2' };
    s.add(entry(1, 'createInstitutionDisclosure', { status: 201, body, json: { institutionDisclosureId: 'd9' } }));
    expect([...s.issuedIds()]).toEqual(['d9']);
    expect(s.list(list(2, disclosure('d1', 'Privacy', true)))).toEqual([]);
    expect(s.list(list(3, disclosure('d9', 'New', true, 'I2')), (key) => key === 'd9')).toEqual([]);
    expect(s.list(list(4, disclosure('d9', 'New', true, 'I2')))).toMatchObject([{ kind: 'create', id: 'd9' }]);
  });
});
