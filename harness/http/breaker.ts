import { setMaxListeners } from 'node:events';
import type { TransportErrorKind } from '../model';
import { DEFAULT_TIMINGS } from './timings';

/** After the target stopped answering, the clean-ups of every case share this window from then on. */
export function deadTargetCleanupWindowMs(timeoutMs: number, maxMs = DEFAULT_TIMINGS.deadTargetWindowMaxMs): number {
  return Math.min(timeoutMs, maxMs);
}

/** Consecutive answers of a dead kind, across at least two operations, that declare the target dead. */
export const DEAD_AFTER = 3;
const DEAD_KINDS = new Set<TransportErrorKind>(['timeout', 'connection']);

/**
 * Notices a target that stopped answering: after DEAD_AFTER requests in a row got no answer at all
 * (timeouts, which include answers that trickle in too slowly, resets, refused connections), on at
 * least two different operations, with no HTTP answer to any request for two request timeouts,
 * ordinary requests are no longer sent (those in flight are abandoned): the rest of the run is
 * "could not test: the target stopped answering". Clean-up requests are still sent, within a window
 * of deadTargetCleanupWindowMs from then on. Any HTTP answer (whatever its status) starts the count
 * again: a target that answers some requests, however slowly others, is not dead.
 */
export class DeadTargetBreaker {
  private consecutive = 0;
  private readonly operations = new Set<string>();
  private readonly stop = new AbortController();
  private trippedAt: number | undefined;
  private lastAnswerAt = 0;
  private why = '';

  constructor(
    private readonly timeoutMs: number,
    private readonly windowMaxMs = DEFAULT_TIMINGS.deadTargetWindowMaxMs,
  ) {
    setMaxListeners(10_000, this.stop.signal);
  }

  /** Aborted when the target is declared dead: ordinary requests listen to it. */
  get signal(): AbortSignal {
    return this.stop.signal;
  }

  get tripped(): boolean {
    return this.trippedAt !== undefined;
  }

  /** Why the target was declared dead (for the reasons of the cases it stops). */
  get message(): string {
    return (
      `the target stopped answering (${this.why}), so this request was not ` +
      `sent; the rest of the run is not sent either`
    );
  }

  /** A request got an HTTP answer. */
  answered(): void {
    this.lastAnswerAt = Date.now();
    this.consecutive = 0;
    this.operations.clear();
  }

  /** A request got no answer. */
  failed(kind: TransportErrorKind, operation: string, message: string): void {
    if (this.tripped) return;
    if (!DEAD_KINDS.has(kind)) return this.answered();
    this.consecutive++;
    this.operations.add(operation);
    if (
      this.consecutive >= DEAD_AFTER &&
      this.operations.size >= 2 &&
      Date.now() - this.lastAnswerAt >= 2 * this.timeoutMs
    ) {
      this.trippedAt = Date.now();
      this.why =
        `${this.consecutive} requests in a row on ${this.operations.size} ` +
        `operations got no answer; the last: ${message}`;
      this.stop.abort(new Error('the target stopped answering'));
    }
  }

  /** Epoch ms after which no clean-up request starts once the target is dead; Infinity while it answers. */
  cleanupDeadline(): number {
    if (this.trippedAt === undefined) return Infinity;
    return this.trippedAt + deadTargetCleanupWindowMs(this.timeoutMs, this.windowMaxMs);
  }
}
