import type { Mapped, Observed } from './entry';

/**
 * A request of the run as it left the client, before any answer (issue 32): its entry's request half. The client
 * registers it as it leaves (RunLog.sending) and settles it with its answered or unanswered entry, or drops it where
 * nothing was sent, so that every exchange of the run is in one place: in flight, answered, or without an answer.
 */
export interface Sending {
  x: Pick<Observed, 'index' | 'startMs' | 'method' | 'url' | 'requestHeaders' | 'requestBody'>;
  mapped: Mapped;
  undocumentedPath?: true;
}

/**
 * Why the log holds no answered entry of a request that was sent: still in flight; unanswered (an entry of status 0:
 * a timeout, a reset, 502/503/504, a burst of 429/5xx); or settled with no entry at all (answered 429 or a named
 * throttle, which the target says it did not process, or answered after the log was closed).
 */
export type NoAnswer = 'in flight' | 'unanswered' | 'no entry';

/** A request the run sent that has no answered entry in the log, and when it was settled (none: in flight). */
export type WithoutAnswer = Sending & { why: NoAnswer; endMs?: number };

interface Flying {
  s: Sending;
  settled: Promise<void>;
  settle: () => void;
}

/** The requests of the run in flight, and those settled with no entry: the run log's record of requests. */
export class Flights {
  private readonly flying = new Map<number, Flying>();
  private readonly noEntry: WithoutAnswer[] = [];

  leave(s: Sending): void {
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    this.flying.set(s.x.index, { s, settled, settle });
  }

  /** No longer in flight (its entry is written, or it is dropped): the request, where it was in flight. */
  settle(index: number): Sending | undefined {
    const f = this.flying.get(index);
    if (!f) return undefined;
    this.flying.delete(index);
    f.settle();
    return f.s;
  }

  /** Ended with no entry: dropped where nothing was sent, else kept as sent with no answer in the log. */
  ended(index: number, sentNothing: boolean, endMs: number): void {
    const s = this.settle(index);
    if (s && !sentNothing) this.noEntry.push({ ...s, why: 'no entry', endMs });
  }

  /** The requests in flight now, in the order sent. */
  inFlight(): Sending[] {
    return [...this.flying.values()].map((f) => f.s).sort((a, b) => a.x.index - b.x.index);
  }

  /** The requests settled with no entry (not processed, or answered after the log was closed). */
  withoutEntry(): readonly WithoutAnswer[] {
    return this.noEntry;
  }

  /** Resolves once every request in flight now that `which` selects is settled (each one's time is bounded). */
  async settled(which: (s: Sending) => boolean): Promise<void> {
    await Promise.all([...this.flying.values()].filter((f) => which(f.s)).map((f) => f.settled));
  }
}
