import type { Seen } from '../log/entry';
import type { RunLog, Sending, WithoutAnswer } from '../log/run-log';
import { isUserWrite, writeTarget } from './user-disclosure-writes';

/**
 * The writes of users' acceptance records (operations 5–7) in the run's log (harness/log/run-log.ts) that have no
 * answered entry there (issue 32): the requests the client registers as they leave, before their answer, and those
 * that ended without one. What the drivers asked of a list of their own requests before, asked of the log: every
 * write of the run (every test, clean-ups, the explorer) goes through the client, so the log sees each one.
 */

/** A write of a user's acceptance record at its documented path (a probe elsewhere is no write of the records). */
export const isRecordWrite = (s: Pick<Sending, 'mapped' | 'undocumentedPath'>): boolean =>
  isUserWrite(s.mapped.operation) && !s.undocumentedPath;

/**
 * A create of the user's record of `name` that the run sent and that is still in flight: a list taken meanwhile may
 * show the record it creates, so "the user has a record of `name` the run did not create" cannot be told from that
 * list yet. A create whose name is not known (header and member differ) may create any record.
 */
export function createInFlight(log: Pick<RunLog, 'inFlight'>, name: string): boolean {
  return log.inFlight().some((s) => {
    if (!isRecordWrite(s) || s.mapped.operation !== 'createUserDisclosure') return false;
    const named = writeTarget(s).name;
    return named === undefined || named === name;
  });
}

/** From the start of the first exchange to the end of the last (epoch ms). */
export interface Window {
  startMs: number;
  endMs: number;
}

const overlaps = (w: Window, startMs: number, endMs: number): boolean => startMs <= w.endMs && endMs > w.startMs;

/**
 * The writes of user records, other than those of `own` (indexes of the log), that overlapped the window and have no
 * answered entry in the log (in flight, unanswered, or settled with none), once every such write in flight now that
 * started by the window's end is settled (waited for: what it did is in the log then, or cannot be told). Asked once
 * the window ended: a write that leaves the client after the question started after the window, even where the
 * clock gives it the window's last millisecond (the flake of session 40: a lifecycle step could not test).
 */
export async function writesWithoutAnswer(
  log: Pick<RunLog, 'settled' | 'requestsWithoutAnswer'>,
  w: Window,
  own: ReadonlySet<number>,
): Promise<WithoutAnswer[]> {
  const meanwhile = (s: Sending) => isRecordWrite(s) && !own.has(s.x.index) && s.x.startMs <= w.endMs;
  // The requests without an answer now: one that leaves after this (in the window's last millisecond, as the clock
  // reads it) started after the window ended, and is none of its business.
  const sentBefore = new Set(log.requestsWithoutAnswer().map((s) => s.x.index));
  await log.settled(meanwhile);
  return log
    .requestsWithoutAnswer()
    .filter((s) => sentBefore.has(s.x.index) && meanwhile(s) && overlaps(w, s.x.startMs, s.endMs ?? Infinity));
}

/**
 * The answered writes of user records, other than those of `own`, that ran while the window did (as a capture of the
 * run shows them), once every one in flight is settled; undefined where one of them has no answered entry (what it
 * did cannot be told: writesWithoutAnswer).
 */
export async function writesMeanwhile(
  log: Pick<RunLog, 'settled' | 'requestsWithoutAnswer' | 'entries'>,
  w: Window,
  own: ReadonlySet<number>,
): Promise<Seen[] | undefined> {
  if ((await writesWithoutAnswer(log, w, own)).length > 0) return undefined;
  return log
    .entries()
    .filter((s) => isRecordWrite(s) && !own.has(s.x.index))
    .filter((s) => s.x.startMs <= w.endMs && s.x.endMs >= w.startMs);
}
