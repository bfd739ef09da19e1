import type { Seen } from '../rules/exchange';

/**
 * The users' acceptance records (operations 4–7) as a log shows them: a fold over `Seen` entries with a
 * read-only query API. It knows only what the log proves: a 2xx list of a user says which records the user
 * has, their status and their id (where the list gives one); a write answered 2xx, or whose outcome is
 * unknown, makes the record it names unknown until the next list. It judges nothing (the rules of
 * harness/rules/ do): the explorer (suites/explore/) reads it to choose its next command.
 */

/** A record as the last list of its user showed it. */
export interface ListedRecord {
  name: string;
  status?: string;
  /** institutionUserDisclosureId, where the list gives it. */
  id?: string;
}

interface UserView {
  /** The records the last 2xx list showed, by institutionDisclosureName. */
  listed: Map<string, ListedRecord>;
  /** The position (Seen.x.index) of that list. */
  by: number;
  /** Names a write may have touched since that list (unknown until the next one). */
  touched: Set<string>;
}

const WRITES = new Set([
  'createUserDisclosure',
  'changeUserDisclosure',
  'changeUserDisclosureById',
  'deleteUserDisclosure',
  'deleteUserDisclosureById',
]);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function sentName(s: Seen): string | undefined {
  try {
    const body = JSON.parse(s.x.requestBody ?? '');
    if (isObject(body) && typeof body.institutionDisclosureName === 'string') return body.institutionDisclosureName;
  } catch {
    // no JSON body: the header may name it
  }
  const h = Object.entries(s.x.requestHeaders).find(([k]) => k.toLowerCase() === 'institutiondisclosurename');
  return h?.[1];
}

export class UserDisclosureState {
  private readonly users = new Map<string, UserView>();
  /** user -> every institutionUserDisclosureId a list showed, with the record's name. */
  private readonly ids = new Map<string, Map<string, string>>();
  /** The user every write is about (the credential's user: the log's lists do not tell it otherwise). */
  constructor(private readonly writer?: string) {}

  /** Fold one entry in (in the order sent). */
  add(s: Seen): this {
    const op = s.mapped.operation;
    if (op === 'listUserDisclosures') this.addList(s);
    else if (WRITES.has(op) && this.writer !== undefined && !(s.x.status >= 400 && s.x.status < 500)) {
      const view = this.users.get(this.writer);
      if (!view) return this;
      const byId = s.mapped.pathParams.institutionUserDisclosureId;
      const name = byId !== undefined ? this.ids.get(this.writer)?.get(byId) : sentName(s);
      // A write by an id no list showed may touch any record: every record is unknown.
      if (name === undefined) for (const n of view.listed.keys()) view.touched.add(n);
      else view.touched.add(name);
    }
    return this;
  }

  private addList(s: Seen): void {
    const user = s.mapped.query.get('InstitutionConsumerId');
    const items = (s.res.json as { institutionUserDisclosures?: unknown } | undefined)?.institutionUserDisclosures;
    if (!user || s.x.status < 200 || s.x.status >= 300 || !Array.isArray(items)) return;
    const listed = new Map<string, ListedRecord>();
    const ids = this.ids.get(user) ?? this.ids.set(user, new Map()).get(user)!;
    for (const r of items.filter(isObject)) {
      if (typeof r.institutionDisclosureName !== 'string') continue;
      const id = typeof r.institutionUserDisclosureId === 'string' ? r.institutionUserDisclosureId : undefined;
      const status =
        typeof r.institutionUserDisclosureStatus === 'string' ? r.institutionUserDisclosureStatus : undefined;
      listed.set(r.institutionDisclosureName, { name: r.institutionDisclosureName, status, id });
      if (id !== undefined) ids.set(id, r.institutionDisclosureName);
    }
    this.users.set(user, { listed, by: s.x.index, touched: new Set() });
  }

  /** Whether the last list of the user showed a record of `name`, with no write to it since (undefined: unknown). */
  has(user: string, name: string): boolean | undefined {
    const view = this.users.get(user);
    if (!view || view.touched.has(name)) return undefined;
    return view.listed.has(name);
  }

  /** The record of `name` as the last list of the user showed it (undefined: not listed, or written since). */
  record(user: string, name: string): Readonly<ListedRecord> | undefined {
    const view = this.users.get(user);
    return view && !view.touched.has(name) ? view.listed.get(name) : undefined;
  }

  /** The last id any list showed for the record of `name` (also once the record is gone: a stale id). */
  lastId(user: string, name: string): string | undefined {
    let last: string | undefined;
    for (const [id, n] of this.ids.get(user) ?? []) if (n === name) last = id;
    return last;
  }

  /** Every institutionUserDisclosureId a list of the user showed. */
  issuedIds(user: string): ReadonlySet<string> {
    return new Set(this.ids.get(user)?.keys() ?? []);
  }

  /** The names the last list of the user showed (whatever was written since). */
  listedNames(user: string): string[] {
    return [...(this.users.get(user)?.listed.keys() ?? [])];
  }
}

/** The state a log shows (entries in the order sent); `writer`: the user the writes are about. */
export function foldUserDisclosures(log: readonly Seen[], writer?: string): UserDisclosureState {
  const state = new UserDisclosureState(writer);
  for (const s of log) state.add(s);
  return state;
}
