import { absent, not_served, present, records_unchanged, value_equals } from '../checks';
import { served } from '../checks/served';
import { documentedMembers, findDisclosure, listedStatus } from '../disclosure-records';
import type { Seen, Verifier } from './exchange';
import { changeAnswerContradicts } from './institution-disclosures';
import { sentOnce } from './request';

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

type Outcome = 'applied' | 'refused' | 'unknown';

export function outcomeOf(status: number): Outcome {
  if (status >= 200 && status < 300) return 'applied';
  if ((status >= 400 && status < 500) || status === 503) return 'refused';
  return 'unknown';
}

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

interface PhoneState {
  number?: string;
  /** The rule a later acceptance of `number` proves. */
  numberRule?: string;
  numberBy?: number;
  previous?: string;
  previousRule?: string;
  previousBy?: number;
}

const digits = (s: string) => s.replace(/\D/g, '');
/** Two numbers that are certainly different (not the same digits written otherwise, not one with a country code prefixed). */
function certainlyDifferent(a: string, b: string): boolean {
  const x = digits(a);
  const y = digits(b);
  if (x === '' || y === '') return a.trim() !== b.trim();
  return x !== y && !x.endsWith(y) && !y.endsWith(x);
}
const sameNumber = (a: string, b: string) => a === b || (digits(a) !== '' && digits(a) === digits(b));

interface Write {
  s: Seen;
  /** What it may touch, as keys: ud|user|name, ud|user|*, ud|*|name, id|<id>, id|*, phone|<customer>. */
  keys: string[];
  apply: () => void;
  /** A contact update: the phone number it may put on record ("" for one without phoneNumber, which a faulty target may clear it with); undefined if it cannot be told. */
  setsPhone?: string;
}

/**
 * Judge the state rules over the sequence. `verifierFor(index)` gives the verifier of the exchange
 * that shows the evidence (a list, or the update that names a number).
 */
export function judgeSequence(seen: Seen[], verifierFor: (index: number) => Verifier): SequenceNotes {
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
  const userMoves = new Map<string, Map<string, UserMove>>(); // user -> name -> pending move
  const presence = new Map<string, Map<string, boolean>>(); // user -> name -> last known presence
  /** user -> name -> the list that last showed the record (while its presence is known). */
  const shownBy = new Map<string, Map<string, number>>();
  /** institutionDisclosureId -> the list that showed it, and with which credential. */
  const listedDisclosures = new Map<string, { by: number; label?: string }>();
  const idToName = new Map<string, Map<string, string>>(); // user -> institutionUserDisclosureId -> name
  /** user -> name -> the record's documented members as last listed, while no write may have touched it since. */
  const lastListed = new Map<string, Map<string, Record<string, unknown>>>();
  const institutionMoves = new Map<string, InstitutionMove>(); // id (or "name:<name>") -> pending move
  const phones = new Map<string, PhoneState>();
  const mapOf = <K, V>(m: Map<string, Map<K, V>>, k: string) => m.get(k) ?? m.set(k, new Map()).get(k)!;

  const forget = (user: string | undefined, name: string | undefined, why: string, by: number) => {
    const users = user ? [user] : [...new Set([...userMoves.keys(), ...presence.keys(), ...lastListed.keys()])];
    for (const u of users) {
      for (const m of [userMoves.get(u), presence.get(u), lastListed.get(u)]) {
        if (!m) continue;
        if (name) m.delete(name);
        else m.clear();
      }
    }
    note(by, `state unknown ${name ? `of the acceptance record of "${name}"` : 'of the acceptance records'}${user ? ` of user ${user}` : ''} (${why}) until a later list shows it`);
  };

  const writes: Write[] = [];
  for (const s of sorted) {
    const op = s.mapped.operation;
    const outcome = outcomeOf(s.x.status);
    const i = s.x.index;
    const why = outcome === 'unknown' ? (s.x.status === 0 ? 'no answer in the capture' : `answered ${s.x.status}, outcome unknown`) : '';
    if (op === 'createUserDisclosure' || op === 'changeUserDisclosure' || op === 'deleteUserDisclosure' || op === 'changeUserDisclosureById' || op === 'deleteUserDisclosureById') {
      const kind = op.startsWith('create') ? 'create' : op.startsWith('change') ? 'change' : 'delete';
      const user = userOf(s);
      const byId = op.endsWith('ById') ? s.mapped.pathParams.institutionUserDisclosureId : undefined;
      const named = sentOnce(s, 'institutionDisclosureName', 'institutionDisclosureName');
      const status = kind === 'create' ? sentOnce(s, 'institutionUserDisclosureStatus', 'institutionUserDisclosureStatus') : kind === 'change' ? sentOnce(s, 'institutionUserDisclosureStatus', 'institutionDisclosureStatus') : { known: false };
      const keys = [`ud|${user ?? '*'}|${byId ? '*' : named.known ? named.value : '*'}`];
      writes.push({
        s,
        keys,
        apply: () => {
          if (outcome === 'refused') return;
          const name = byId && user ? idToName.get(user)?.get(byId) ?? (named.known ? named.value : undefined) : named.known ? named.value : undefined;
          if (outcome === 'unknown') return forget(user, name, why, i);
          if (!user || !name) return forget(user, name, user ? 'a 2xx write whose record cannot be told' : 'a 2xx write whose user cannot be told from the capture', i);
          const requirement = kind === 'create' ? 'STATE-UD-CREATE' : kind === 'change' ? 'STATE-UD-CHANGE' : 'STATE-UD-DELETE';
          lastListed.get(user)?.delete(name);
          mapOf(userMoves, user).set(name, { kind, requirement, by: i, status: status.known ? status.value : undefined, knownPresent: presence.get(user)?.get(name) === true || mapOf(userMoves, user).get(name)?.kind === 'create' });
        },
      });
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
          const answered = isObject(s.res.json) && typeof s.res.json.institutionDisclosureId === 'string' ? s.res.json.institutionDisclosureId : undefined;
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
          if (!move.id && !move.name) return;
          institutionMoves.set(move.id ?? `name:${move.name}`, move);
        },
      });
    } else if (op === 'updateContactInfo') {
      const customer = s.mapped.pathParams.customerId!;
      const body = bodyOf(s);
      const phone = isObject(body.phoneNumber) ? body.phoneNumber : undefined;
      const allThree = ['phoneNumber', 'email', 'postalAddress'].every((k) => isObject(body[k]));
      // A refused update changed nothing: it does not keep the number from being judged meanwhile (tests that send only requests to refuse share a customer).
      if (outcome === 'refused') continue;
      writes.push({
        s,
        keys: [`phone|${customer}`],
        setsPhone: phone ? (typeof phone.newPhoneNumber === 'string' ? phone.newPhoneNumber : undefined) : '',
        apply: () => {
          if (outcome === 'unknown') {
            phones.set(customer, {});
            return note(i, `phone number on record of customer ${customer} unknown (${why}) until a later update proves it`);
          }
          const st = phones.get(customer) ?? {};
          if (phone && typeof phone.newPhoneNumber === 'string') {
            const rule = allThree ? 'OP10-RULE3-PHONE-STORED' : 'OP10-RULE1-PHONE-STORED';
            phones.set(customer, { number: phone.newPhoneNumber, numberRule: rule, numberBy: i, previous: typeof phone.oldPhoneNumber === 'string' ? phone.oldPhoneNumber : undefined, previousRule: rule, previousBy: i });
          } else if (!phone && st.number !== undefined) {
            phones.set(customer, { ...st, numberRule: 'OP10-RULE1-UNSUPPLIED-KEPT', numberBy: i });
          } else if (phone) phones.set(customer, {});
        },
      });
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
    if (op === 'listUserDisclosures' && outcomeOf(s.x.status) === 'applied') {
      const user = s.mapped.query.get('InstitutionConsumerId');
      const records = (res.json as { institutionUserDisclosures?: unknown } | undefined)?.institutionUserDisclosures;
      if (!user || !Array.isArray(records)) continue;
      const busyKeys = overlapping(s);
      const objs = records.filter(isObject);
      const byName = new Map(objs.filter((r) => typeof r.institutionDisclosureName === 'string').map((r) => [r.institutionDisclosureName as string, r]));
      for (const r of objs) if (typeof r.institutionUserDisclosureId === 'string' && typeof r.institutionDisclosureName === 'string') mapOf(idToName, user).set(r.institutionUserDisclosureId, r.institutionDisclosureName);
      // The change or delete moves since the last list of the user: the other records it listed, untouched since, are listed unchanged.
      const moves = [...(userMoves.get(user) ?? [])].filter(([, m]) => m.kind !== 'create');
      const kinds = new Set(moves.map(([, m]) => m.kind));
      const others = [...(lastListed.get(user) ?? [])].filter(([name]) => !busy(busyKeys, `ud|${user}|${name}`) && !userMoves.get(user)?.has(name));
      if (moves.length && kinds.size === 1 && others.length) {
        const requirement = kinds.has('change') ? 'STATE-UD-CHANGE-ONLY-NAMED' : 'STATE-UD-DELETE-ONLY-NAMED';
        v.verify(requirement, records_unchanged(others.map(([, r]) => r), objs.map(documentedMembers), `the user's other records (after the 2xx ${[...kinds][0]} in exchange${moves.length > 1 ? 's' : ''} ${moves.map(([, m]) => `#${m.by}`).join(', ')})`, res));
      }
      for (const [name, move] of [...(userMoves.get(user) ?? [])]) {
        if (busy(busyKeys, `ud|${user}|${name}`)) continue;
        const found = byName.get(name);
        const what = `the acceptance record of "${name}" after the 2xx ${move.kind} in exchange #${move.by}`;
        if (move.kind === 'delete') v.verify(move.requirement, absent(found, what, res));
        else if (found || move.kind === 'create' || move.knownPresent) {
          if (v.verify(move.requirement, present(found, what, res)) && move.status !== undefined) v.verify(move.requirement, value_equals(found!.institutionUserDisclosureStatus, move.status, `the listed institutionUserDisclosureStatus of "${name}" (sent in exchange #${move.by})`, res));
        }
        userMoves.get(user)!.delete(name);
      }
      const snapshot = new Map<string, Record<string, unknown>>();
      for (const [name, r] of byName) if (!busy(busyKeys, `ud|${user}|${name}`)) snapshot.set(name, documentedMembers(r));
      lastListed.set(user, snapshot);
      const known = mapOf(presence, user);
      for (const name of known.keys()) if (!busy(busyKeys, `ud|${user}|${name}`)) known.set(name, byName.has(name));
      for (const name of byName.keys()) {
        if (busy(busyKeys, `ud|${user}|${name}`)) continue;
        known.set(name, true);
        mapOf(shownBy, user).set(name, s.x.index);
      }
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
        const what = `the institution disclosure ${move.id ?? `"${move.name}"`} after the 2xx ${move.requirement === 'STATE-ID-CREATE' ? 'create' : 'change'} in exchange #${move.by}`;
        institutionMoves.delete(key);
        if (!v.verify(move.requirement, present(found, what, res))) continue;
        if (move.name !== undefined) v.verify(move.requirement, value_equals(found!.institutionDisclosureName, move.name, `the listed institutionDisclosureName (sent in exchange #${move.by})`, res));
        if (move.status !== undefined) v.verify(move.requirement, listedStatus(found!, move.status, res));
      }
    } else if (s.x.status === 404 && (op in NOT_FOUND_RULE)) {
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
      if (!user) continue;
      const byId = s.mapped.pathParams.institutionUserDisclosureId;
      const named = sentOnce(s, 'institutionDisclosureName', 'institutionDisclosureName');
      const name = byId !== undefined ? idToName.get(user)?.get(byId) : named.known ? named.value : undefined;
      const by = name === undefined ? undefined : shownBy.get(user)?.get(name);
      if (name === undefined || by === undefined || presence.get(user)?.get(name) !== true) continue;
      if (userMoves.get(user)?.has(name)) continue;
      if (busy(overlapping(s), `ud|${user}|${name}`)) continue;
      const record = byId !== undefined ? `${byId} ("${name}")` : `"${name}"`;
      const why = `the acceptance record ${record} of user ${user} was listed by exchange #${by}, with no write since`;
      v.verify(rule, served(res, why));
    } else if (op === 'updateContactInfo') {
      const customer = s.mapped.pathParams.customerId!;
      const phone = bodyOf(s).phoneNumber;
      const st = phones.get(customer);
      const outcome = outcomeOf(s.x.status);
      if (!isObject(phone) || typeof phone.oldPhoneNumber !== 'string' || st?.number === undefined || outcome === 'unknown') continue;
      const old = phone.oldPhoneNumber;
      if (busy(overlapping(s), `phone|${customer}`)) {
        // Updates ran meanwhile (e.g. several requests to refuse, side by side): only a mismatch with every number that can be on record is judged.
        const meanwhile = overlappingPhoneWrites(s, `phone|${customer}`).map((w) => w.setsPhone);
        const numbers = [st.number, ...(st.previous === undefined ? [] : [st.previous])];
        if (meanwhile.every((n): n is string => n !== undefined) && [...numbers, ...meanwhile].every((n) => certainlyDifferent(old, n))) {
          v.verify('OP10-RULE2-OLD-PHONE-MATCH', not_served(res, `oldPhoneNumber ${old} is not the number on record (${st.number} since exchange #${st.numberBy}), nor any number the updates sent meanwhile may have put there`));
        }
        continue;
      }
      if (sameNumber(old, st.number)) {
        if (outcome === 'applied') v.verify(st.numberRule!, served(res, `oldPhoneNumber ${old} is the number on record after the 2xx update in exchange #${st.numberBy}`));
      } else if (st.previous !== undefined && sameNumber(old, st.previous)) {
        v.verify(st.previousRule!, not_served(res, `oldPhoneNumber ${old} is the previous number, replaced by the 2xx update in exchange #${st.previousBy}`));
      } else if (certainlyDifferent(old, st.number) && (st.previous === undefined || certainlyDifferent(old, st.previous))) {
        v.verify('OP10-RULE2-OLD-PHONE-MATCH', not_served(res, `oldPhoneNumber ${old} is not the number on record (${st.number} since exchange #${st.numberBy})`));
      }
    }
  }
  // The writes that ended after the last exchange started: no list follows them.
  for (const w of [...pending, ...byEnd.slice(next)]) w.apply();
  // Moves no later list showed.
  for (const moves of userMoves.values()) for (const [name, m] of moves) note(m.by, `no later list of the user shows the acceptance record of "${name}": ${m.requirement} not observed for this move`);
  for (const m of institutionMoves.values()) note(m.by, `no later list shows the institution disclosure ${m.id ?? `"${m.name}"`}: ${m.requirement} not observed for this move`);
  return { notes };
}
