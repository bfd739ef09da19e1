import {
  absent,
  belongs_to_user,
  present,
  records_unchanged,
  shows_none_of,
  value_equals,
  type CheckVerdict,
} from '../../checks';
import { served } from '../../checks/served';
import { documentedMembers } from '../../disclosure-records';
import type { HttpResult } from '../../log/entry';
import { outcomeOf } from '../../state/outcome';
import {
  isUserWrite,
  listedRecords,
  showsOtherStatuses,
  writeTarget,
  type UserDisclosureState,
  type UserMove,
} from '../../state/user-disclosures';
import type { Seen, Verifier } from '../exchange';
import { sentOnce, withoutCredentials } from '../request';
import { busy, unknownWhy, type Note, type Timeline, type Write } from './timeline';

/**
 * The state rules of the users' acceptance records (operations 4–7), judged across the log. What the log shows of
 * the records is the fold harness/state/user-disclosures.ts: a write's answer moves it, a list is judged on what it
 * knew before, then folded in. Who a write is about is taken from what the log shows (timeline.ts, whoIsWho);
 * where it cannot be told, the write makes the records it may have touched unknown, never a failure.
 */

/** The state rule a 2xx write of a user disclosure moves the record under. */
const USER_MOVE_RULE = { create: 'STATE-UD-CREATE', change: 'STATE-UD-CHANGE', delete: 'STATE-UD-DELETE' } as const;

/** The request rule a 404 breaks on a record known to be there. */
const NOT_FOUND_RULE: Record<string, string> = {
  changeUserDisclosure: 'OP6-REQUEST',
  changeUserDisclosureById: 'OP6-REQUEST-BY-ID',
  deleteUserDisclosure: 'OP7-REQUEST',
  deleteUserDisclosureById: 'OP7-REQUEST-BY-ID',
};

/** A create, change or delete of a user disclosure as a write of the timeline (undefined: not one). */
export function userDisclosureWrite(
  s: Seen,
  ud: UserDisclosureState,
  userOf: (s: Seen) => string | undefined,
  note: Note,
): Write | undefined {
  if (!isUserWrite(s.mapped.operation)) return undefined;
  const user = userOf(s);
  const w = writeTarget(s);
  return {
    s,
    keys: [`ud|${user ?? '*'}|${w.byId !== undefined ? '*' : (w.name ?? '*')}`],
    apply: () => {
      const forgot = ud.write(s, user);
      if (!forgot) return;
      const which = forgot.name ? `of the acceptance record of "${forgot.name}"` : 'of the acceptance records';
      const why = forgot.cannot ?? unknownWhy(s);
      note(s.x.index, `state unknown ${which}${user ? ` of user ${user}` : ''} (${why}) until a later list shows it`);
    },
  };
}

/** Judge one exchange of the users' acceptance records at its start (reads, and 404s on a record listed). */
export function judgeUserStep(
  s: Seen,
  v: Verifier,
  ud: UserDisclosureState,
  tl: Timeline,
  userOf: (s: Seen) => string | undefined,
): void {
  const op = s.mapped.operation;
  if (op === 'listUserDisclosures' && s.x.status !== 0) {
    // OP4-OTHER-CONSUMER: a list asked for one consumer shows none of the records an earlier list showed are another's.
    theOtherConsumersList(s, ud, (verdict) => v.verify('OP4-OTHER-CONSUMER', verdict));
    ud.consumerListed(s);
    if (outcomeOf(s.x.status) === 'applied') judgeUserList(s, v, ud, tl);
  } else if (s.x.status === 404 && NOT_FOUND_RULE[op]) {
    // A 404 on a record a list of the same user (credential) showed, with no write to it since: the
    // record is there, so the operation is not served at the documented path (as an active case judges it).
    const user = userOf(s);
    const why = user === undefined ? undefined : notFoundOnAListedRecord(s, ud, user, tl);
    if (why) v.verify(NOT_FOUND_RULE[op]!, served(s.res, why));
  }
}

/** Note the moves no later list showed. */
export function unseenUserMoves(ud: UserDisclosureState, note: Note): void {
  for (const user of ud.usersWithMoves()) {
    for (const [name, m] of ud.moves(user)) {
      const unseen = `no later list of the user shows the acceptance record of "${name}"`;
      note(m.by, `${unseen}: ${USER_MOVE_RULE[m.kind]} not observed for this move`);
    }
  }
}

/** A 2xx list of a user's acceptance records: the moves since the last list of the user are judged on it. */
function judgeUserList(s: Seen, v: Verifier, ud: UserDisclosureState, tl: Timeline): void {
  const user = s.mapped.query.get('InstitutionConsumerId');
  const objs = listedRecords(s);
  if (!user || !objs) return;
  const busyKeys = tl.overlapping(s);
  const busyRecord = (name: string) => busy(busyKeys, `ud|${user}|${name}`);
  const byName = new Map(
    objs.filter((r) => typeof r.institutionDisclosureName === 'string').map((r) => [r.institutionDisclosureName, r]),
  );
  const moves = [...ud.moves(user)];
  // The change and delete moves: the user's other records the last list showed, untouched since, are listed unchanged.
  const touching = moves.filter(([, m]) => m.kind !== 'create').map(([, m]) => m);
  const others = [...ud.lastListed(user)].filter(([name]) => !busyRecord(name) && !ud.moves(user).has(name));
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
  // "4. List the disclosures accepted by a user": until a list of the user shows a record of another status, a list
  // may hold the ACCEPTED records only, and a record a write left in another status may be missing from it.
  const acceptedOnly = ud.mayListAcceptedOnly(user) && !showsOtherStatuses(objs);
  for (const [name, move] of moves)
    if (!busyRecord(name)) judgeMove(v, name, move, byName.get(name), s.res, acceptedOnly);
  ud.list(s, busyRecord);
  theUsersRecordsOnly(s, v, user, objs, ud.targetUserId(user));
}

/** STATE-UD-CREATE, STATE-UD-CHANGE, STATE-UD-DELETE: the list shows the record as the 2xx write left it. */
function judgeMove(
  v: Verifier,
  name: string,
  move: UserMove,
  found: Record<string, any> | undefined,
  res: HttpResult,
  acceptedOnly: boolean,
) {
  const what = `the acceptance record of "${name}" after the 2xx ${move.kind} in exchange #${move.by}`;
  const rule = USER_MOVE_RULE[move.kind];
  const notAccepted = move.status !== undefined && move.status.toUpperCase() !== 'ACCEPTED';
  if (move.kind === 'delete') v.verify(rule, absent(found, what, res));
  else if (!found && acceptedOnly && notAccepted) return;
  else if (found || move.kind === 'create' || move.knownPresent) {
    // The record is listed, with the status sent.
    if (v.verify(rule, present(found, what, res)) && move.status !== undefined) {
      v.verify(rule, listedWithStatusSent(found!, name, move, res));
    }
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
  others: Readonly<Record<string, unknown>>[],
  listed: Record<string, any>[],
  writes: Readonly<UserMove>[],
  res: HttpResult,
): CheckVerdict {
  const kinds = [...new Set(writes.map((m) => m.kind))].join(' and ');
  const exchanges = `exchange${writes.length > 1 ? 's' : ''} ${writes.map((m) => `#${m.by}`).join(', ')}`;
  const where = `the user's other records (after the 2xx ${kinds} in ${exchanges})`;
  return records_unchanged(others as Record<string, unknown>[], listed.map(documentedMembers), where, res);
}

/** The record a 2xx create or change wrote is listed with the status it sent. */
function listedWithStatusSent(
  found: Record<string, unknown>,
  name: string,
  move: Readonly<UserMove>,
  res: HttpResult,
): CheckVerdict {
  const what = `the listed institutionUserDisclosureStatus of "${name}" (sent in exchange #${move.by})`;
  return value_equals(found.institutionUserDisclosureStatus, move.status, what, res);
}

/**
 * A 404 to a change or delete of an acceptance record a list of the same user (credential) showed, with
 * no write to it since: the record is there, so the operation is not served at the documented path.
 */
function notFoundOnAListedRecord(s: Seen, ud: UserDisclosureState, user: string, tl: Timeline): string | undefined {
  // A business customer or an account type the target does not know ("mandatory for business banking requests", "a
  // valid account type of the platform") is a reason for a 404 the list cannot tell from a missing record.
  if (['InstitutionCustomerId', 'AccountType'].some((q) => s.mapped.query.has(q))) return undefined;
  const byId = s.mapped.pathParams.institutionUserDisclosureId;
  const named = sentOnce(s, 'institutionDisclosureName', 'institutionDisclosureName');
  const name = byId !== undefined ? ud.nameOf(user, byId) : named.known ? named.value : undefined;
  const by = name === undefined ? undefined : ud.listedBy(user, name);
  if (name === undefined || by === undefined || tl.busyAt(s, `ud|${user}|${name}`)) return undefined;
  const record = byId !== undefined ? `${byId} ("${name}")` : `"${name}"`;
  return `the acceptance record ${record} of user ${user} was listed by exchange #${by}, with no write since`;
}

/**
 * A list asked for consumer Y (answered) shows none of the records an earlier 2xx list of consumer X
 * showed are X's (carrying institutionUserId X; every record of it where none names a user): none
 * carrying X, none with the institutionUserDisclosureId of one of them. A refusal with credentials
 * shows none. `judge` gets the verdict for each other consumer.
 */
function theOtherConsumersList(s: Seen, ud: UserDisclosureState, judge: (v: CheckVerdict) => void): void {
  const asked = s.mapped.query.get('InstitutionConsumerId');
  if (!asked) return;
  // A refusal of a request without valid credentials says nothing of the consumer asked for.
  if (outcomeOf(s.x.status) !== 'applied' && (withoutCredentials(s) || s.authority === 'made-up')) return;
  const records = listedRecords(s) ?? [];
  for (const [consumer, own] of ud.ownRecords()) {
    if (consumer === asked) continue;
    const isTheirs = (r: Record<string, unknown>) =>
      r.institutionUserId === consumer ||
      (own.userId !== undefined && r.institutionUserId === own.userId) ||
      (typeof r.institutionUserDisclosureId === 'string' && own.ids.has(r.institutionUserDisclosureId));
    judge(shows_none_of(records, isTheirs, `user ${consumer} (as listed by exchange #${own.by})`, s.res));
  }
}
