import { documentedMembers } from '../disclosure-records';
import type { Seen } from '../rules/exchange';
import { outcomeOf } from './outcome';
import { consumerOwnRecords, listedRecords, type OwnRecords } from './user-disclosure-owners';

import { isUserWrite, writeTarget, type MoveKind } from './user-disclosure-writes';

export { listedRecords, type OwnRecords } from './user-disclosure-owners';
export {
  deletedSinceCreated,
  isUserWrite,
  writeTarget,
  type MoveKind,
  type WriteTarget,
} from './user-disclosure-writes';

/**
 * The users' acceptance records (operations 4–7) as a log shows them: a fold over `Seen` entries with a
 * read-only query API, the one model of them that the explorer, the drivers and the state rules
 * (harness/rules/sequence/user-disclosures.ts) ask. It knows only what the log proves: a 2xx list of a user says
 * which records the user has, their status and their id (where the list gives one); a 2xx write is a move the next
 * list shows (pending until then); a refused one (outcome.ts) changed nothing; one whose outcome is unknown makes
 * the record it names unknown until the next list. It judges nothing.
 *
 * `add(s)` folds the entries in the order sent. The state rules, which order writes by their end and reads by their
 * start, call its two steps themselves: `write` when a write's answer ended, `list` when a list started (with the
 * records a write running meanwhile may touch, `busy`, left as they were).
 */

/** A record as the last list of its user showed it. */
export interface ListedRecord {
  name: string;
  status?: string;
  /** institutionUserDisclosureId, where the list gives it. */
  id?: string;
}

/** A 2xx write no list of the user has shown yet. */
export interface UserMove {
  kind: MoveKind;
  /** The exchange (Seen.x.index). */
  by: number;
  /** The status it sent (create, change), where the request tells it once. */
  status?: string;
  /** For a change: the record was seen (or created) before it. */
  knownPresent?: boolean;
  /** The record's institutionUserDisclosureId as the log knows it (a list before, through the writes since). */
  recordId?: string;
}

interface UserView {
  /** Last known presence, by name. */
  presence: Map<string, boolean>;
  /** The list that last showed the record (while its presence is known). */
  shownBy: Map<string, number>;
  /** The record's documented members as last listed, while no write may have touched it since. */
  lastListed: Map<string, Record<string, unknown>>;
  moves: Map<string, UserMove>;
  /** Names (or "*", every one) a write with an unknown outcome may have touched, until a list shows them. */
  unknown: Set<string>;
  /** The last 2xx list of the user, by name (whatever was written since). */
  listed?: Map<string, ListedRecord>;
}

const newView = (): UserView => ({
  presence: new Map(),
  shownBy: new Map(),
  lastListed: new Map(),
  moves: new Map(),
  unknown: new Set(),
});

export class UserDisclosureState {
  private readonly users = new Map<string, UserView>();
  /** user -> every institutionUserDisclosureId a list showed, with the record's name. */
  private readonly ids = new Map<string, Map<string, string>>();
  private readonly owners = new Map<string, OwnRecords>();
  private readonly targetIds = new Map<string, { id: string; by: number }>();
  /** The users a 2xx list has shown a record of a status other than ACCEPTED. */
  private readonly otherStatusesListed = new Set<string>();
  private readonly userOf: (s: Seen) => string | undefined;

  /** `writer`: the user every write is about (the credential's user), or how to tell it per write. */
  constructor(writer?: string | ((s: Seen) => string | undefined)) {
    this.userOf = typeof writer === 'function' ? writer : () => writer;
  }

  private view(user: string): UserView {
    return this.users.get(user) ?? this.users.set(user, newView()).get(user)!;
  }

  /** Fold one entry in (in the order sent). */
  add(s: Seen): this {
    const op = s.mapped.operation;
    if (op === 'listUserDisclosures' && s.x.status !== 0) {
      this.consumerListed(s);
      this.list(s);
    } else if (isUserWrite(op)) this.write(s, this.userOf(s));
    return this;
  }

  /**
   * A write's answer ended: a 2xx one is a move of the record it names; one whose outcome is unknown, or whose user
   * or record cannot be told, makes the record (every record of the user, of every user) unknown. Gives what it made
   * unknown, or undefined.
   */
  write(s: Seen, user: string | undefined): { user?: string; name?: string; cannot?: string } | undefined {
    const outcome = outcomeOf(s.x.status);
    if (outcome === 'refused') return undefined;
    const w = writeTarget(s);
    const name = w.byId !== undefined && user ? (this.nameOf(user, w.byId) ?? w.name) : w.name;
    if (outcome === 'unknown' || !user || !name) {
      this.forget(user, name);
      const cannot =
        outcome === 'unknown'
          ? undefined
          : user
            ? 'a 2xx write whose record cannot be told'
            : 'a 2xx write whose user cannot be told from the capture';
      return { ...(user ? { user } : {}), ...(name ? { name } : {}), ...(cannot ? { cannot } : {}) };
    }
    const v = this.view(user);
    v.lastListed.delete(name);
    const prior = v.moves.get(name);
    const knownPresent = v.presence.get(name) === true || prior?.kind === 'create';
    const recordId = prior ? (prior.kind === 'delete' ? undefined : prior.recordId) : this.shownId(v, name);
    v.moves.set(name, { kind: w.kind, by: s.x.index, status: w.status, knownPresent, recordId });
    return undefined;
  }

  /** The record (every record of the user, or of every user) may have been written: unknown until a list shows it. */
  private forget(user: string | undefined, name: string | undefined): void {
    for (const v of user ? [this.view(user)] : [...this.users.values()]) {
      for (const m of [v.moves, v.presence, v.lastListed]) {
        if (name) m.delete(name);
        else m.clear();
      }
      v.unknown.add(name ?? '*');
    }
  }

  /**
   * A 2xx list of a user started: it shows the user's records, and ends the moves pending on them; a record `busy`
   * says a write running meanwhile may touch is left as it was.
   */
  list(s: Seen, busy: (name: string) => boolean = () => false): void {
    const user = s.mapped.query.get('InstitutionConsumerId');
    const records = listedRecords(s);
    if (!user || !records) return;
    const v = this.view(user);
    if (showsOtherStatuses(records)) this.otherStatusesListed.add(user);
    const named = records.filter((r) => typeof r.institutionDisclosureName === 'string');
    const byName = new Map(named.map((r) => [r.institutionDisclosureName as string, r]));
    const ids = this.ids.get(user) ?? this.ids.set(user, new Map()).get(user)!;
    for (const r of named)
      if (typeof r.institutionUserDisclosureId === 'string')
        ids.set(r.institutionUserDisclosureId, r.institutionDisclosureName);
    for (const [name, move] of [...v.moves]) {
      if (busy(name)) continue;
      const given = byName.get(name)?.institutionUserId;
      if (move.kind === 'create' && typeof given === 'string' && given !== user)
        this.targetIds.set(user, { id: given, by: move.by });
      v.moves.delete(name);
    }
    v.lastListed = new Map([...byName].filter(([n]) => !busy(n)).map(([n, r]) => [n, documentedMembers(r)]));
    for (const name of v.presence.keys()) if (!busy(name)) v.presence.set(name, byName.has(name));
    for (const name of byName.keys()) {
      if (busy(name)) continue;
      v.presence.set(name, true);
      v.shownBy.set(name, s.x.index);
    }
    v.listed = new Map([...byName].map(([name, r]) => [name, listedRecord(name, r)]));
    v.unknown = new Set([...v.unknown].filter((n) => n !== '*' && busy(n)));
  }

  /**
   * Whether the user's lists may hold ACCEPTED records only ("4. List the disclosures accepted by a user"): no 2xx
   * list of the user has shown a record of another status yet.
   */
  mayListAcceptedOnly(user: string): boolean {
    return !this.otherStatusesListed.has(user);
  }

  /** An answered list asked for a consumer: which records are the consumer's own (user-disclosure-owners.ts). */
  consumerListed(s: Seen): void {
    const own = consumerOwnRecords(s);
    if (own) this.owners.set(own.consumer, own.records);
  }

  /** Whether the last list of the user showed a record of `name`, with no write to it since (undefined: unknown). */
  has(user: string, name: string): boolean | undefined {
    const v = this.users.get(user);
    if (!v || v.moves.has(name) || v.unknown.has(name) || v.unknown.has('*')) return undefined;
    return v.presence.get(name) ?? (v.listed ? false : undefined);
  }

  /** What the run knew before this log: the user has no record of `name` (a list of an earlier log showed none). */
  assumeAbsent(user: string, name: string): this {
    this.view(user).presence.set(name, false);
    return this;
  }

  /**
   * What the log says the user's record of `name` is now (its documented members): as the last list showed it, or
   * as a 2xx create or change since left it (the status it sent); 'absent' where the last list showed none and no
   * write since; undefined where the log cannot tell (no list, a delete no list showed yet, an outcome unknown).
   */
  known(user: string, name: string): Record<string, unknown> | 'absent' | undefined {
    const move = this.users.get(user)?.moves.get(name);
    if (move) {
      if (move.kind === 'delete') return undefined;
      return members({ name, status: move.status, id: move.recordId });
    }
    const has = this.has(user, name);
    return has === undefined ? undefined : has ? members(this.record(user, name)!) : 'absent';
  }

  /** The id the last list gave the record, where it showed it. */
  private shownId(v: UserView, name: string): string | undefined {
    return v.presence.get(name) === true ? v.listed?.get(name)?.id : undefined;
  }

  /** The record of `name` as the last list of the user showed it (undefined: not listed, or written since). */
  record(user: string, name: string): Readonly<ListedRecord> | undefined {
    return this.has(user, name) ? this.users.get(user)!.listed!.get(name) : undefined;
  }

  /** The last id any list showed for the record of `name` (also once the record is gone: a stale id). */
  lastId(user: string, name: string): string | undefined {
    let last: string | undefined;
    for (const [id, n] of this.ids.get(user) ?? []) if (n === name) last = id;
    return last;
  }

  /** The name of the record a list of the user showed with this institutionUserDisclosureId. */
  nameOf(user: string, id: string): string | undefined {
    return this.ids.get(user)?.get(id);
  }

  /** Every institutionUserDisclosureId a list of the user showed. */
  issuedIds(user: string): ReadonlySet<string> {
    return new Set(this.ids.get(user)?.keys() ?? []);
  }

  /** The names the last list of the user showed (whatever was written since). */
  listedNames(user: string): string[] {
    return [...(this.users.get(user)?.listed?.keys() ?? [])];
  }

  /** The 2xx writes of the user's records no list has shown yet, by name. */
  moves(user: string): ReadonlyMap<string, Readonly<UserMove>> {
    return this.users.get(user)?.moves ?? new Map();
  }

  /** Every user with moves no list has shown. */
  usersWithMoves(): string[] {
    return [...this.users].filter(([, v]) => v.moves.size > 0).map(([u]) => u);
  }

  /** The user's records (documented members) as last listed, that no write may have touched since. */
  lastListed(user: string): ReadonlyMap<string, Readonly<Record<string, unknown>>> {
    return this.users.get(user)?.lastListed ?? new Map();
  }

  /** The list that showed the record, where the log shows it there with no write since (else undefined). */
  listedBy(user: string, name: string): number | undefined {
    const v = this.users.get(user);
    if (!v || v.presence.get(name) !== true || v.moves.has(name)) return undefined;
    return v.shownBy.get(name);
  }

  /** Per consumer, the records its last 2xx list showed are its own (user-disclosure-owners.ts). */
  ownRecords(): ReadonlyMap<string, Readonly<OwnRecords>> {
    return this.owners;
  }

  /** The institutionUserId a record a 2xx create wrote for the consumer carries where it is not the consumer's. */
  targetUserId(consumer: string): { id: string; by: number } | undefined {
    return this.targetIds.get(consumer);
  }
}

/** A record as the operation-4 list names its members. */
function members(r: ListedRecord): Record<string, unknown> {
  return {
    institutionDisclosureName: r.name,
    institutionUserDisclosureStatus: r.status,
    ...(r.id !== undefined ? { institutionUserDisclosureId: r.id } : {}),
  };
}

function listedRecord(name: string, r: Record<string, any>): ListedRecord {
  const id = typeof r.institutionUserDisclosureId === 'string' ? r.institutionUserDisclosureId : undefined;
  const status = typeof r.institutionUserDisclosureStatus === 'string' ? r.institutionUserDisclosureStatus : undefined;
  return { name, status, id };
}

/** The state a log shows (entries in the order sent); `writer`: the user the writes are about. */
export function foldUserDisclosures(log: readonly Seen[], writer?: string): UserDisclosureState {
  const state = new UserDisclosureState(writer);
  for (const s of log) state.add(s);
  return state;
}

/** A list shows a record whose status is not ACCEPTED (in any letter case). */
export function showsOtherStatuses(records: readonly Record<string, unknown>[]): boolean {
  return records.some(
    (r) =>
      typeof r.institutionUserDisclosureStatus === 'string' &&
      r.institutionUserDisclosureStatus.toUpperCase() !== 'ACCEPTED',
  );
}
