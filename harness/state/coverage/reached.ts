import type { Seen } from '../../rules/exchange';

import { STATUS_RANK, type FamilyCoverage, type TransitionResult } from '../../contract-coverage/states';

export type { FamilyCoverage } from '../../contract-coverage/states';

/** A write taken and waiting for its read. */
interface Pending {
  transition: string;
  write: number;
  endMs: number;
}

/**
 * One family's bookkeeping over a log in the order sent: `took` when a write's answer showed it applied, `read`
 * when a read of the record started. A later write of the same record replaces the one pending (the read shows the
 * later write); a read that started before the write ended shows nothing of it.
 */
export class Reached {
  private readonly results = new Map<string, TransitionResult>();
  private readonly pending = new Map<string, Pending>();

  /** `space`: every transition the family's commands can take, in the order reported. */
  constructor(space: readonly string[]) {
    for (const t of space) this.results.set(t, { transition: t, status: 'not taken' });
  }

  /** A write applied: a transition outside the space (a state the log cannot tell) counts for none. */
  took(record: string, transition: string, s: Seen): void {
    if (!this.results.has(transition)) return this.lost(record);
    this.raise({ transition, status: 'taken', write: s.x.index });
    this.pending.set(record, { transition, write: s.x.index, endMs: s.x.endMs });
  }

  /** The record written meanwhile with an outcome not known: its pending write can no longer be read back. */
  lost(record: string): void {
    this.pending.delete(record);
  }

  /** A read started that shows every record `shows` names (by its key). */
  read(shows: (record: string) => boolean, s: Seen): void {
    for (const [record, p] of [...this.pending]) {
      if (!shows(record) || p.endMs > s.x.startMs) continue;
      this.pending.delete(record);
      this.raise({ transition: p.transition, status: 'read back', write: p.write, readBack: s.x.index });
    }
  }

  private raise(r: TransitionResult): void {
    const was = this.results.get(r.transition);
    if (was && STATUS_RANK[was.status] >= STATUS_RANK[r.status]) return;
    this.results.set(r.transition, r);
  }

  result(family: string, readBackBy: string): FamilyCoverage {
    return { family, readBackBy, transitions: [...this.results.values()] };
  }
}
