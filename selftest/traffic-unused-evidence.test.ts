import { describe, expect, test } from 'vitest';
import { parseHar } from '../harness/traffic/har';
import { judgeHar, type HarJudgement } from '../harness/traffic/run';

/**
 * Evidence a capture holds that the judge used to leave aside: a list of user disclosures holding
 * two users' records (whoever the request asked for), and a 404 on a record a list of the same user
 * showed moments before, with no write to it in between (the operation is not served at its path).
 */

const API = 'https://bank.example/api/db-disclosures/v1';
const TOKEN = 'Bearer token-of-user-one-0001';

interface Step {
  method: string;
  path: string;
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  answer?: unknown;
}

function judge(steps: Step[]): Promise<HarJudgement> {
  const t0 = Date.parse('2026-11-20T10:00:00.000Z');
  const entries = steps.map((s, k) => ({
    startedDateTime: new Date(t0 + k * 100).toISOString(),
    time: 10,
    request: {
      method: s.method,
      url: `${API}${s.path}`,
      headers: Object.entries({ authorization: TOKEN, transactionid: 'tx-1', callingappid: 'app', ...s.headers }).map(
        ([name, value]) => ({ name, value }),
      ),
      ...(s.body !== undefined ? { postData: { mimeType: 'application/json', text: JSON.stringify(s.body) } } : {}),
    },
    response: {
      status: s.status,
      headers: [],
      content: s.answer === undefined ? {} : { text: JSON.stringify(s.answer) },
    },
  }));
  const har = parseHar(JSON.stringify({ log: { version: '1.2', entries } }));
  return judgeHar(har, undefined, { file: 'steps.har', strict: false, specUrl: 's' });
}
const broken = (j: HarJudgement) => [
  ...new Set(
    j.cases
      .flatMap((c) => c.checks)
      .filter((k) => k.outcome === 'failed' && k.grade === 'MUST')
      .map((k) => k.requirement),
  ),
];
const checked = (j: HarJudgement, id: string) => j.cases.some((c) => c.checks.some((k) => k.requirement === id));

const record = (user: string, name: string, id: string) => ({
  institutionId: '77',
  institutionUserId: user,
  institutionUserDisclosureStatus: 'ACCEPTED',
  institutionDisclosureName: name,
  institutionUserDisclosureId: id,
  institutionDisclosureId: 'd-1',
  accountId: 'a-1',
});
const listUsers = (query: string, records: object[]): Step => ({
  method: 'GET',
  path: `/institution-user-disclosures${query}`,
  status: 200,
  answer: { institutionUserDisclosures: records },
});
const list = (records: object[]) => listUsers('?InstitutionConsumerId=u-1', records);
const changeById = (id: string, status: number): Step => ({
  method: 'PUT',
  path: `/institution-user-disclosures/${id}`,
  status,
  headers: {
    institutionuserdisclosurestatus: 'NOT_ACCEPTED',
    institutiondisclosurename: 'E-Sign',
    'content-type': 'application/json',
  },
  body: {
    institutionDisclosureId: 'd-1',
    institutionDisclosureName: 'E-Sign',
    institutionDisclosureStatus: 'NOT_ACCEPTED',
  },
});
const deleteById = (id: string, status: number): Step => ({
  method: 'DELETE',
  path: `/institution-user-disclosures/${id}`,
  status,
  headers: { institutionuserdisclosurestatus: 'ACCEPTED', accountid: 'a-1', 'content-type': 'application/json' },
  body: { institutionDisclosureName: 'E-Sign', accountId: 'a-1' },
});

describe("a list of user disclosures is one user's", () => {
  test("two users' records break OP4-ONLY-THE-USERS-RECORDS even when the request names no user", async () => {
    const two = [record('u-1', 'E-Sign', 'r-1'), record('u-1', 'Privacy', 'r-2'), record('u-2', 'E-Sign', 'r-3')];
    const j = await judge([listUsers('', two)]);
    expect(broken(j)).toEqual(['OP4-ONLY-THE-USERS-RECORDS']);
    const received = j.cases[0]!.checks.filter((k) => k.outcome === 'failed').map((k) => k.received);
    expect(received).toEqual([expect.stringMatching(/u-2/)]);
    // Named by a header the app sends instead of the query: that user.
    const byHeader = await judge([{ ...listUsers('', two), headers: { institutionuserid: 'u-2' } }]);
    expect(broken(byHeader)).toEqual(['OP4-ONLY-THE-USERS-RECORDS']);
    // One user's records, named or not: nothing broken.
    expect(broken(await judge([listUsers('', two.slice(0, 2))]))).toEqual([]);
    const named = await judge([list(two.slice(0, 2))]);
    expect(broken(named)).toEqual([]);
    expect(checked(named, 'OP4-ONLY-THE-USERS-RECORDS')).toBe(true);
  });
});

describe('a 404 on a record a list showed moments before', () => {
  test('breaks the request rule of the /{id} forms, as an active case judges it', async () => {
    const shown = list([record('u-1', 'E-Sign', 'r-1')]);
    expect(broken(await judge([shown, changeById('r-1', 404)]))).toEqual(['OP6-REQUEST-BY-ID']);
    expect(broken(await judge([shown, deleteById('r-1', 404)]))).toEqual(['OP7-REQUEST-BY-ID']);
  });

  test('and of the change of an institution disclosure', async () => {
    const listed: Step = {
      method: 'GET',
      path: '/institution-disclosures',
      status: 200,
      answer: {
        institutionDisclosures: [
          { institutionDisclosureId: 'd-1', institutionId: '77', institutionDisclosureName: 'E-Sign' },
        ],
      },
    };
    const change: Step = {
      method: 'PUT',
      path: '/institution-disclosures/d-1',
      status: 404,
      headers: { institutionid: '77', institutiondisclosurename: 'E-Sign v2', institutiondisclosurestatus: 'true' },
      body: {
        institutionDisclosureId: 'd-1',
        institutionId: '77',
        institutionDisclosureName: 'E-Sign v2',
        institutionDisclosureStatus: true,
      },
    };
    expect(broken(await judge([listed, change]))).toEqual(['OP3-REQUEST']);
    expect(broken(await judge([change]))).toEqual([]);
  });

  test('proves nothing where the record may be gone: never listed, deleted since, another token', async () => {
    const shown = list([record('u-1', 'E-Sign', 'r-1')]);
    expect(broken(await judge([changeById('r-1', 404)]))).toEqual([]);
    expect(broken(await judge([shown, deleteById('r-1', 204), changeById('r-1', 404)]))).toEqual([]);
    expect(broken(await judge([shown, deleteById('r-1', 500), changeById('r-1', 404)]))).toEqual([]);
    expect(broken(await judge([shown, list([]), changeById('r-1', 404)]))).toEqual([]);
    const change = changeById('r-1', 404);
    const otherToken = { ...change, headers: { ...change.headers, authorization: 'Bearer token-2-0002' } };
    expect(broken(await judge([shown, otherToken]))).toEqual([]);
  });
});
