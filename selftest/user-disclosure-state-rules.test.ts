import { describe, expect, test } from 'vitest';
import { parseHar } from '../harness/traffic/har';
import { judgeHar, type HarJudgement } from '../harness/traffic/run';

/**
 * The state rules of the users' acceptance records (harness/rules/sequence-rules.ts) that the active
 * drivers now judge through too (suites/disclosures/_record-lifecycle.ts, list-user-disclosures.ts):
 * "acts on no other record" where writes of several kinds ran between two lists, and a list asked for
 * another consumer (OP4-OTHER-CONSUMER).
 */

const API = 'https://bank.example/api/db-disclosures/v1/institution-user-disclosures';
const COMMON = {
  authorization: 'Bearer token-of-user-one-0001',
  transactionid: '7c6f2a52-4d0b-4c1e-9d55-0c2f6f3b8a11',
  callingappid: 'app',
};

interface Step {
  method: string;
  url: string;
  status: number;
  at: number;
  headers?: Record<string, string>;
  body?: unknown;
  answer?: unknown;
}

const answered = (s: Step) => (s.answer === undefined ? {} : { text: JSON.stringify(s.answer) });

function har(steps: Step[]) {
  const t0 = Date.parse('2026-11-20T10:00:00.000Z');
  const entries = steps.map((s) => ({
    startedDateTime: new Date(t0 + s.at).toISOString(),
    time: 10,
    request: {
      method: s.method,
      url: s.url,
      headers: Object.entries({ ...COMMON, ...s.headers }).map(([name, value]) => ({ name, value })),
      ...(s.body !== undefined ? { postData: { mimeType: 'application/json', text: JSON.stringify(s.body) } } : {}),
    },
    response: { status: s.status, headers: [], content: answered(s) },
  }));
  return parseHar(JSON.stringify({ log: { version: '1.2', entries } }));
}

const OPTIONS = { file: 'steps.har', strict: true, specUrl: 'spec.md' };
const judge = (steps: Step[]) => judgeHar(har(steps), undefined, OPTIONS);
const verdicts = (j: HarJudgement, id: string) =>
  j.cases.flatMap((c) => c.checks.filter((k) => k.requirement === id).map((k) => k.outcome));

type Rec = [name: string, status: string, user?: string, id?: string];
const record =
  (user: string) =>
  ([name, status, u, id]: Rec) => ({
    institutionId: '77',
    institutionUserId: u ?? user,
    institutionUserDisclosureStatus: status,
    institutionDisclosureName: name,
    ...(id ? { institutionUserDisclosureId: id } : {}),
  });
const list = (at: number, records: Rec[], user = 'u-1', status = 200): Step => ({
  method: 'GET',
  url: `${API}?InstitutionConsumerId=${user}`,
  status,
  at,
  answer: status === 200 ? { institutionUserDisclosures: records.map(record(user)) } : { code: 'E403', message: 'no' },
});
const change = (at: number, name: string, status: string): Step => ({
  method: 'PUT',
  url: API,
  status: 204,
  at,
  headers: {
    institutionuserdisclosurestatus: status,
    institutiondisclosurename: name,
    accountid: 'a-1',
    'content-type': 'application/json',
  },
  body: { institutionDisclosureName: name, institutionDisclosureStatus: status, accountId: 'a-1' },
});
const remove = (at: number, name: string): Step => ({
  method: 'DELETE',
  url: API,
  status: 204,
  at,
  headers: { institutionuserdisclosurestatus: 'ACCEPTED', accountid: 'a-1', 'content-type': 'application/json' },
  body: { institutionDisclosureName: name, accountId: 'a-1' },
});

const ACCEPTED = 'ACCEPTED';
const DECLINED = 'NOT_ACCEPTED';

describe('acts on no other record (STATE-UD-CHANGE-ONLY-NAMED, STATE-UD-DELETE-ONLY-NAMED)', () => {
  const before = list(0, [
    ['A', ACCEPTED],
    ['B', ACCEPTED],
    ['C', ACCEPTED],
    ['Old', ACCEPTED],
  ]);

  test('one kind of write, another record moved: broken', async () => {
    const after = list(200, [
      ['A', DECLINED],
      ['B', DECLINED],
      ['C', ACCEPTED],
      ['Old', ACCEPTED],
    ]);
    const j = await judge([before, change(100, 'A', DECLINED), after]);
    expect(verdicts(j, 'STATE-UD-CHANGE-ONLY-NAMED')).toEqual(['failed']);
  });

  test('a change and a delete of other records between the lists, the rest as they were: both proved', async () => {
    const after = list(200, [
      ['A', DECLINED],
      ['B', ACCEPTED],
      ['Old', ACCEPTED],
    ]);
    const j = await judge([before, change(100, 'A', DECLINED), remove(150, 'C'), after]);
    expect(verdicts(j, 'STATE-UD-CHANGE-ONLY-NAMED')).toEqual(['passed']);
    expect(verdicts(j, 'STATE-UD-DELETE-ONLY-NAMED')).toEqual(['passed']);
    expect(verdicts(j, 'STATE-UD-DELETE')).toEqual(['passed']);
  });

  test('a change and a delete, another record moved: no write can be told to be the cause, no verdict', async () => {
    const after = list(200, [
      ['A', DECLINED],
      ['B', DECLINED],
      ['Old', ACCEPTED],
    ]);
    const j = await judge([before, change(100, 'A', DECLINED), remove(150, 'C'), after]);
    expect(verdicts(j, 'STATE-UD-CHANGE-ONLY-NAMED')).toEqual([]);
    expect(verdicts(j, 'STATE-UD-DELETE-ONLY-NAMED')).toEqual([]);
  });
});

describe('a list asked for another consumer (OP4-OTHER-CONSUMER)', () => {
  const mine = list(0, [['A', ACCEPTED, 'u-1', 'r-1']]);
  const other = async (steps: Step[]) => verdicts(await judge(steps), 'OP4-OTHER-CONSUMER');

  test("shows none of the records an earlier list showed are the first user's: proved", async () => {
    expect(await other([mine, list(100, [['B', ACCEPTED, 'u-2', 'r-2']], 'u-2')])).toEqual(['passed']);
  });

  test('shows one of them (by its user, or by its id under another user): broken', async () => {
    expect(await other([mine, list(100, [['A', ACCEPTED, 'u-1', 'r-1']], 'u-2')])).toEqual(['failed']);
    expect(await other([mine, list(100, [['A', ACCEPTED, 'u-2', 'r-1']], 'u-2')])).toEqual(['failed']);
  });

  test('refused with credentials: shows none; with no list of another user before it: no verdict', async () => {
    expect(await other([mine, list(100, [], 'u-2', 403)])).toEqual(['passed']);
    expect(await other([list(100, [['A', ACCEPTED, 'u-1', 'r-1']], 'u-2')])).toEqual([]);
  });
});
