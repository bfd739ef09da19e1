import { describe, expect, test } from 'vitest';
import { parseHar } from '../harness/traffic/har';
import { judgeHar, type HarJudgement } from '../harness/traffic/run';

/**
 * The state rules across a capture's sequence: only what the traffic proves counts. A refused write
 * changes nothing, a write with an unknown outcome makes the record's state unknown until a later
 * list shows it, a list that overlaps a write on the same record proves nothing about it, and a
 * write whose user cannot be told is never held against anyone.
 */

const API = 'https://bank.example/api/db-disclosures/v1/institution-user-disclosures';
const CONTACT = 'https://bank.example/api/customers/c-9:contact-info';
const TOKEN_A = 'Bearer token-of-user-one-0001';
const TOKEN_B = 'Bearer token-of-user-two-0002';

interface Step {
  method: string;
  url: string;
  status: number;
  /** Start and duration in ms from the capture's start. */
  at: number;
  time?: number;
  /** As written in the capture, instead of `at` (e.g. with microseconds). */
  startedDateTime?: string;
  auth?: string;
  headers?: Record<string, string>;
  body?: unknown;
  answer?: unknown;
}

function har(steps: Step[]) {
  const t0 = Date.parse('2026-11-20T10:00:00.000Z');
  const entries = steps.map((s) => ({
    startedDateTime: s.startedDateTime ?? new Date(t0 + s.at).toISOString(),
    time: s.time ?? 10,
    request: {
      method: s.method,
      url: s.url,
      headers: Object.entries({
        authorization: s.auth ?? TOKEN_A,
        transactionid: '7c6f2a52-4d0b-4c1e-9d55-0c2f6f3b8a11',
        callingappid: 'app',
        ...s.headers,
      }).map(([name, value]) => ({ name, value })),
      ...(s.body !== undefined ? { postData: { mimeType: 'application/json', text: JSON.stringify(s.body) } } : {}),
    },
    response: {
      status: s.status,
      headers: [],
      content: s.answer === undefined ? {} : { text: JSON.stringify(s.answer) },
    },
  }));
  return parseHar(JSON.stringify({ log: { version: '1.2', entries } }));
}

const judge = (steps: Step[]) =>
  judgeHar(har(steps), undefined, { file: 'steps.har', strict: false, specUrl: 'spec.md' });
const broken = (j: HarJudgement) => [
  ...new Set(
    j.cases.flatMap((c) =>
      c.checks.filter((k) => k.outcome === 'failed' && k.grade === 'MUST').map((k) => k.requirement),
    ),
  ),
];
const proved = (j: HarJudgement, id: string) =>
  j.cases.some((c) => c.checks.some((k) => k.requirement === id && k.outcome === 'passed'));

const create = (at: number, status: number, name = 'E-Sign', auth?: string): Step => ({
  method: 'POST',
  url: API,
  status,
  at,
  auth,
  headers: {
    institutionuserdisclosurestatus: 'ACCEPTED',
    institutiondisclosurename: name,
    accountid: 'a-1',
    institutiondisclosureid: 'd-1',
    'content-type': 'application/json',
  },
  body: { institutionUserDisclosureStatus: 'ACCEPTED', institutionDisclosureName: name },
});
const remove = (at: number, status: number, name = 'E-Sign'): Step => ({
  method: 'DELETE',
  url: API,
  status,
  at,
  headers: { institutionuserdisclosurestatus: 'ACCEPTED', accountid: 'a-1', 'content-type': 'application/json' },
  body: { institutionDisclosureName: name, accountId: 'a-1' },
});
const list = (at: number, names: string[], user = 'u-1', o: { time?: number; auth?: string } = {}): Step => ({
  method: 'GET',
  url: `${API}?InstitutionConsumerId=${user}`,
  status: 200,
  at,
  time: o.time,
  auth: o.auth,
  answer: {
    institutionUserDisclosures: names.map((n) => ({
      institutionId: '77',
      institutionUserId: user,
      institutionUserDisclosureStatus: 'ACCEPTED',
      institutionDisclosureName: n,
    })),
  },
});
const INSTITUTION = 'https://bank.example/api/db-disclosures/v1/institution-disclosures';
const changeDisclosure = (at: number, name: string): Step => ({
  method: 'PUT',
  url: `${INSTITUTION}/d-1`,
  status: 200,
  at,
  headers: {
    institutionid: '77',
    institutiondisclosurename: name,
    institutiondisclosurestatus: 'true',
    'content-type': 'application/json',
  },
  body: {
    institutionDisclosureId: 'd-1',
    institutionId: '77',
    institutionDisclosureName: name,
    institutionDisclosureStatus: true,
  },
  answer: {
    institutionDisclosureId: 'd-1',
    institutionId: '77',
    institutionDisclosureName: name,
    institutionDisclosureData: 'https://bank.example/d.pdf',
    institutionDisclosureDataType: 'URL',
  },
});
const disclosures = (at: number, name: string): Step => ({
  method: 'GET',
  url: INSTITUTION,
  status: 200,
  at,
  answer: {
    institutionDisclosures: [
      {
        institutionDisclosureId: 'd-1',
        institutionId: '77',
        institutionDisclosureName: name,
        institutionDisclosureStatus: true,
      },
    ],
  },
});
const phone = (at: number, status: number, oldNumber: string, newNumber: string): Step => ({
  method: 'PUT',
  url: CONTACT,
  status,
  at,
  headers: { 'content-type': 'application/json' },
  body: { userIdType: 'CUSTOMER_ID', phoneNumber: { oldPhoneNumber: oldNumber, newPhoneNumber: newNumber } },
});

describe('state rules across the sequence', () => {
  test('a 2xx create the next list does not show breaks STATE-UD-CREATE; shown, it proves it', async () => {
    expect(broken(await judge([list(0, []), create(100, 204), list(200, [])]))).toEqual(['STATE-UD-CREATE']);
    const ok = await judge([list(0, []), create(100, 204), list(200, ['E-Sign'])]);
    expect(broken(ok)).toEqual([]);
    expect(proved(ok, 'STATE-UD-CREATE')).toBe(true);
  });

  test('a refused write (4xx, 429, 503) changes nothing: nothing is expected of the next list', async () => {
    for (const status of [400, 401, 429, 503])
      expect(broken(await judge([list(0, []), create(100, status), list(200, [])])), String(status)).toEqual([]);
    expect(broken(await judge([list(0, ['E-Sign']), remove(100, 403), list(200, ['E-Sign'])]))).toEqual([]);
  });

  test(
    'a write with an unknown outcome (no answer, 500) makes the ' + 'record unknown until a later list shows it',
    async () => {
      for (const status of [0, 500, 504]) {
        const j = await judge([
          list(0, []),
          create(100, 204),
          remove(150, status),
          list(200, ['E-Sign']),
          list(300, []),
        ]);
        expect(broken(j), String(status)).toEqual([]);
        expect(j.lines.find((l) => l.index === 3)!.notes.join(' ')).toMatch(/state unknown/);
      }
    },
  );

  test('a list that overlaps the write proves nothing about its record; the next one does', async () => {
    // The list starts before the create's answer ended: it may or may not show the record.
    const j = await judge([
      list(0, []),
      create(100, 204, 'E-Sign'),
      { ...list(105, [], 'u-1', { time: 50 }) },
      list(400, ['E-Sign']),
    ]);
    expect(broken(j)).toEqual([]);
    expect(
      broken(await judge([list(0, []), create(100, 204), list(105, [], 'u-1', { time: 50 }), list(400, [])])),
    ).toEqual(['STATE-UD-CREATE']);
  });

  test("a list that starts in the millisecond in which the write's answer ended follows it", async () => {
    // HAR times are rounded down to the millisecond.
    // A client that awaits each answer: the create ends at 100.6 ms, the list starts 0.1 ms later, written as 100.
    const sameMs = [list(0, []), { ...create(100, 204), time: 0.6 }, { ...list(100, [], 'u-1', { time: 0.5 }) }];
    expect(broken(await judge(sameMs))).toEqual(['STATE-UD-CREATE']);
    // Started a full millisecond before the answer ended: an overlap, nothing judged.
    expect(broken(await judge([list(0, []), { ...create(100, 204), time: 1.6 }, list(100, [])]))).toEqual([]);
    // The recorder writes microseconds: a list that started 0.2 ms before the answer ended overlaps it.
    const at = (us: string) => `2026-11-20T10:00:00.${us}Z`;
    const micro = [
      { ...list(0, []), startedDateTime: at('000000') },
      { ...create(100, 204), time: 0.6, startedDateTime: at('100000') },
      { ...list(100, []), startedDateTime: at('100400') },
    ];
    expect(broken(await judge(micro))).toEqual([]);
    micro[2]!.startedDateTime = at('100700');
    expect(broken(await judge(micro))).toEqual(['STATE-UD-CREATE']);
  });

  test("a state rule is proved only by the read that shows the state, never by the write's own answer", async () => {
    // The change answers with the new name, the following list still shows the old one: broken.
    const change = changeDisclosure(100, 'E-Sign v2');
    const notStored = await judge([disclosures(0, 'E-Sign'), change, disclosures(200, 'E-Sign')]);
    expect(broken(notStored)).toEqual(['STATE-ID-CHANGE']);
    const checksOf = (j: HarJudgement, id: string) =>
      j.cases.flatMap((c) => c.checks).filter((k) => k.requirement === id);
    expect(checksOf(notStored, 'STATE-ID-CHANGE').filter((k) => k.exchange === 2)).toEqual([]);
    // No list after the change: not observed (no check at all), however right its answer.
    const unseen = await judge([disclosures(0, 'E-Sign'), change]);
    expect(checksOf(unseen, 'STATE-ID-CHANGE')).toEqual([]);
    expect(unseen.lines.find((l) => l.index === 2)!.notes.join(' ')).toMatch(/STATE-ID-CHANGE not observed/);
    // The list shows it: proved, by the list.
    const stored = await judge([disclosures(0, 'E-Sign'), change, disclosures(200, 'E-Sign v2')]);
    expect(broken(stored)).toEqual([]);
    expect(stored.lines.find((l) => l.index === 3)!.proved).toContain('STATE-ID-CHANGE');
    expect(stored.lines.find((l) => l.index === 2)!.proved).not.toContain('STATE-ID-CHANGE');
  });

  test('a write whose user cannot be told (its credential lists two users alike) is held against no one', async () => {
    const j = await judge([
      list(0, [], 'u-1'),
      list(10, [], 'u-2'),
      create(100, 204),
      list(200, [], 'u-1'),
      list(210, [], 'u-2'),
    ]);
    expect(broken(j)).toEqual([]);
    expect(j.lines.find((l) => l.index === 3)!.notes.join(' ')).toMatch(/user cannot be told/);
  });

  test(
    'a credential is the user it lists: a write with the other ' + "token is judged by the other user's list",
    async () => {
      const j = await judge([
        list(0, [], 'u-1', { auth: TOKEN_A }),
        list(10, [], 'u-2', { auth: TOKEN_B }),
        create(100, 204, 'E-Sign', TOKEN_B),
        list(200, [], 'u-1', { auth: TOKEN_A }),
        list(210, [], 'u-2', { auth: TOKEN_B }),
      ]);
      expect(broken(j)).toEqual(['STATE-UD-CREATE']);
      expect(j.lines.find((l) => l.index === 5)!.broke).toEqual(['STATE-UD-CREATE']);
    },
  );

  test(
    'after a 2xx phone update, the previous number accepted breaks rule 1, a number never on ' +
      'record accepted breaks rule 2, the new one accepted proves rule 1',
    async () => {
      expect(broken(await judge([phone(0, 204, '5550100', '5550199'), phone(100, 204, '5550100', '5550111')]))).toEqual(
        ['OP10-RULE1-PHONE-STORED'],
      );
      expect(broken(await judge([phone(0, 204, '5550100', '5550199'), phone(100, 204, '5550123', '5550111')]))).toEqual(
        ['OP10-RULE2-OLD-PHONE-MATCH'],
      );
      const ok = await judge([
        phone(0, 204, '5550100', '5550199'),
        phone(100, 400, '5550100', '5550111'),
        phone(200, 204, '5550199', '5550100'),
      ]);
      expect(broken(ok)).toEqual([]);
      expect(proved(ok, 'OP10-RULE1-PHONE-STORED')).toBe(true);
    },
  );

  test(
    'the same number written with its country code is no mismatch; a phone ' +
      'update with an unknown outcome leaves the number unknown',
    async () => {
      expect(
        broken(await judge([phone(0, 204, '5550100', '5550199'), phone(100, 204, '+1 555 0199', '5550111')])),
      ).toEqual([]);
      expect(
        broken(
          await judge([
            phone(0, 204, '5550100', '5550199'),
            phone(100, 0, '5550199', '5550111'),
            phone(200, 204, '5550123', '5550100'),
          ]),
        ),
      ).toEqual([]);
    },
  );

  test(
    'phone updates side by side: a refused one changes nothing; an accepted one is a mismatch only if ' +
      'its oldPhoneNumber is none of the numbers that can be on record meanwhile',
    async () => {
      // Two accepted side by side (each 50 ms), neither naming the number on record nor what the other sets: both break
      // rule 2.
      const both = await judge([
        phone(0, 204, '5550100', '5550199'),
        { ...phone(100, 204, '5550123', '5550111'), time: 50 },
        { ...phone(110, 204, '5550124', '5550112'), time: 50 },
      ]);
      expect(broken(both)).toEqual(['OP10-RULE2-OLD-PHONE-MATCH']);
      expect(both.lines.filter((l) => l.broke.includes('OP10-RULE2-OLD-PHONE-MATCH')).map((l) => l.index)).toEqual([
        2, 3,
      ]);
      // One naming what the other, running meanwhile, may have set: not judged.
      expect(
        broken(
          await judge([
            phone(0, 204, '5550100', '5550199'),
            { ...phone(100, 204, '5550199', '5550111'), time: 50 },
            phone(110, 204, '5550111', '5550112'),
          ]),
        ),
      ).toEqual([]);
      // A refused update running meanwhile does not keep the other from being judged.
      expect(
        broken(
          await judge([
            phone(0, 204, '5550100', '5550199'),
            { ...phone(100, 409, '5550124', '5550112'), time: 50 },
            phone(110, 204, '5550123', '5550111'),
          ]),
        ),
      ).toEqual(['OP10-RULE2-OLD-PHONE-MATCH']);
    },
  );
});
