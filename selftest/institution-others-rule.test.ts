import { describe, expect, test } from 'vitest';
import { parseHar } from '../harness/traffic/har';
import { judgeHar, type HarJudgement } from '../harness/traffic/run';

/**
 * STATE-ID-CHANGE-ONLY-NAMED (harness/rules/institution-others.ts): a change of an institution disclosure moves the
 * disclosure its path names and no other, judged on the lists before and after it, from a capture.
 */

const API = 'https://bank.example/api/db-disclosures/v1/institution-disclosures';
const HEADERS = {
  authorization: 'Bearer token-of-the-fi-0001',
  transactionid: '7c6f2a52-4d0b-4c1e-9d55-0c2f6f3b8a11',
  callingappid: 'app',
};
const RULE = 'STATE-ID-CHANGE-ONLY-NAMED';

interface Step {
  method: string;
  url: string;
  status: number;
  at: number;
  headers?: Record<string, string>;
  body?: unknown;
  answer?: unknown;
}

function har(steps: Step[]) {
  const t0 = Date.parse('2026-11-20T10:00:00.000Z');
  const entries = steps.map((s) => ({
    startedDateTime: new Date(t0 + s.at).toISOString(),
    time: 10,
    request: {
      method: s.method,
      url: s.url,
      headers: Object.entries({ ...HEADERS, ...s.headers }).map(([name, value]) => ({ name, value })),
      ...(s.body !== undefined ? { postData: { mimeType: 'application/json', text: JSON.stringify(s.body) } } : {}),
    },
    response: {
      status: s.status,
      headers: [{ name: 'content-type', value: 'application/json' }],
      content: s.answer === undefined ? {} : { text: JSON.stringify(s.answer) },
    },
  }));
  return parseHar(JSON.stringify({ log: { version: '1.2', entries } }));
}

const judge = (steps: Step[]) => judgeHar(har(steps), undefined, { file: 'steps.har', strict: true, specUrl: 's.md' });
const verdicts = (j: HarJudgement) =>
  j.cases.flatMap((c) => c.checks.filter((k) => k.requirement === RULE).map((k) => k.outcome));

type D = [id: string, name: string, status: boolean];
const element = ([id, name, status]: D) => ({
  institutionDisclosureId: id,
  institutionId: '77',
  institutionDisclosureName: name,
  institutionDisclosureData: `https://fi.example/${id}.pdf`,
  institutionDisclosureDataType: 'URL',
  institutionDisclosureStatus: status,
});
const list = (at: number, ds: D[]): Step => ({
  method: 'GET',
  url: API,
  status: 200,
  at,
  answer: { institutionDisclosures: ds.map(element) },
});
const change = (at: number, [id, name, status]: D, answered = 200): Step => {
  const values = { institutionId: '77', institutionDisclosureName: name, institutionDisclosureStatus: status };
  return {
    method: 'PUT',
    url: `${API}/${id}`,
    status: answered,
    at,
    headers: {
      'content-type': 'application/json',
      institutionid: '77',
      institutiondisclosurename: name,
      institutiondisclosurestatus: String(status),
    },
    body: { institutionDisclosureId: id, ...values },
    answer: answered === 200 ? { ...element([id, name, status]), institutionDisclosureStatus: undefined } : undefined,
  };
};
const create = (at: number, [id, name, status]: D): Step => ({
  method: 'POST',
  url: API,
  status: 201,
  at,
  headers: {
    'content-type': 'application/json',
    institutionid: '77',
    institutiondisclosurename: name,
    institutiondisclosurestatus: String(status),
  },
  body: { institutionId: '77', institutionDisclosureName: name, institutionDisclosureStatus: status },
  answer: { institutionDisclosureId: id, institutionDisclosureName: name },
});

const A: D = ['d-1', 'E-Sign Agreement', true];
const B: D = ['d-10', 'Privacy Notice', true];
const C: D = ['d-2', 'Fee Schedule', false];

describe('a change of an institution disclosure moves no other (STATE-ID-CHANGE-ONLY-NAMED)', () => {
  test('the others listed as they were: proved', async () => {
    const j = await judge([
      list(0, [A, B, C]),
      change(100, ['d-1', 'New', false]),
      list(200, [['d-1', 'New', false], B, C]),
    ]);
    expect(verdicts(j)).toEqual(['passed']);
  });

  test('a disclosure whose id the changed one begins with renamed too: broken', async () => {
    const after = list(200, [['d-1', 'New', false], ['d-10', 'New', false], C]);
    const j = await judge([list(0, [A, B, C]), change(100, ['d-1', 'New', false]), after]);
    expect(verdicts(j)).toEqual(['failed']);
  });

  test('a change by an id no disclosure has moves a listed one: broken', async () => {
    const after = list(200, [['d-1', 'E-Sign Agreement', false], B, C]);
    const j = await judge([list(0, [A, B, C]), change(100, ['d-1x', 'E-Sign Agreement', false]), after]);
    expect(verdicts(j)).toEqual(['failed']);
  });

  test('two changes between the lists: each disclosure a write names is left to STATE-ID-CHANGE', async () => {
    const after = list(200, [['d-1', 'New', false], ['d-10', 'Other', false], C]);
    const j = await judge([
      list(0, [A, B, C]),
      change(100, ['d-1', 'New', false]),
      change(150, ['d-10', 'Other', false]),
      after,
    ]);
    expect(verdicts(j)).toEqual(['passed']);
  });

  test('a refused change, or no change, between the lists: no verdict', async () => {
    const refused = await judge([list(0, [A, B]), change(100, ['d-1', 'New', false], 401), list(200, [A, B])]);
    expect(verdicts(refused)).toEqual([]);
    const none = await judge([list(0, [A, B]), list(200, [A, B])]);
    expect(verdicts(none)).toEqual([]);
  });

  test("a create between the lists answered a new id: another disclosure moved is still the change's", async () => {
    const after = list(200, [['d-1', 'New', false], ['d-10', 'New', false], C, ['d-3', 'Made', true]]);
    const steps = [list(0, [A, B, C]), change(100, ['d-1', 'New', false]), create(150, ['d-3', 'Made', true]), after];
    expect(verdicts(await judge(steps))).toEqual(['failed']);
  });

  test('a create between the lists answered the id of the one that moved: no verdict on it', async () => {
    const after = list(200, [['d-1', 'New', false], ['d-10', 'Made', true], C]);
    const steps = [list(0, [A, B, C]), change(100, ['d-1', 'New', false]), create(150, ['d-10', 'Made', true]), after];
    expect(verdicts(await judge(steps))).toEqual(['passed']);
  });

  test('a list that leaves a disclosure out, or gives no status: what it does not show is not judged', async () => {
    const after = list(200, [['d-1', 'New', false], C]);
    const j = await judge([list(0, [A, B, C]), change(100, ['d-1', 'New', false]), after]);
    expect(verdicts(j)).toEqual(['passed']);
  });
});
