import { describe, expect, test } from 'vitest';
import type { CheckVerdict } from '../harness/checks';
import type { Seen } from '../harness/log/entry';
import { judgeLog } from '../harness/rules/judge';
import { windowOf } from '../harness/rules/window';
import { parseHar } from '../harness/traffic/har';
import { seenOf } from '../harness/traffic/judge';
import { judgeHar } from '../harness/traffic/run';

/**
 * A case's state rules judge the run's log over the window its exchanges span (harness/rules/window.ts), not a
 * slice the case cut: other cases' exchanges meanwhile are in it where they touch the state the case's exchanges
 * touch, and the verdicts the case keeps are those on its own exchanges, else those the rules gave over the window
 * (harness/rules/judge.ts, `drove`).
 */

const API = 'https://bank.example/api/db-disclosures/v1/institution-user-disclosures';
const TRANSFERS = 'https://bank.example/api/db-transfers/v1/transfers';

interface Step {
  method: string;
  url: string;
  status: number;
  at: number;
  headers?: Record<string, string>;
  body?: unknown;
  answer?: unknown;
}

const create = (at: number, name: string): Step => ({
  method: 'POST',
  url: API,
  status: 204,
  at,
  headers: {
    institutionuserdisclosurestatus: 'ACCEPTED',
    institutiondisclosurename: name,
    accountid: 'a-1',
    institutiondisclosureid: 'd-1',
    'content-type': 'application/json',
  },
  body: { institutionUserDisclosureStatus: 'ACCEPTED', institutionDisclosureName: name },
});
const list = (at: number, names: string[], user = 'u-1'): Step => ({
  method: 'GET',
  url: `${API}?InstitutionConsumerId=${user}`,
  status: 200,
  at,
  answer: {
    institutionUserDisclosures: names.map((n) => ({
      institutionId: '77',
      institutionUserId: user,
      institutionUserDisclosureStatus: 'ACCEPTED',
      institutionDisclosureName: n,
    })),
  },
});
const transfer = (at: number): Step => ({ method: 'POST', url: TRANSFERS, status: 400, at, answer: {} });

/** The steps as the rules read them, in order (each lasts 10 ms from its `at`). */
async function seen(steps: Step[]): Promise<Seen[]> {
  const t0 = Date.parse('2026-11-20T10:00:00.000Z');
  const entries = steps.map((s) => ({
    startedDateTime: new Date(t0 + s.at).toISOString(),
    time: 10,
    request: {
      method: s.method,
      url: s.url,
      headers: Object.entries({
        authorization: 'Bearer token-of-user-one-0001',
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
  const har = parseHar(JSON.stringify({ log: { version: '1.2', entries } }));
  const j = await judgeHar(har, undefined, { file: 'steps.har', strict: false, specUrl: 'spec.md' });
  return seenOf(j.mapped, j.redactor, () => true);
}

/** What judgeLog keeps for a case that drove `own` (positions in `log`), on `requirement`. */
function kept(log: Seen[], own: number[], requirement: string) {
  const verdicts: CheckVerdict[] = [];
  const window = windowOf(
    log,
    own.map((i) => log[i]!),
  );
  const j = judgeLog(
    window.log,
    { verify: (_r, v) => (verdicts.push(v), v.outcome !== 'failed') },
    [requirement],
    {},
    window.drove,
  );
  return { window, verdicts, ...j };
}

const positions = (log: Seen[], window: Seen[]) => window.map((s) => log.findIndex((l) => l.x.index === s.x.index));

describe("a case's window of the run's log", () => {
  test('holds the entries that overlap it and touch the state its exchanges touch, and no others', async () => {
    const log = await seen([
      list(0, []), // 0: the case's list before
      create(20, 'E-Sign'), // 1: the case's create
      create(25, 'Privacy'), // 2: another case's write meanwhile: in
      list(30, ['E-Sign'], 'u-2'), // 3: another user's list meanwhile: out (it shows nothing of u-1's records)
      transfer(35), // 4: a transfer meanwhile: out (no state rule reads it)
      list(40, ['E-Sign', 'Privacy']), // 5: the case's list after
      create(200, 'Terms'), // 6: after the window: out
    ]);
    const { window } = kept(log, [0, 1, 5], 'STATE-UD-CREATE');
    expect(positions(log, window.log)).toEqual([0, 1, 2, 5]);
    expect([...window.drove].sort()).toEqual([0, 1, 5].map((i) => log[i]!.x.index).sort());
  });

  test("keeps the verdict on the case's own read", async () => {
    const log = await seen([list(0, []), create(20, 'E-Sign'), list(40, ['E-Sign']), list(60, ['E-Sign'])]);
    const { verdicts, judged } = kept(log, [0, 1, 2], 'STATE-UD-CREATE');
    expect(judged.has('STATE-UD-CREATE')).toBe(true);
    expect(verdicts.length).toBeGreaterThan(0);
    expect(verdicts.every((v) => v.outcome === 'passed')).toBe(true);
  });

  test("where another case's read shows the case's write first, keeps what the rules said of the window", async () => {
    const log = await seen([list(0, []), create(20, 'E-Sign'), list(40, []), list(60, ['E-Sign'])]);
    // Position 2 is another case's list, the first read after the create: it misses the record.
    const { verdicts, window } = kept(log, [0, 1, 3], 'STATE-UD-CREATE');
    expect(positions(log, window.log)).toEqual([0, 1, 2, 3]);
    expect(verdicts.map((v) => v.outcome)).toContain('failed');
  });

  test("counts no failure of another requirement on another case's exchange", async () => {
    const log = await seen([list(0, []), create(20, 'E-Sign'), list(40, []), list(60, ['E-Sign'])]);
    const { window, failedElsewhere } = kept(log, [0, 1, 3], 'STATE-UD-DELETE');
    expect(failedElsewhere).toEqual([]);
    // The same window judged as a whole (no case to say what it drove): the failure on position 2 counts.
    const whole = judgeLog(window.log, { verify: (_r, v) => v.outcome !== 'failed' }, ['STATE-UD-DELETE']);
    expect(whole.failedElsewhere).toContain('STATE-UD-CREATE');
  });
});
