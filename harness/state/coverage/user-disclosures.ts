import { inStartOrder } from '../../log/entry';
import type { Seen } from '../../rules/exchange';
import { whoIsWho } from '../../rules/sequence/timeline';
import { outcomeOf } from '../outcome';
import { isUserWrite, UserDisclosureState, writeTarget } from '../user-disclosures';
import { Reached, type FamilyCoverage } from './reached';

/**
 * The users' acceptance records (operations 5–7, read back by operation 4): the state a record was in as the log
 * knew it before a 2xx write (absent, deleted by a write of the log, each status, unknown), the write and its form,
 * and the status it sent. The explorer names what its sequences send in the same words (suites/explore/transitions.ts).
 */

const STATUSES = ['ACCEPTED', 'NOT_ACCEPTED'];
const PRESENT = ['ACCEPTED', 'NOT_ACCEPTED'];
const EVERY = ['absent', 'deleted', ...PRESENT];
/** A transition's name: "<state before> × <operation (form)>[ <value>]". */
export const transition = (from: string, operation: string, value?: string): string =>
  `${from} × ${operation}${value ? ` ${value}` : ''}`;
const t = transition;

/**
 * A create beside several records of the user: the state before is the number of records the user holds, not only
 * the record's own (a list that loses the fifth or sixth record, or its status, hid behind a create the user's first
 * record took). Counted from the sixth record on: its read-back is a list of six or more, which shows every position
 * a fault "from the Nth record on" (N up to six) reaches.
 */
export const SEVERAL_RECORDS = 5;
export const BESIDE_SEVERAL = 'absent, 5 or more records of the user listed';

/** How many records the user holds as the fold knows it: the last list, with the writes since. */
export function heldRecords(ud: UserDisclosureState, user: string): number {
  const names = new Set(ud.listedNames(user));
  for (const [name, m] of ud.moves(user))
    if (m.kind === 'delete') names.delete(name);
    else names.add(name);
  return names.size;
}

/** Every transition a write of a known record can take: a create only where no record is listed. */
export const USER_DISCLOSURE_TRANSITIONS: readonly string[] = [
  ...['absent', 'deleted', BESIDE_SEVERAL].flatMap((f) => STATUSES.map((s) => t(f, 'create', s))),
  ...EVERY.flatMap((f) => STATUSES.map((s) => t(f, 'change (collection)', s))),
  ...PRESENT.flatMap((f) => STATUSES.map((s) => t(f, 'change (by-id)', s))),
  ...EVERY.map((f) => t(f, 'delete (collection)')),
  ...PRESENT.map((f) => t(f, 'delete (by-id)')),
];

/** The state of the user's record of `name` before a write, as the fold knows it. */
function stateBefore(ud: UserDisclosureState, user: string, name: string, deleted: Set<string>): string {
  const move = ud.moves(user).get(name);
  if (move) return move.kind === 'delete' ? 'deleted' : (move.status ?? 'unknown');
  const known = ud.known(user, name);
  if (known === 'absent') return deleted.has(`${user}|${name}`) ? 'deleted' : 'absent';
  const status = known?.institutionUserDisclosureStatus;
  return typeof status === 'string' ? status : 'unknown';
}

export function userDisclosureCoverage(log: readonly Seen[]): FamilyCoverage {
  const sorted = inStartOrder(log);
  const userOf = whoIsWho(sorted, (status) => outcomeOf(status) === 'applied');
  const ud = new UserDisclosureState(userOf);
  const reached = new Reached(USER_DISCLOSURE_TRANSITIONS);
  const deleted = new Set<string>();
  for (const s of sorted) {
    const op = s.mapped.operation;
    if (op === 'listUserDisclosures' && outcomeOf(s.x.status) === 'applied') {
      const user = s.mapped.query.get('InstitutionConsumerId');
      if (user) reached.read((record) => record.startsWith(`${user}|`), s);
    }
    if (!isUserWrite(op)) {
      ud.add(s);
      continue;
    }
    const user = userOf(s);
    const w = writeTarget(s);
    const name = w.byId !== undefined && user ? ud.nameOf(user, w.byId) : w.name;
    const outcome = outcomeOf(s.x.status);
    if (user && name) {
      const record = `${user}|${name}`;
      const form = w.kind === 'create' ? 'create' : `${w.kind} (${w.byId !== undefined ? 'by-id' : 'collection'})`;
      const before = stateBefore(ud, user, name, deleted);
      const beside = w.kind === 'create' && heldRecords(ud, user) >= SEVERAL_RECORDS;
      const from = beside && (before === 'absent' || before === 'deleted') ? BESIDE_SEVERAL : before;
      // A change or delete of a record the user does not have may be refused (what a target answers: not shown):
      // the transition is taken either way, and the next list shows what it did.
      const refusable = before === 'absent' || before === 'deleted';
      if (outcome === 'applied' || (outcome === 'refused' && refusable))
        reached.took(record, t(from, form, w.status), s);
      else if (outcome === 'unknown') reached.lost(record);
      if (outcome === 'applied' && w.kind === 'delete') deleted.add(record);
      if (outcome === 'applied' && w.kind !== 'delete') deleted.delete(record);
    }
    ud.add(s);
  }
  return reached.result('acceptance records (operations 5–7)', 'a later list of the user (operation 4)');
}
