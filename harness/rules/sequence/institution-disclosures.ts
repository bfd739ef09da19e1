import { name_kept, new_identifier, present } from '../../checks';
import { served } from '../../checks/served';
import { findDisclosure, listedStatus } from '../../disclosure-records';
import { outcomeOf } from '../../state/outcome';
import {
  listedDisclosures,
  type InstitutionDisclosureState,
  type InstitutionMove,
} from '../../state/institution-disclosures';
import type { Seen, Verifier } from '../exchange';
import { changeAnswerContradicts } from '../institution-disclosures';
import { isObject } from '../request';
import { busy, unknownWhy, type Note, type Timeline, type Write } from './timeline';

/**
 * The state rules of the institution disclosures (operations 1–3), judged across the log. What the log shows of
 * them is the fold harness/state/institution-disclosures.ts: a 2xx create or change is a move the first list of
 * its institution that starts after the move's answer ended (and that no other write on it overlaps) shows.
 */

const MOVE_RULE = { create: 'STATE-ID-CREATE', change: 'STATE-ID-CHANGE' } as const;

/** A create or change of an institution disclosure as a write of the timeline (undefined: not one). */
export function institutionWrite(
  s: Seen,
  inst: InstitutionDisclosureState,
  tl: Timeline,
  verifierFor: (index: number) => Verifier,
  note: Note,
): Write | undefined {
  const op = s.mapped.operation;
  if (op !== 'createInstitutionDisclosure' && op !== 'changeInstitutionDisclosure') return undefined;
  const id = op === 'changeInstitutionDisclosure' ? s.mapped.pathParams.institutionDisclosureId : undefined;
  const apply = () => {
    const i = s.x.index;
    const move = inst.write(s);
    if (move === 'unknown') {
      if (id) note(i, `state unknown of institution disclosure ${id} (${unknownWhy(s)}) until a later list shows it`);
      return;
    }
    if (outcomeOf(s.x.status) !== 'applied') return;
    // A change answered for another disclosure, or another name, breaks STATE-ID-CHANGE on its own answer.
    if (id) changeAnswerContradicts(s, verifierFor(i));
    const answered = isObject(s.res.json) ? s.res.json.institutionDisclosureId : undefined;
    if (!id && typeof answered === 'string') createdIdIsNew(s, answered, move?.name, tl, verifierFor(i));
  };
  return { s, keys: [id ? `id|${id}` : 'id|*'], apply };
}

/** Judge one exchange of the institution disclosures at its start (lists, and 404s on a disclosure listed). */
export function judgeInstitutionStep(s: Seen, v: Verifier, inst: InstitutionDisclosureState, tl: Timeline): void {
  const op = s.mapped.operation;
  if (op === 'listInstitutionDisclosures' && listedDisclosures(s)) {
    const busyKeys = tl.overlapping(s);
    const objs = listedDisclosures(s)!;
    for (const move of inst.list(s, (key) => busy(busyKeys, `id|${key}`))) judgeMove(s, v, objs, move);
  } else if (op === 'changeInstitutionDisclosure' && s.x.status === 404) {
    // A 404 on a disclosure a list with the same credential showed, with no write to it since: the disclosure is
    // there, so the operation is not served at the documented path (as an active case judges it).
    const id = s.mapped.pathParams.institutionDisclosureId!;
    const listed = inst.listedBy(id);
    if (!listed || listed.label !== s.x.credential?.label || tl.busyAt(s, `id|${id}`)) return;
    const why = `institution disclosure ${id} was listed by exchange #${listed.by}, with no write to it since`;
    v.verify('OP3-REQUEST', served(s.res, why));
  }
}

/** STATE-ID-CREATE, STATE-ID-CHANGE: the list shows the disclosure, with the name and status sent. */
function judgeMove(s: Seen, v: Verifier, objs: Record<string, any>[], move: InstitutionMove): void {
  const rule = MOVE_RULE[move.kind];
  const found = findDisclosure(objs, move.id, move.name ?? '', move.institutionId ?? '');
  const what =
    `the institution disclosure ${move.id ?? `"${move.name}"`} after the 2xx ` + `${move.kind} in exchange #${move.by}`;
  if (!v.verify(rule, present(found, what, s.res))) return;
  if (move.name !== undefined) {
    const named = `the listed institutionDisclosureName (sent in exchange #${move.by})`;
    v.verify(rule, name_kept(found!.institutionDisclosureName, move.name, named, s.res));
  }
  if (move.status !== undefined) v.verify(rule, listedStatus(found!, move.status, s.res));
}

/** Note the moves no later list showed. */
export function unseenInstitutionMoves(inst: InstitutionDisclosureState, note: Note): void {
  for (const m of inst.moves()) {
    const which = m.id ?? `"${m.name}"`;
    note(
      m.by,
      `no later list shows the institution disclosure ${which}: ${MOVE_RULE[m.kind]} not observed for this move`,
    );
  }
}

/**
 * RES-DISCLOSURE-ID-UNIQUE across the log: the id a 2xx create answers is not one that a list which ended
 * before the create was sent showed for a disclosure of another name (institution disclosures are never
 * deleted, so such an id is in use). Judged where such a list exists and the name sent is known.
 */
function createdIdIsNew(create: Seen, id: string, name: string | undefined, tl: Timeline, v: Verifier): void {
  if (name === undefined) return;
  const lists = tl.sorted.filter(
    (l) =>
      l.mapped.operation === 'listInstitutionDisclosures' &&
      outcomeOf(l.x.status) === 'applied' &&
      tl.precedes(l, create),
  );
  if (lists.length === 0) return;
  let earlier: { element: Record<string, unknown>; by: number } | undefined;
  for (const l of lists) {
    const element = listedDisclosures(l)?.find(
      (o) => o.institutionDisclosureId === id && o.institutionDisclosureName !== name,
    );
    if (element) earlier ??= { element, by: l.x.index };
  }
  v.verify(
    'RES-DISCLOSURE-ID-UNIQUE',
    new_identifier(id, earlier, `the institutionDisclosureId the create answered`, create.res),
  );
}
