import type { Seen } from '../rules/exchange';
import { isObject, sentOnce } from '../rules/request';
import { outcomeOf } from './outcome';

/**
 * The institution disclosures (operations 1–3) as a log shows them: a fold over `Seen` entries with a read-only
 * query API, the one model of them that the explorer and the state rules (harness/rules/sequence/
 * institution-disclosures.ts) ask. It knows only what the lists prove (each listed disclosure's id, name and
 * status, where the list gives them); a 2xx create or change is a move the next list of its institution shows
 * (pending until then); a write that was not refused makes the disclosure it names unknown until the next list.
 * It judges nothing.
 *
 * `add(s)` folds the entries in the order sent. The state rules, which order writes by their end and reads by their
 * start, call its two steps themselves: `write` when a write's answer ended, `list` when a list started (with the
 * disclosures a write running meanwhile may touch, `busy`, left as they were).
 */

export interface ListedDisclosure {
  id: string;
  name?: string;
  status?: boolean;
}

/** A 2xx create or change no list has shown yet. */
export interface InstitutionMove {
  kind: 'create' | 'change';
  /** The exchange (Seen.x.index). */
  by: number;
  id?: string;
  name?: string;
  status?: boolean;
  institutionId?: string;
}

/** The elements of a 2xx list of operation 1 (undefined: not one, or no institutionDisclosures array). */
export function listedDisclosures(s: Seen): Record<string, any>[] | undefined {
  if (outcomeOf(s.x.status) !== 'applied') return undefined;
  const items = (s.res.json as { institutionDisclosures?: unknown } | undefined)?.institutionDisclosures;
  return Array.isArray(items) ? items.filter(isObject) : undefined;
}

/** The move a 2xx create or change is (undefined: it names neither an id nor a name). */
function moveOf(s: Seen): InstitutionMove | undefined {
  const id =
    s.mapped.operation === 'changeInstitutionDisclosure' ? s.mapped.pathParams.institutionDisclosureId : undefined;
  const answered =
    isObject(s.res.json) && typeof s.res.json.institutionDisclosureId === 'string'
      ? s.res.json.institutionDisclosureId
      : undefined;
  const name = sentOnce(s, 'institutionDisclosureName', 'institutionDisclosureName');
  const st = sentOnce(s, 'institutionDisclosureStatus', 'institutionDisclosureStatus');
  const inst = sentOnce(s, 'institutionId', 'institutionId');
  const move: InstitutionMove = {
    kind: id ? 'change' : 'create',
    by: s.x.index,
    id: id ?? answered,
    name: name.known ? name.value : undefined,
    status: st.known && (st.value === 'true' || st.value === 'false') ? st.value === 'true' : undefined,
    institutionId: inst.known ? inst.value : undefined,
  };
  return move.id || move.name ? move : undefined;
}

export class InstitutionDisclosureState {
  private listed = new Map<string, ListedDisclosure>();
  private readonly touched = new Set<string>();
  /** Every institutionDisclosureId a list or a create's answer showed. */
  private readonly issued = new Set<string>();
  private lists = 0;
  /** id -> the list that last showed it (no write whose outcome is unknown since), with its credential. */
  private readonly shown = new Map<string, { by: number; label?: string }>();
  /** id (or "name:<name>") -> the pending move. */
  private readonly pending = new Map<string, InstitutionMove>();

  /** Fold one entry in (in the order sent). */
  add(s: Seen): this {
    const op = s.mapped.operation;
    if (op === 'listInstitutionDisclosures') this.list(s);
    else if (op === 'createInstitutionDisclosure' || op === 'changeInstitutionDisclosure') this.write(s);
    return this;
  }

  /** A create's or change's answer ended. Gives the move a 2xx one is, or 'unknown' where its outcome is. */
  write(s: Seen): InstitutionMove | 'unknown' | undefined {
    const outcome = outcomeOf(s.x.status);
    if (outcome === 'refused') return undefined;
    const id =
      s.mapped.operation === 'changeInstitutionDisclosure' ? s.mapped.pathParams.institutionDisclosureId : undefined;
    if (id === undefined && outcome === 'applied' && isObject(s.res.json)) {
      const answered = s.res.json.institutionDisclosureId;
      if (typeof answered === 'string') this.issued.add(answered);
    }
    if (s.mapped.operation === 'changeInstitutionDisclosure') {
      // A change of an id no list showed may touch any disclosure: every one is unknown until the next list.
      if (id !== undefined && this.listed.has(id)) this.touched.add(id);
      else for (const k of this.listed.keys()) this.touched.add(k);
    }
    if (outcome === 'unknown') {
      if (id) this.pending.delete(id);
      if (id) this.shown.delete(id);
      return 'unknown';
    }
    const move = moveOf(s);
    if (move) this.pending.set(move.id ?? `name:${move.name}`, move);
    return move;
  }

  /**
   * A 2xx list started: it shows the disclosures, and settles the pending moves it can show (those of its
   * institution, none `busy`): given, to be judged on it.
   */
  list(s: Seen, busy: (key: string) => boolean = () => false): InstitutionMove[] {
    const objs = listedDisclosures(s);
    if (!objs) return [];
    this.listed = new Map();
    this.touched.clear();
    this.lists++;
    for (const d of objs) {
      const id = d.institutionDisclosureId;
      if (typeof id !== 'string') continue;
      this.issued.add(id);
      this.listed.set(id, {
        id,
        ...(typeof d.institutionDisclosureName === 'string' ? { name: d.institutionDisclosureName } : {}),
        ...(typeof d.institutionDisclosureStatus === 'boolean' ? { status: d.institutionDisclosureStatus } : {}),
      });
      if (!busy(id)) this.shown.set(id, { by: s.x.index, label: s.x.credential?.label });
    }
    const settled: InstitutionMove[] = [];
    for (const [key, move] of [...this.pending]) {
      if (busy(key)) continue;
      // Only a list of the same institution can show the disclosure.
      if (move.institutionId !== undefined && !objs.some((o) => o.institutionId === move.institutionId)) continue;
      this.pending.delete(key);
      settled.push(move);
    }
    return settled;
  }

  /** The disclosure as the last list showed it (undefined: not listed, or written since). */
  record(id: string): Readonly<ListedDisclosure> | undefined {
    return this.touched.has(id) ? undefined : this.listed.get(id);
  }

  /** The id the last list gives the disclosure named `name` (the first, where several carry it). */
  idOf(name: string): string | undefined {
    for (const d of this.listed.values()) if (d.name === name) return d.id;
    return undefined;
  }

  /** Every institutionDisclosureId a list or a create's answer showed. */
  issuedIds(): ReadonlySet<string> {
    return this.issued;
  }

  /** How many 2xx lists with an institutionDisclosures array the log holds. */
  listsSeen(): number {
    return this.lists;
  }

  /** The list that last showed the disclosure, where no write to it is pending or unknown since (else undefined). */
  listedBy(id: string): { by: number; label?: string } | undefined {
    return this.pending.has(id) ? undefined : this.shown.get(id);
  }

  /** The 2xx creates and changes no list has shown yet. */
  moves(): InstitutionMove[] {
    return [...this.pending.values()];
  }
}
