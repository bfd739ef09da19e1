import { describe, expect, test } from 'vitest';
import { resolveConfig, secretValues } from '../harness/config';
import { DbsiClient, type SendOptions } from '../harness/http/client';
import type { Seen } from '../harness/log/entry';
import { RUN_LOG, RunLog, type Sending } from '../harness/log/run-log';
import { Redactor } from '../harness/redact';
import { createInFlight, writesMeanwhile, writesWithoutAnswer } from '../harness/state/user-disclosure-flights';
import { closedPort } from './_closed-port';
import { configFor, startMisbehavingServer } from './_misbehaving-server';
import { entry } from './_state-entries';
import { HANG_MS, until, within } from './_within';

/**
 * The run log knows every request of the run as it leaves (harness/log/run-log.ts, in-flight.ts): in flight until its
 * answered or unanswered entry settles it, dropped where nothing was sent, kept without an entry otherwise; and the
 * queries of the writes of user records the drivers ask of it (harness/state/user-disclosure-flights.ts).
 */

/** An entry of a write, sent at `index` (ms) and answered at `end`, naming the record `name` in its body. */
function write(index: number, operation: Seen['mapped']['operation'], name: string, status = 204, end = index): Seen {
  const s = entry(index, operation, { status, body: { institutionDisclosureName: name } });
  return { ...s, x: { ...s.x, endMs: end } };
}

/** The request half of an entry: what the log holds of it while it is in flight. */
const sending = (s: Seen): Sending => ({
  x: s.x,
  mapped: s.mapped,
  ...(s.undocumentedPath ? { undocumentedPath: true } : {}),
});
const unanswered = (s: Seen): Seen => ({ ...s, x: { ...s.x, status: 0 }, res: { ...s.res, status: 0 } });
const logged = ({ keepsAuthorization: _k, ...l }: Seen) => l;

/** Whether a promise has settled, after the pending callbacks have run (no clock). */
async function isSettled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('every request of the run is in flight, answered or without an answer, in one log', () => {
  test('in flight until settled: an answered entry, an unanswered one, dropped, or kept with no entry', () => {
    const log = new RunLog();
    const [a, b, c, d] = [1, 2, 3, 4].map((i) => write(i, 'createUserDisclosure', `D${i}`));
    for (const s of [a!, b!, c!, d!]) log.sending(sending(s));
    expect(log.inFlight().map((s) => s.x.index)).toEqual([1, 2, 3, 4]);
    log.append(logged(a!));
    log.appendUnanswered(logged(unanswered(b!)));
    log.ended(3, true);
    log.ended(4, false);
    // A second end of a settled request changes nothing.
    log.ended(1, false);
    expect(log.inFlight()).toEqual([]);
    expect(log.entries().map((s) => s.x.index)).toEqual([1]);
    expect(log.requestsWithoutAnswer().map((s) => [s.x.index, s.why])).toEqual([
      [2, 'unanswered'],
      [4, 'no entry'],
    ]);
  });

  test('answered or unanswered after the log was closed: kept with no entry, never judged', () => {
    const log = new RunLog();
    const [a, b] = [1, 2].map((i) => write(i, 'deleteUserDisclosure', `D${i}`, 204, 10));
    log.sending(sending(a!));
    log.sending(sending(b!));
    expect(log.close()).toEqual([]);
    log.append(logged(a!));
    log.appendUnanswered(logged(unanswered(b!)));
    expect([log.entries(), log.withUnanswered(), log.inFlight()]).toEqual([[], [], []]);
    expect(log.requestsWithoutAnswer().map((s) => [s.x.index, s.why, s.endMs])).toEqual([
      [1, 'no entry', 10],
      [2, 'no entry', 10],
    ]);
  });
});

describe('the writes of user records the drivers ask of the log', () => {
  test('a create in flight names its record; a change, a probe, or a settled create does not', () => {
    const log = new RunLog();
    log.sending(sending(write(1, 'changeUserDisclosure', 'Esign')));
    log.sending({ ...sending(write(2, 'createUserDisclosure', 'Esign')), undocumentedPath: true });
    expect(createInFlight(log, 'Esign')).toBe(false);
    const create = write(3, 'createUserDisclosure', 'Esign');
    log.sending(sending(create));
    expect([createInFlight(log, 'Esign'), createInFlight(log, 'Terms')]).toEqual([true, false]);
    log.append(logged(create));
    expect(createInFlight(log, 'Esign')).toBe(false);
    // Header and member that differ: the create may make any record.
    const both = write(4, 'createUserDisclosure', 'Esign');
    log.sending({ ...sending(both), x: { ...both.x, requestHeaders: { InstitutionDisclosureName: 'Other' } } });
    expect(createInFlight(log, 'Terms')).toBe(true);
  });

  test('the writes meanwhile wait for those in flight, and are undefined where one has no answered entry', async () => {
    const log = new RunLog();
    const window = { startMs: 10, endMs: 20 };
    const own = write(12, 'changeUserDisclosure', 'A', 204, 14);
    const before = write(2, 'deleteUserDisclosure', 'B', 204, 5);
    const other = write(15, 'deleteUserDisclosure', 'B', 204, 18);
    const list = entry(16, 'listUserDisclosures');
    for (const s of [own, before, list]) log.append(logged(s));
    log.sending(sending(other));
    const asked = writesMeanwhile(log, window, new Set([12]));
    // The other test's write is held back: no answer to the question until it is settled.
    expect(await isSettled(asked)).toBe(false);
    log.append(logged(other));
    expect((await asked)?.map((s) => s.x.index)).toEqual([15]);
    // One that went unanswered within the window: what it did cannot be told.
    const lost = write(19, 'createUserDisclosure', 'C', 0, 25);
    log.sending(sending(lost));
    log.appendUnanswered(logged(unanswered(lost)));
    expect(await writesMeanwhile(log, window, new Set([12]))).toBeUndefined();
    expect((await writesWithoutAnswer(log, window, new Set())).map((s) => s.x.index)).toEqual([19]);
    // Outside the window, or the case's own: no matter.
    expect(await writesWithoutAnswer(log, { startMs: 30, endMs: 40 }, new Set())).toEqual([]);
    expect(await writesWithoutAnswer(log, window, new Set([19]))).toEqual([]);
  });

  test('a write in flight that started after the window is not waited for', async () => {
    const log = new RunLog();
    log.sending(sending(write(30, 'createUserDisclosure', 'A')));
    expect(await writesWithoutAnswer(log, { startMs: 10, endMs: 20 }, new Set())).toEqual([]);
  });

  test('a write that leaves after the question, in the last millisecond of the window, started after it', async () => {
    const log = new RunLog();
    const other = write(10, 'deleteUserDisclosure', 'B', 204, 14);
    log.sending(sending(other));
    const asked = writesWithoutAnswer(log, { startMs: 10, endMs: 20 }, new Set());
    // While the question waits for the write in flight, another leaves with the clock at the window's end.
    const late = write(20, 'createUserDisclosure', 'C');
    log.sending(sending(late));
    log.append(logged(other));
    expect(await asked).toEqual([]);
    // Asked again now, it was in flight before the question: it is waited for.
    const again = writesWithoutAnswer(log, { startMs: 10, endMs: 20 }, new Set());
    expect(await isSettled(again)).toBe(false);
    log.appendUnanswered(logged(unanswered(late)));
    expect((await again).map((s) => s.x.index)).toEqual([20]);
  });
});

const CREATE: SendOptions = {
  operation: 'createUserDisclosure',
  headers: { InstitutionDisclosureName: 'Esign' },
  body: { institutionUserDisclosureStatus: 'ACCEPTED', institutionDisclosureName: 'Esign' },
};

function clientAt(url: string): DbsiClient {
  const config = resolveConfig(configFor(url, { timeoutMs: HANG_MS, retries: 1 }), {});
  return new DbsiClient(config, new Redactor(secretValues(config)));
}

describe('the client tells the log of each request as it leaves and as it ends', () => {
  test('a create whose answer the target holds back is in flight until answered', async () => {
    let answer: (() => void) | undefined;
    const server = await startMisbehavingServer((_req, res) => {
      answer = () => {
        res.writeHead(204);
        res.end();
      };
    });
    const client = clientAt(server.url);
    const log = client.run.get(RUN_LOG);
    try {
      const sent = client.send(CREATE);
      expect(createInFlight(log, 'Esign')).toBe(true);
      await until(() => answer !== undefined);
      expect(log.inFlight().map((s) => s.mapped.operation)).toEqual(['createUserDisclosure']);
      expect(log.entries()).toEqual([]);
      answer!();
      const res = await within(HANG_MS, sent, 'the create');
      expect(res.status).toBe(204);
      expect([createInFlight(log, 'Esign'), log.inFlight(), log.requestsWithoutAnswer()]).toEqual([false, [], []]);
      expect(log.entries().map((s) => s.x.index)).toEqual([res.exchange.seq]);
    } finally {
      await client.close();
      await server.close();
    }
  });

  test('a request that never left the machine is dropped: no request in flight, none without an answer', async () => {
    const client = clientAt(`http://127.0.0.1:${await closedPort()}`);
    const log = client.run.get(RUN_LOG);
    try {
      const failed = await client.send(CREATE).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(failed).toBeDefined();
      expect([log.inFlight(), log.requestsWithoutAnswer(), log.entries()]).toEqual([[], [], []]);
    } finally {
      await client.close();
    }
  });

  test('a request reset without an answer is settled by its unanswered entry', async () => {
    const server = await startMisbehavingServer('reset');
    const client = clientAt(server.url);
    const log = client.run.get(RUN_LOG);
    try {
      await client.send(CREATE).catch(() => undefined);
      expect(log.inFlight()).toEqual([]);
      expect(log.requestsWithoutAnswer().map((s) => [s.mapped.operation, s.why])).toEqual([
        ['createUserDisclosure', 'unanswered'],
      ]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
