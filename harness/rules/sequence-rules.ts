import {
  absent,
  belongs_to_user,
  new_identifier,
  present,
  records_unchanged,
  shows_none_of,
  value_equals,
  type CheckVerdict,
} from '../checks';
import { served } from '../checks/served';
import { documentedMembers, findDisclosure, listedStatus } from '../disclosure-records';
import type { HttpResult } from '../log/entry';
import type { Known, Seen, Verifier } from './exchange';
import { changeAnswerContradicts } from './institution-disclosures';
import { sentOnce, withoutCredentials } from './request';
import { ContactRules, versionedPath } from './sequence/contact-info';
import { outcomeOf } from '../state/outcome';

/**
 * The state rules of the catalog, judged across the capture's sequence. Only what the traffic
 * proves counts:
 * - a write answered 2xx is a move; one refused (4xx, 429, 503) changes nothing; one whose outcome
 *   is unknown (no answer, 1xx/3xx, another 5xx) makes the record's state unknown until a later list
 *   shows it;
 * - a move is judged by the first list of the same user (institution) that starts after the move's
 *   answer ended (in the same millisecond counts: HAR times are rounded to it), and that no other
 *   write on the same record overlaps;
 * - who a write is about is taken from what the capture shows (the list of the same credential, or
 *   the only user listed); where it cannot be told, the write makes the records it may have touched
 *   unknown, never a failure.
 */

export { outcomeOf };

const isObject = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);

function bodyOf(s: Seen): Record<string, any> {
  try {
    const j = JSON.parse(s.x.requestBody ?? '');
    return isObject(j) ? j : {};
  } catch {
    return {};
  }
}

export interface SequenceNotes {
  /** Per exchange index: what the sequence concluded about state there (unknown outcomes, moves judged). */
  notes: Map<number, string[]>;
}

/** The request rule a 404 breaks on a record known to be there. */
const NOT_FOUND_RULE = {
  changeInstitutionDisclosure: 'OP3-REQUEST',
  changeUserDisclosure: 'OP6-REQUEST',
  changeUserDisclosureById: 'OP6-REQUEST-BY-ID',
  deleteUserDisclosure: 'OP7-REQUEST',
  deleteUserDisclosureById: 'OP7-REQUEST-BY-ID',
} as const;

interface UserMove {
  kind: 'create' | 'change' | 'delete';
  requirement: string;
  by: number;
  status?: string;
  /** For a change: the record was seen (or created) before it. */
  knownPresent?: boolean;
}

interface InstitutionMove {
  requirement: string;
  by: number;
  id?: string;
  name?: string;
  status?: boolean;
  institutionId?: string;
}

const mapOf = <K, V>(m: Map<string, Map<K, V>>, k: string) => m.get(k) ?? m.set(k, new Map()).get(k)!;

interface Write {
  s: Seen;
  /** What it may touch, as keys: ud|user|name, ud|user|*, ud|*|name, id|<id>, id|*, phone|<customer>. */
  keys: string[];
  apply: () => void;
  /** A contact update: the phone number it may put on record ("" for one without phoneNumber, which a faulty target may
   * clear it with); undefined if it cannot be told. */
  setsPhone?: string;
}

/**
 * Judge the state rules over the sequence. `verifierFor(index)` gives the verifier of the exchange
 * that shows the evidence (a list, or the update that names a number).
 */
export function judgeSequence(
  seen: Seen[],
  verifierFor: (index: number) => Verifier,
  known: Known = {},
): SequenceNotes {
  const notes = new Map<number, string[]>();
  const note = (i: number, text: string) => notes.set(i, [...(notes.get(i) ?? []), text]);
  const sorted = [...seen].sort((a, b) => a.x.startMs - b.x.startMs || a.x.index - b.x.index);

  // Who is who: lists name their user; a write is about the user its credential lists (nearly
  // always: a probe of another consumer now and then does not change whose token it is). Where the
  // capture cannot tell credentials apart, the user nearly every list is about.
  const listsBy = new Map<string | undefined, Map<string, number>>();
  for (const s of sorted) {
    if (s.mapped.operation !== 'listUserDisclosures' || outcomeOf(s.x.status) !== 'applied') continue;
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
  const userOf = (s: Seen): string | undefined => {
    const label = s.x.credential?.label;
    if (label === undefined) return principal(undefined);
    if (listsBy.has(label)) return principal(label);
    // A credential no list was made with: only where the capture tells no credentials apart at all.
    return [...listsBy.keys()].some((k) => k !== undefined) ? undefined : principal(undefined);
  };

  // State.
  const ud = new UserRecords(note);
  /** institutionDisclosureId -> the list that showed it, and with which credential. */
  const listedDisclosures = new Map<string, { by: number; label?: string }>();
  const institutionMoves = new Map<string, InstitutionMove>(); // id (or "name:<name>") -> pending move
  const contact = new ContactRules(sorted, known, note);

  const writes: Write[] = [];
  for (const s of sorted) {
    const op = s.mapped.operation;
    const outcome = outcomeOf(s.x.status);
    const i = s.x.index;
    const why =
      outcome === 'unknown'
        ? s.x.status === 0
          ? 'no answer in the capture'
          : `answered ${s.x.status}, outcome unknown`
        : '';
    if (isUserWrite(op)) {
      writes.push(userDisclosureWrite(s, ud, userOf, why));
    } else if (op === 'createInstitutionDisclosure' || op === 'changeInstitutionDisclosure') {
      const id = op === 'changeInstitutionDisclosure' ? s.mapped.pathParams.institutionDisclosureId : undefined;
      writes.push({
        s,
        keys: [id ? `id|${id}` : 'id|*'],
        apply: () => {
          if (outcome === 'refused') return;
          if (outcome === 'unknown') {
            if (id) institutionMoves.delete(id);
            if (id) listedDisclosures.delete(id);
            if (id) note(i, `state unknown of institution disclosure ${id} (${why}) until a later list shows it`);
            return;
          }
          // A change answered for another disclosure, or another name, breaks STATE-ID-CHANGE on its own answer.
          if (id) changeAnswerContradicts(s, verifierFor(i));
          const answered =
            isObject(s.res.json) && typeof s.res.json.institutionDisclosureId === 'string'
              ? s.res.json.institutionDisclosureId
              : undefined;
          const name = sentOnce(s, 'institutionDisclosureName', 'institutionDisclosureName');
          const st = sentOnce(s, 'institutionDisclosureStatus', 'institutionDisclosureStatus');
          const inst = sentOnce(s, 'institutionId', 'institutionId');
          const move: InstitutionMove = {
            requirement: id ? 'STATE-ID-CHANGE' : 'STATE-ID-CREATE',
            by: i,
            id: id ?? answered,
            name: name.known ? name.value : undefined,
            status: st.known && (st.value === 'true' || st.value === 'false') ? st.value === 'true' : undefined,
            institutionId: inst.known ? inst.value : undefined,
          };
          if (!id && answered !== undefined) createdIdIsNew(s, answered, move.name, verifierFor(i));
          if (!move.id && !move.name) return;
          institutionMoves.set(move.id ?? `name:${move.name}`, move);
        },
      });
    } else if (op === 'updateContactInfo') {
      // A refused update changed nothing: it does not keep the number from being judged meanwhile (tests that send only
      // requests to refuse share a customer).
      if (outcome !== 'refused') writes.push(contact.write(s, outcome, why));
    }
  }

  // The timeline: writes take effect when their answer ended; reads are judged when they start.
  // A browser's startedDateTime has millisecond precision (rounded down): an exchange that starts in
  // the millisecond in which another's answer ended (and comes after it in the capture) follows it,
  // as a client that awaits each answer produces them; only a start at least 1 ms before that end is
  // an overlap. The recorder writes microseconds.
  const position = new Map(sorted.map((s, k) => [s, k]));
  const precedes = (a: Seen, b: Seen) =>
    position.get(a)! < position.get(b)! && b.x.startMs > a.x.endMs - b.x.startPrecisionMs;
  const byEnd = [...writes].sort((a, b) => a.s.x.endMs - b.s.x.endMs || a.s.x.index - b.s.x.index);
  const byStart = [...writes].sort((a, b) => position.get(a.s)! - position.get(b.s)!);
  let next = 0;
  /** Writes that ended before the current exchange started, but come after it in the capture (same millisecond). */
  const pending: Write[] = [];
  /** Neither before nor after s: the writes that overlap it (other than the exchange itself). */
  const overlaps = (w: Write, s: Seen) => w.s !== s && !precedes(w.s, s) && !precedes(s, w.s);
  /** Keys of the writes that overlap [start, end] (other than the exchange itself). */
  const overlapping = (s: Seen): Set<string> => {
    const out = new Set<string>();
    for (const w of byStart) {
      if (precedes(s, w.s)) break;
      if (overlaps(w, s)) for (const k of w.keys) out.add(k);
    }
    return out;
  };
  /** The contact updates of a customer that overlap [start, end] (other than the exchange itself). */
  const overlappingPhoneWrites = (s: Seen, key: string): Write[] =>
    byStart.filter((w) => w.keys.includes(key) && overlaps(w, s));
  /** The number a customer's next write names as oldPhoneNumber, where it was served: on record when s was sent. */
  const laterOnRecord = (s: Seen): string | undefined => {
    const key = `phone|${s.mapped.pathParams.customerId}`;
    const next = byStart.find((w) => w.keys.includes(key) && precedes(s, w.s));
    const phone = next && outcomeOf(next.s.x.status) === 'applied' ? bodyOf(next.s).phoneNumber : undefined;
    return isObject(phone) && typeof phone.oldPhoneNumber === 'string' ? phone.oldPhoneNumber : undefined;
  };
  /**
   * RES-DISCLOSURE-ID-UNIQUE across the log: the id a 2xx create answers is not one that a list which ended
   * before the create was sent showed for a disclosure of another name (institution disclosures are never
   * deleted, so such an id is in use). Judged where such a list exists and the name sent is known.
   */
  const createdIdIsNew = (create: Seen, id: string, name: string | undefined, v: Verifier) => {
    if (name === undefined) return;
    const lists = sorted.filter(
      (l) =>
        l.mapped.operation === 'listInstitutionDisclosures' &&
        outcomeOf(l.x.status) === 'applied' &&
        precedes(l, create),
    );
    if (lists.length === 0) return;
    let earlier: { element: Record<string, unknown>; by: number } | undefined;
    for (const l of lists) {
      const items = (l.res.json as { institutionDisclosures?: unknown } | undefined)?.institutionDisclosures;
      const element = Array.isArray(items)
        ? items.filter(isObject).find((o) => o.institutionDisclosureId === id && o.institutionDisclosureName !== name)
        : undefined;
      if (element) earlier ??= { element, by: l.x.index };
    }
    v.verify(
      'RES-DISCLOSURE-ID-UNIQUE',
      new_identifier(id, earlier, `the institutionDisclosureId the create answered`, create.res),
    );
  };
  const busy = (keys: Set<string>, key: string) => {
    const [kind, a, b] = key.split('|');
    if (keys.has(key)) return true;
    if (kind === 'ud') return keys.has(`ud|${a}|*`) || keys.has(`ud|*|${b}`) || keys.has('ud|*|*');
    if (kind === 'id') return keys.has('id|*') && a!.startsWith('name:');
    return false;
  };

  for (const s of sorted) {
    while (next < byEnd.length && byEnd[next]!.s.x.endMs - s.x.startPrecisionMs < s.x.startMs) {
      pending.push(byEnd[next++]!);
    }
    for (let k = 0; k < pending.length; ) {
      if (precedes(pending[k]!.s, s)) pending.splice(k, 1)[0]!.apply();
      else k++;
    }
    const v = verifierFor(s.x.index);
    const op = s.mapped.operation;
    const res = s.res;
    // OP4-OTHER-CONSUMER: a list asked for one consumer shows none of the records an earlier list showed are another's.
    if (op === 'listUserDisclosures' && s.x.status !== 0) {
      theOtherConsumersList(s, ud, (verdict) => v.verify('OP4-OTHER-CONSUMER', verdict));
    }
    if (op === 'listUserDisclosures' && outcomeOf(s.x.status) === 'applied') {
      const busyKeys = overlapping(s);
      judgeUserList(s, v, ud, (key) => busy(busyKeys, key));
    } else if (op === 'listInstitutionDisclosures' && outcomeOf(s.x.status) === 'applied') {
      const items = (res.json as { institutionDisclosures?: unknown } | undefined)?.institutionDisclosures;
      if (!Array.isArray(items)) continue;
      const busyKeys = overlapping(s);
      const objs = items.filter(isObject);
      for (const o of objs) {
        const id = o.institutionDisclosureId;
        if (typeof id !== 'string' || busy(busyKeys, `id|${id}`)) continue;
        listedDisclosures.set(id, { by: s.x.index, label: s.x.credential?.label });
      }
      for (const [key, move] of [...institutionMoves]) {
        if (busy(busyKeys, `id|${key}`)) continue;
        // Only a list of the same institution can show the disclosure.
        if (move.institutionId !== undefined && !objs.some((o) => o.institutionId === move.institutionId)) continue;
        const found = findDisclosure(objs, move.id, move.name ?? '', move.institutionId ?? '');
        const what =
          `the institution disclosure ${move.id ?? `"${move.name}"`} after the 2xx ` +
          `${move.requirement === 'STATE-ID-CREATE' ? 'create' : 'change'} in exchange #${move.by}`;
        institutionMoves.delete(key);
        if (!v.verify(move.requirement, present(found, what, res))) continue;
        if (move.name !== undefined)
          v.verify(
            move.requirement,
            value_equals(
              found!.institutionDisclosureName,
              move.name,
              `the listed institutionDisclosureName (sent in ` + `exchange #${move.by})`,
              res,
            ),
          );
        if (move.status !== undefined) v.verify(move.requirement, listedStatus(found!, move.status, res));
      }
    } else if (s.x.status === 404 && op in NOT_FOUND_RULE) {
      // A 404 on a record a list of the same user (credential) showed, with no write to it since: the
      // record is there, so the operation is not served at the documented path (as an active case judges it).
      const rule = NOT_FOUND_RULE[op as keyof typeof NOT_FOUND_RULE];
      if (op === 'changeInstitutionDisclosure') {
        const id = s.mapped.pathParams.institutionDisclosureId!;
        const listed = listedDisclosures.get(id);
        if (!listed || listed.label !== s.x.credential?.label || institutionMoves.has(id)) continue;
        if (busy(overlapping(s), `id|${id}`)) continue;
        const why = `institution disclosure ${id} was listed by exchange #${listed.by}, with no write to it since`;
        v.verify(rule, served(res, why));
        continue;
      }
      const user = userOf(s);
      const busyHere = (key: string) => busy(overlapping(s), key);
      const why = user === undefined ? undefined : notFoundOnAListedRecord(s, ud, user, busyHere);
      if (why) v.verify(rule, served(res, why));
    } else if (op === 'updateContactInfo') {
      const customer = s.mapped.pathParams.customerId!;
      const key = `phone|${customer}`;
      const meanwhile = busy(overlapping(s), key) ? overlappingPhoneWrites(s, key).map((w) => w.setsPhone) : undefined;
      contact.judgeUpdate(s, v, meanwhile, () => laterOnRecord(s));
    }
  }
  versionedPath(sorted, verifierFor);
  // The writes that ended after the last exchange started: no list follows them.
  for (const w of [...pending, ...byEnd.slice(next)]) w.apply();
  // Moves no later list showed.
  for (const moves of ud.moves.values()) {
    for (const [name, m] of moves) {
      const unseen = `no later list of the user shows the acceptance record of "${name}"`;
      note(m.by, `${unseen}: ${m.requirement} not observed for this move`);
    }
  }
  for (const m of institutionMoves.values())
    note(
      m.by,
      `no later list shows the institution disclosure ` +
        `${m.id ?? `"${m.name}"`}: ${m.requirement} not observed for this move`,
    );
  return { notes };
}

// ---------------------------------------------------------------------------------------------------
// The users' acceptance records (operations 4–7): what the sequence knows of them, and their state rules.

/** The state rule a 2xx write of a user disclosure moves the record under. */
const USER_MOVE_RULE = { create: 'STATE-UD-CREATE', change: 'STATE-UD-CHANGE', delete: 'STATE-UD-DELETE' } as const;

const USER_WRITES = new Set([
  'createUserDisclosure',
  'changeUserDisclosure',
  'deleteUserDisclosure',
  'changeUserDisclosureById',
  'deleteUserDisclosureById',
]);
const isUserWrite = (op: string) => USER_WRITES.has(op);

/** What the sequence knows, per user, of the acceptance records (by institutionDisclosureName). */
class UserRecords {
  /** user -> name -> the 2xx write not yet shown by a list. */
  readonly moves = new Map<string, Map<string, UserMove>>();
  /** user -> name -> last known presence. */
  readonly presence = new Map<string, Map<string, boolean>>();
  /** user -> name -> the list that last showed the record (while its presence is known). */
  readonly shownBy = new Map<string, Map<string, number>>();
  /** user -> institutionUserDisclosureId -> name. */
  readonly idToName = new Map<string, Map<string, string>>();
  /** user -> name -> the record's documented members as last listed, while no write may have touched it since. */
  readonly lastListed = new Map<string, Map<string, Record<string, unknown>>>();
  /**
   * consumer -> the ids of the records its last 2xx list showed are its own, that list, and the institutionUserId
   * they carry where it is not the consumer's (a target that knows the user by an id of its own).
   */
  readonly ownRecords = new Map<string, { ids: Set<string>; by: number; userId?: string }>();
  /**
   * consumer -> the institutionUserId the target gave a record a 2xx create wrote for that consumer, as a later list
   * showed it: the id the target knows the user by, where it is not the one sent as InstitutionConsumerId.
   */
  readonly targetUserIds = new Map<string, { id: string; by: number }>();

  constructor(private readonly note: (i: number, text: string) => void) {}

  /** The record (every record of the user, or of every user) may have been written: unknown until a list shows it. */
  forget(user: string | undefined, name: string | undefined, why: string, by: number): void {
    const every = () => [...new Set([...this.moves.keys(), ...this.presence.keys(), ...this.lastListed.keys()])];
    const users = user ? [user] : every();
    for (const u of users) {
      for (const m of [this.moves.get(u), this.presence.get(u), this.lastListed.get(u)]) {
        if (!m) continue;
        if (name) m.delete(name);
        else m.clear();
      }
    }
    const which = name ? `of the acceptance record of "${name}"` : 'of the acceptance records';
    this.note(by, `state unknown ${which}${user ? ` of user ${user}` : ''} (${why}) until a later list shows it`);
  }
}

/** A create, change or delete of a user disclosure: on which record (by name, or by id through a list) of whom. */
function userDisclosureWrite(s: Seen, ud: UserRecords, userOf: (s: Seen) => string | undefined, why: string): Write {
  const op = s.mapped.operation;
  const outcome = outcomeOf(s.x.status);
  const kind = op.startsWith('create') ? 'create' : op.startsWith('change') ? 'change' : 'delete';
  const user = userOf(s);
  const byId = op.endsWith('ById') ? s.mapped.pathParams.institutionUserDisclosureId : undefined;
  const named = sentOnce(s, 'institutionDisclosureName', 'institutionDisclosureName');
  const statusMember = kind === 'create' ? 'institutionUserDisclosureStatus' : 'institutionDisclosureStatus';
  const status = kind === 'delete' ? { known: false } : sentOnce(s, 'institutionUserDisclosureStatus', statusMember);
  const namedValue = named.known ? named.value : undefined;
  return {
    s,
    keys: [`ud|${user ?? '*'}|${byId ? '*' : (namedValue ?? '*')}`],
    apply: () => {
      const i = s.x.index;
      if (outcome === 'refused') return;
      const name = byId && user ? (ud.idToName.get(user)?.get(byId) ?? namedValue) : namedValue;
      if (outcome === 'unknown') return ud.forget(user, name, why, i);
      if (!user || !name) {
        const cannot = user
          ? 'a 2xx write whose record cannot be told'
          : 'a 2xx write whose user cannot be told from the capture';
        return ud.forget(user, name, cannot, i);
      }
      ud.lastListed.get(user)?.delete(name);
      const moves = mapOf(ud.moves, user);
      const knownPresent = ud.presence.get(user)?.get(name) === true || moves.get(name)?.kind === 'create';
      const sent = status.known ? status.value : undefined;
      moves.set(name, { kind, requirement: USER_MOVE_RULE[kind], by: i, status: sent, knownPresent });
    },
  };
}

/** A 2xx list of a user's acceptance records: the moves since the last list of the user are judged on it. */
function judgeUserList(s: Seen, v: Verifier, ud: UserRecords, busy: (key: string) => boolean): void {
  const user = s.mapped.query.get('InstitutionConsumerId');
  const records = (s.res.json as { institutionUserDisclosures?: unknown } | undefined)?.institutionUserDisclosures;
  if (!user || !Array.isArray(records)) return;
  const busyRecord = (name: string) => busy(`ud|${user}|${name}`);
  const objs = records.filter(isObject);
  const named = objs.filter((r) => typeof r.institutionDisclosureName === 'string');
  const byName = new Map(named.map((r) => [r.institutionDisclosureName as string, r]));
  for (const r of named) {
    const id = r.institutionUserDisclosureId;
    if (typeof id === 'string') mapOf(ud.idToName, user).set(id, r.institutionDisclosureName);
  }
  const moves = [...(ud.moves.get(user) ?? [])];
  // The change and delete moves: the user's other records the last list showed, untouched since, are listed unchanged.
  const touching = moves.filter(([, m]) => m.kind !== 'create').map(([, m]) => m);
  const untouched = (name: string) => !busyRecord(name) && !ud.moves.get(user)?.has(name);
  const others = [...(ud.lastListed.get(user) ?? [])].filter(([name]) => untouched(name));
  if (touching.length && others.length) {
    const verdict = otherRecordsAsTheyWere(
      others.map(([, r]) => r),
      objs,
      touching,
      s.res,
    );
    const kinds = new Set(touching.map((m) => m.kind));
    // A failure is the write's where one kind of write ran; a pass clears every write that ran.
    const told = verdict.outcome !== 'failed' || kinds.size === 1;
    if (told && kinds.has('change')) v.verify('STATE-UD-CHANGE-ONLY-NAMED', verdict);
    if (told && kinds.has('delete')) v.verify('STATE-UD-DELETE-ONLY-NAMED', verdict);
  }
  for (const [name, move] of moves) {
    if (busyRecord(name)) continue;
    const found = byName.get(name);
    const given = found?.institutionUserId;
    if (move.kind === 'create' && typeof given === 'string' && given !== user)
      ud.targetUserIds.set(user, { id: given, by: move.by });
    const what = `the acceptance record of "${name}" after the 2xx ${move.kind} in exchange #${move.by}`;
    if (move.kind === 'delete') v.verify(USER_MOVE_RULE.delete, recordGone(found, what, s.res));
    else if (found || move.kind === 'create' || move.knownPresent) {
      // STATE-UD-CREATE, STATE-UD-CHANGE: the record is listed, with the status sent.
      if (v.verify(move.requirement, recordListed(found, what, s.res)) && move.status !== undefined) {
        v.verify(move.requirement, listedWithStatusSent(found!, name, move, s.res));
      }
    }
    ud.moves.get(user)!.delete(name);
  }
  theUsersRecordsOnly(s, v, user, objs, ud.targetUserIds.get(user));
  const snapshot = new Map<string, Record<string, unknown>>();
  for (const [name, r] of byName) if (!busyRecord(name)) snapshot.set(name, documentedMembers(r));
  ud.lastListed.set(user, snapshot);
  const known = mapOf(ud.presence, user);
  for (const name of known.keys()) if (!busyRecord(name)) known.set(name, byName.has(name));
  for (const name of byName.keys()) {
    if (busyRecord(name)) continue;
    known.set(name, true);
    mapOf(ud.shownBy, user).set(name, s.x.index);
  }
}

/**
 * OP4-ONLY-THE-USERS-RECORDS where the target knows the user by an id of its own: once a list has shown the
 * institutionUserId a record a 2xx create wrote for the consumer carries, every record of a later list asked for
 * that consumer carries it (or the consumer's id). Where the ids are the consumer's, the exchange rule judges.
 */
function theUsersRecordsOnly(
  s: Seen,
  v: Verifier,
  consumer: string,
  records: Record<string, any>[],
  target: { id: string; by: number } | undefined,
): void {
  if (!target || records.some((r) => r.institutionUserId === consumer)) return;
  const ids = new Set([consumer, target.id]);
  records.forEach((r, i) => {
    const where =
      `institutionUserDisclosures[${i}] (the target's id of the user is ${JSON.stringify(target.id)}, as ` +
      `the record created in exchange #${target.by} shows)`;
    v.verify('OP4-ONLY-THE-USERS-RECORDS', belongs_to_user(r, ids, where, s.res));
  });
}

/** The user's other records, as the last list showed them, are listed unchanged after the writes. */
function otherRecordsAsTheyWere(
  others: Record<string, unknown>[],
  listed: Record<string, any>[],
  writes: UserMove[],
  res: HttpResult,
): CheckVerdict {
  const kinds = [...new Set(writes.map((m) => m.kind))].join(' and ');
  const exchanges = `exchange${writes.length > 1 ? 's' : ''} ${writes.map((m) => `#${m.by}`).join(', ')}`;
  const where = `the user's other records (after the 2xx ${kinds} in ${exchanges})`;
  return records_unchanged(others, listed.map(documentedMembers), where, res);
}

/** A record a 2xx create or change wrote is listed. */
const recordListed = (found: unknown, what: string, res: HttpResult) => present(found, what, res);

/** The record a 2xx create or change wrote is listed with the status it sent. */
function listedWithStatusSent(
  found: Record<string, unknown>,
  name: string,
  move: UserMove,
  res: HttpResult,
): CheckVerdict {
  const what = `the listed institutionUserDisclosureStatus of "${name}" (sent in exchange #${move.by})`;
  return value_equals(found.institutionUserDisclosureStatus, move.status, what, res);
}

/** A record a 2xx delete removed is no longer listed. */
const recordGone = (found: unknown, what: string, res: HttpResult) => absent(found, what, res);

/**
 * A 404 to a change or delete of an acceptance record a list of the same user (credential) showed, with
 * no write to it since: the record is there, so the operation is not served at the documented path.
 */
function notFoundOnAListedRecord(
  s: Seen,
  ud: UserRecords,
  user: string,
  busy: (key: string) => boolean,
): string | undefined {
  const byId = s.mapped.pathParams.institutionUserDisclosureId;
  const named = sentOnce(s, 'institutionDisclosureName', 'institutionDisclosureName');
  const name = byId !== undefined ? ud.idToName.get(user)?.get(byId) : named.known ? named.value : undefined;
  const by = name === undefined ? undefined : ud.shownBy.get(user)?.get(name);
  if (name === undefined || by === undefined || ud.presence.get(user)?.get(name) !== true) return undefined;
  if (ud.moves.get(user)?.has(name) || busy(`ud|${user}|${name}`)) return undefined;
  const record = byId !== undefined ? `${byId} ("${name}")` : `"${name}"`;
  return `the acceptance record ${record} of user ${user} was listed by exchange #${by}, with no write since`;
}

/**
 * A list asked for consumer Y (answered) shows none of the records an earlier 2xx list of consumer X
 * showed are X's (carrying institutionUserId X; every record of it where none names a user): none
 * carrying X, none with the institutionUserDisclosureId of one of them. A refusal with credentials
 * shows none. `judge` gets the verdict for each other consumer; then a 2xx list of Y becomes what is
 * known of Y's records.
 */
function theOtherConsumersList(s: Seen, ud: UserRecords, judge: (v: CheckVerdict) => void): void {
  const asked = s.mapped.query.get('InstitutionConsumerId');
  if (!asked) return;
  // A refusal of a request without valid credentials says nothing of the consumer asked for.
  if (outcomeOf(s.x.status) !== 'applied' && (withoutCredentials(s) || s.authority === 'made-up')) return;
  const listed = (s.res.json as { institutionUserDisclosures?: unknown } | undefined)?.institutionUserDisclosures;
  const records = outcomeOf(s.x.status) === 'applied' && Array.isArray(listed) ? listed.filter(isObject) : [];
  for (const [consumer, own] of ud.ownRecords) {
    if (consumer === asked) continue;
    const isTheirs = (r: Record<string, unknown>) =>
      r.institutionUserId === consumer ||
      (own.userId !== undefined && r.institutionUserId === own.userId) ||
      (typeof r.institutionUserDisclosureId === 'string' && own.ids.has(r.institutionUserDisclosureId));
    judge(shows_none_of(records, isTheirs, `user ${consumer} (as listed by exchange #${own.by})`, s.res));
  }
  if (outcomeOf(s.x.status) !== 'applied' || !Array.isArray(listed)) return;
  // Where no record names its user (no institutionUserId string), the list's records are taken as the consumer's;
  // so are they where none names the consumer and all name one user (a target that knows the user by its own id).
  const userIds = new Set(records.map((r) => r.institutionUserId).filter((u): u is string => typeof u === 'string'));
  const ownId = !userIds.has(asked) && userIds.size === 1 ? [...userIds][0] : undefined;
  const theirs =
    userIds.size === 0 || ownId !== undefined ? records : records.filter((r) => r.institutionUserId === asked);
  if (theirs.length === 0) return;
  const ids = theirs.map((r) => r.institutionUserDisclosureId).filter((id): id is string => typeof id === 'string');
  ud.ownRecords.set(asked, { ids: new Set(ids), by: s.x.index, userId: ownId });
}
