import { InstitutionDisclosureState } from '../state/institution-disclosures';
import { outcomeOf } from '../state/outcome';
import { UserDisclosureState } from '../state/user-disclosures';
import { inStartOrder } from '../log/entry';
import type { Known, Seen, Verifier } from './exchange';
import { isObject } from './request';
import { institutionWrite, judgeInstitutionStep, unseenInstitutionMoves } from './sequence/institution-disclosures';
import { bodyOf, busy, Timeline, unknownWhy, whoIsWho, type Write } from './sequence/timeline';
import { judgeInstitutionOthers } from './institution-others';
import { ContactRules, versionedPath } from './sequence/contact-info';
import { judgeUserStep, unseenUserMoves, userDisclosureWrite } from './sequence/user-disclosures';

export { outcomeOf } from '../state/outcome';

/**
 * The state rules of the catalog, judged across the capture's sequence. Only what the traffic
 * proves counts:
 * - a write answered 2xx is a move; one refused (4xx, 429, 503) changes nothing; one whose outcome
 *   is unknown (no answer, 1xx/3xx, another 5xx) makes the record's state unknown until a later list
 *   shows it;
 * - a move is judged by the first list of the same user (institution) that starts after the move's
 *   answer ended (in the same millisecond counts: HAR times are rounded to it), and that no other
 *   write on the same record overlaps (sequence/timeline.ts);
 * - who a write is about is taken from what the capture shows (the list of the same credential, or
 *   the only user listed); where it cannot be told, the write makes the records it may have touched
 *   unknown, never a failure.
 * One file per family: the users' acceptance records (sequence/user-disclosures.ts), the institution
 * disclosures (sequence/institution-disclosures.ts) and the contact update's phone number on record
 * (sequence/contact-info.ts), each asking its state fold (harness/state/).
 */

export interface SequenceNotes {
  /** Per exchange index: what the sequence concluded about state there (unknown outcomes, moves judged). */
  notes: Map<number, string[]>;
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
  const sorted = inStartOrder(seen);
  const userOf = whoIsWho(sorted, (status) => outcomeOf(status) === 'applied');
  const ud = new UserDisclosureState(userOf);
  const inst = new InstitutionDisclosureState();
  const contact = new ContactRules(sorted, known, note);
  const tl = new Timeline(sorted);
  const writes: Write[] = [];
  for (const s of sorted) {
    const w = userDisclosureWrite(s, ud, userOf, note) ?? institutionWrite(s, inst, tl, verifierFor, note);
    if (w) writes.push(w);
    // A refused contact update changed nothing: it does not keep the number from being judged meanwhile (tests that
    // send only requests to refuse share a customer).
    const outcome = outcomeOf(s.x.status);
    if (s.mapped.operation === 'updateContactInfo' && outcome !== 'refused') {
      writes.push(contact.write(s, outcome, outcome === 'unknown' ? unknownWhy(s) : ''));
    }
  }
  tl.schedule(writes);
  for (const s of sorted) {
    tl.advanceTo(s);
    const v = verifierFor(s.x.index);
    judgeUserStep(s, v, ud, tl, userOf);
    judgeInstitutionStep(s, v, inst, tl);
    if (s.mapped.operation === 'updateContactInfo') judgeContactStep(s, v, tl, contact);
  }
  versionedPath(sorted, verifierFor);
  tl.finish();
  unseenUserMoves(ud, note);
  unseenInstitutionMoves(inst, note);
  judgeInstitutionOthers(sorted, verifierFor, known);
  return { notes };
}

/** A contact update, judged by the number on record the contact fold shows before it, the updates meanwhile and the
 * next one (sequence/contact-info.ts). */
function judgeContactStep(s: Seen, v: Verifier, tl: Timeline, contact: ContactRules): void {
  const key = `phone|${s.mapped.pathParams.customerId!}`;
  /** The number a customer's next write names as oldPhoneNumber, where it was served: on record when s was sent. */
  const laterOnRecord = (): string | undefined => {
    const next = tl.byStart.find((w) => w.keys.includes(key) && tl.precedes(s, w.s));
    const phone = next && outcomeOf(next.s.x.status) === 'applied' ? bodyOf(next.s).phoneNumber : undefined;
    return isObject(phone) && typeof phone.oldPhoneNumber === 'string' ? phone.oldPhoneNumber : undefined;
  };
  const meanwhile = busy(tl.overlapping(s), key)
    ? tl.byStart.filter((w) => w.keys.includes(key) && tl.overlaps(w, s)).map((w) => w.setsPhone)
    : undefined;
  contact.judgeUpdate(s, v, meanwhile, laterOnRecord);
}
