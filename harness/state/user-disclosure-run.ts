import { inStartOrder, type Seen } from '../log/entry';
import type { RunLog } from '../log/run-log';
import { Timeline, type Write } from '../rules/sequence/timeline';
import { outcomeOf } from './outcome';
import { listedRecords } from './user-disclosure-owners';
import { isUserWrite, writeTarget } from './user-disclosure-writes';
import { UserDisclosureState } from './user-disclosures';

/**
 * What the run's whole log (harness/log/run-log.ts) says of one user's acceptance records, as the drivers ask it
 * before they write one (issue 32: the drivers keep no tracker of their own). It is the fold of user-disclosures.ts
 * fed the way the state rules feed it (harness/rules/sequence/timeline.ts): a write takes effect when its answer
 * ended, a list shows the records as they were when it started, and a list that a write of a record overlaps leaves
 * that record as it was. A refused write changed nothing (outcome.ts). Every write of the log is taken as the
 * user's (an active run writes with one user's credentials): a write of another user can only make a record
 * unknown, never known to be absent.
 */
export interface UserRecordsOfTheRun {
  /**
   * The user has no record of `name` now: the last list of the user that shows the record's state showed none, and
   * no write of it landed or may have landed since (a write whose outcome is unknown, one that names no record).
   */
  noRecord(name: string): boolean;
  /**
   * The user has a record of `name` this run did not create, or could not remove: a list showed it while the run
   * held no record of it (before any create of it by the run, or once a list showed the run's record gone), or
   * after a delete of it that was not refused.
   */
  notOurs(name: string): boolean;
  /**
   * What the log says the user's record of `name` is now (UserDisclosureState.known): as the last list showed it, or
   * as a 2xx create or change since left it; 'absent'; undefined where the log cannot tell.
   */
  known(name: string): Record<string, unknown> | 'absent' | undefined;
}

/**
 * A list the records' state is read from: one with the operator's credentials as configured (or a capture's, which
 * cannot tell), at the documented path. What a target answers to credentials it never issued, or to a probe, is
 * judged by the rules, never taken for the user's records.
 */
const shows = (s: Seen): boolean => !s.undocumentedPath && (s.authority === undefined || s.authority === 'configured');

/** The answer of a write of a user disclosure: its record's name (by id: as any list of the user showed that id). */
function nameOf(s: Seen, ids: ReadonlyMap<string, string>): string | undefined {
  const w = writeTarget(s);
  return w.byId !== undefined ? (ids.get(w.byId) ?? w.name) : w.name;
}

/** Every institutionUserDisclosureId a 2xx list of the user showed, with its record's name. */
function listedIds(log: readonly Seen[], user: string): Map<string, string> {
  const ids = new Map<string, string>();
  for (const s of log) {
    if (s.mapped.operation !== 'listUserDisclosures' || s.mapped.query.get('InstitutionConsumerId') !== user) continue;
    if (!shows(s)) continue;
    for (const r of listedRecords(s) ?? [])
      if (typeof r.institutionUserDisclosureId === 'string' && typeof r.institutionDisclosureName === 'string')
        ids.set(r.institutionUserDisclosureId, r.institutionDisclosureName);
  }
  return ids;
}

/** Which records are the run's own: from a create's start to a list that shows them gone, or a delete's end. */
class Ownership {
  private readonly ours = new Set<string>();
  /** A create naming no record the log can tell ran since the last list: any record listed may be the run's. */
  private anyOurs = false;
  readonly foreign = new Set<string>();

  created(name: string | undefined): void {
    if (name === undefined) this.anyOurs = true;
    else this.ours.add(name);
  }

  removed(name: string | undefined): void {
    if (name !== undefined) this.ours.delete(name);
  }

  /** A 2xx list of the user: a record it shows that the run does not hold is not the run's. */
  listed(shown: ReadonlySet<string>, busy: (name: string) => boolean): void {
    for (const name of shown) if (!busy(name) && !this.anyOurs && !this.ours.has(name)) this.foreign.add(name);
    for (const name of [...this.ours]) if (!busy(name) && !shown.has(name)) this.ours.delete(name);
    this.anyOurs = false;
  }
}

/** The records of the user, by name, that a 2xx list shows (undefined: not a 2xx list of the user). */
function shownBy(s: Seen, user: string): Set<string> | undefined {
  if (s.mapped.operation !== 'listUserDisclosures' || s.mapped.query.get('InstitutionConsumerId') !== user) return;
  const records = listedRecords(s);
  if (!records) return undefined;
  return new Set(records.map((r) => r.institutionDisclosureName).filter((n): n is string => typeof n === 'string'));
}

/** The user's records as `log` (the run's entries, in any order) shows them now. */
export function userRecordsOfTheRun(log: readonly Seen[], user: string): UserRecordsOfTheRun {
  const sorted = inStartOrder(log);
  const ud = new UserDisclosureState(user);
  const own = new Ownership();
  const ids = listedIds(sorted, user);
  const tl = new Timeline(sorted);
  const writes: Write[] = [];
  for (const s of sorted) {
    if (!isUserWrite(s.mapped.operation) || outcomeOf(s.x.status) === 'refused') continue;
    const name = nameOf(s, ids);
    const removes = writeTarget(s).kind === 'delete';
    const apply = () => {
      ud.write(s, user);
      if (removes) own.removed(name);
    };
    writes.push({ s, keys: [`ud|${user}|${name ?? '*'}`], apply });
  }
  tl.schedule(writes);
  for (const s of sorted) {
    tl.advanceTo(s);
    const op = s.mapped.operation;
    if (op === 'createUserDisclosure' && outcomeOf(s.x.status) !== 'refused') own.created(nameOf(s, ids));
    if (op !== 'listUserDisclosures' || s.x.status === 0 || !shows(s)) continue;
    const busyRecord = (name: string) => tl.busyAt(s, `ud|${user}|${name}`);
    const shown = shownBy(s, user);
    if (shown) own.listed(shown, busyRecord);
    ud.list(s, busyRecord);
  }
  tl.finish();
  return {
    noRecord: (name) => ud.has(user, name) === false,
    notOurs: (name) => own.foreign.has(name),
    known: (name) => ud.known(user, name),
  };
}

const views = new WeakMap<RunLog, { size: number; user: string; view: UserRecordsOfTheRun }>();

/**
 * The user's records as the run's log shows them now, folded again only once the log has grown. Where the log does
 * not hold the outcome of a write the run sent (RunLog.stateKnown), no record is known to be absent.
 */
export function userRecordsOfRunLog(log: RunLog, user: string): UserRecordsOfTheRun {
  const held = views.get(log);
  if (held && held.size === log.size && held.user === user) return held.view;
  const folded = userRecordsOfTheRun(log.entries(), user);
  const view: UserRecordsOfTheRun =
    log.stateKnown === true
      ? folded
      : { noRecord: () => false, notOurs: (name) => folded.notOurs(name), known: () => undefined };
  views.set(log, { size: log.size, user, view });
  return view;
}
