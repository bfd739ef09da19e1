import type { Seen } from '../exchange';
import { isObject } from '../request';
import { parseJson } from '../../json-depth';

/**
 * The order of a log as the state rules read it. Writes take effect when their answer ended; reads are judged when
 * they start. A browser's startedDateTime has millisecond precision (rounded down): an exchange that starts in the
 * millisecond in which another's answer ended (and comes after it in the capture) follows it, as a client that
 * awaits each answer produces them; only a start at least 1 ms before that end is an overlap. The recorder writes
 * microseconds.
 */

/** What a state rule notes per exchange index (unknown outcomes, moves not observed). */
export type Note = (i: number, text: string) => void;

export interface Write {
  s: Seen;
  /** What it may touch, as keys: ud|user|name, ud|user|*, ud|*|name, id|<id>, id|*, phone|<customer>. */
  keys: string[];
  apply: () => void;
  /** A contact update: the phone number it may put on record ("" for one without phoneNumber, which a faulty target may
   * clear it with); undefined if it cannot be told. */
  setsPhone?: string;
}

/** The request body as a JSON object ({} where it is none). */
export function bodyOf(s: Seen): Record<string, any> {
  try {
    const j = parseJson(s.x.requestBody ?? '');
    return isObject(j) ? j : {};
  } catch {
    return {};
  }
}

/** Why a write's outcome is unknown (for the notes). */
export const unknownWhy = (s: Seen): string =>
  s.x.status === 0 ? 'no answer in the capture' : `answered ${s.x.status}, outcome unknown`;

/** Whether a write with keys `keys` running meanwhile may touch what `key` names. */
export function busy(keys: Set<string>, key: string): boolean {
  const [kind, a, b] = key.split('|');
  if (keys.has(key)) return true;
  if (kind === 'ud') return keys.has(`ud|${a}|*`) || keys.has(`ud|*|${b}`) || keys.has('ud|*|*');
  if (kind === 'id') return keys.has('id|*') && a!.startsWith('name:');
  return false;
}

export class Timeline {
  private readonly position: Map<Seen, number>;
  private byEnd: Write[] = [];
  /** The writes in the order of the capture. */
  byStart: Write[] = [];
  private next = 0;
  /** Writes that ended before the current exchange started, but come after it in the capture (same millisecond). */
  private readonly pending: Write[] = [];

  /** `sorted`: the log by start. */
  constructor(readonly sorted: readonly Seen[]) {
    this.position = new Map(sorted.map((s, k) => [s, k]));
  }

  /** The writes whose effects the timeline applies. */
  schedule(writes: Write[]): void {
    this.byEnd = [...writes].sort((a, b) => a.s.x.endMs - b.s.x.endMs || a.s.x.index - b.s.x.index);
    this.byStart = [...writes].sort((a, b) => this.position.get(a.s)! - this.position.get(b.s)!);
  }

  /** a ended before b started. */
  precedes(a: Seen, b: Seen): boolean {
    return this.position.get(a)! < this.position.get(b)! && b.x.startMs > a.x.endMs - b.x.startPrecisionMs;
  }

  /** Neither before nor after s: a write that overlaps it (other than the exchange itself). */
  overlaps(w: Write, s: Seen): boolean {
    return w.s !== s && !this.precedes(w.s, s) && !this.precedes(s, w.s);
  }

  /** Keys of the writes that overlap [start, end] (other than the exchange itself). */
  overlapping(s: Seen): Set<string> {
    const out = new Set<string>();
    for (const w of this.byStart) {
      if (this.precedes(s, w.s)) break;
      if (this.overlaps(w, s)) for (const k of w.keys) out.add(k);
    }
    return out;
  }

  /** Whether a write overlapping s may touch what `key` names. */
  busyAt(s: Seen, key: string): boolean {
    return busy(this.overlapping(s), key);
  }

  /** Apply the writes that ended before s started. */
  advanceTo(s: Seen): void {
    while (this.next < this.byEnd.length && this.byEnd[this.next]!.s.x.endMs - s.x.startPrecisionMs < s.x.startMs) {
      this.pending.push(this.byEnd[this.next++]!);
    }
    for (let k = 0; k < this.pending.length; ) {
      if (this.precedes(this.pending[k]!.s, s)) this.pending.splice(k, 1)[0]!.apply();
      else k++;
    }
  }

  /** The writes that ended after the last exchange started: no list follows them. */
  finish(): void {
    for (const w of [...this.pending.splice(0), ...this.byEnd.slice(this.next)]) w.apply();
    this.next = this.byEnd.length;
  }
}

/**
 * Who is who: lists name their user; a write is about the user its credential lists (nearly always: a probe of
 * another consumer now and then does not change whose token it is). Where the capture cannot tell credentials
 * apart, the user nearly every list is about.
 */
export function whoIsWho(sorted: readonly Seen[], applied: (status: number) => boolean) {
  const listsBy = new Map<string | undefined, Map<string, number>>();
  for (const s of sorted) {
    if (s.mapped.operation !== 'listUserDisclosures' || !applied(s.x.status)) continue;
    const user = s.mapped.query.get('InstitutionConsumerId');
    if (!user) continue;
    for (const key of [s.x.credential?.label, undefined]) {
      const m = listsBy.get(key) ?? listsBy.set(key, new Map()).get(key)!;
      m.set(user, (m.get(user) ?? 0) + 1);
    }
  }
  /** The user that at least 80 % of the lists of this credential (or of the capture) are about. */
  const principal = (key: string | undefined): string | undefined => {
    const m = listsBy.get(key);
    if (!m) return undefined;
    const total = [...m.values()].reduce((a, b) => a + b, 0);
    const [user, n] = [...m.entries()].sort((a, b) => b[1] - a[1])[0]!;
    return n * 5 >= total * 4 ? user : undefined;
  };
  return (s: Seen): string | undefined => {
    const label = s.x.credential?.label;
    if (label === undefined) return principal(undefined);
    if (listsBy.has(label)) return principal(label);
    // A credential no list was made with: only where the capture tells no credentials apart at all.
    return [...listsBy.keys()].some((k) => k !== undefined) ? undefined : principal(undefined);
  };
}
