import { judgedView } from '../log/run-log';
import { isUserWrite } from '../state/user-disclosures';
import type { Seen } from './exchange';

/**
 * The log a case's state rules are judged on (issue 32, "no case cuts the log"): the run's log itself over the
 * window the case's exchanges span, from the first of them being sent to the last being answered. An entry of
 * another case that overlaps that time is in it where it may read or write the state the case's exchanges read or
 * write, in the keys of the state rules (sequence/timeline.ts: `ud|<user>`, `id|*`, `phone|<customer>`):
 * - a list of a user's acceptance records (operation 4) of a user the case lists; a write of operations 5–7 where
 *   the case sends or lists any (a write names no user: the rules tell it by its credentials);
 * - every exchange of operations 1–3 where the case sends any (the institution's disclosures are one list);
 * - a contact update of a customer the case updates.
 * Left out: exchanges no state rule reads (tokens, transfers), and lists of other users, which tell the rules
 * nothing of the case's records but would keep them from telling whose records a credential writes
 * (sequence/timeline.ts, whoIsWho). The case's own exchanges are judged as it drove them (what it knows of their
 * credentials, a probe at an undocumented path), the others' as the whole run's log judges them (judgedView: no
 * case here says what they were driven for). Which verdicts a case keeps: judge.ts, `drove`.
 */
export function windowOf(runLog: readonly Seen[], drove: readonly Seen[]): { log: Seen[]; drove: Set<number> } {
  const indices = new Set(drove.map((s) => s.x.index));
  const own = drove.filter((s, i) => drove.findIndex((o) => o.x.index === s.x.index) === i);
  if (own.length === 0) return { log: [], drove: indices };
  const from = Math.min(...own.map((s) => s.x.startMs));
  const to = Math.max(...own.map((s) => s.x.endMs));
  const keys = new Set(own.flatMap(keysOf));
  const users = [...keys].some((k) => k.startsWith('ud|'));
  const shares = (k: string) => keys.has(k) || (k === 'ud|*' && users);
  const others = runLog
    .filter((s) => !indices.has(s.x.index) && s.x.startMs <= to && s.x.endMs >= from && keysOf(s).some(shares))
    .flatMap((s) => judgedView(s) ?? []);
  return { log: [...own, ...others].sort((a, b) => a.x.index - b.x.index), drove: indices };
}

/** The state an exchange may read or write, in the state rules' keys (a write of operations 5–7: any user's). */
function keysOf(s: Seen): string[] {
  const op = s.mapped.operation;
  if (op === 'listUserDisclosures') return [`ud|${s.mapped.query.get('InstitutionConsumerId') ?? '*'}`];
  if (isUserWrite(op)) return ['ud|*'];
  if (op.endsWith('InstitutionDisclosure') || op === 'listInstitutionDisclosures') return ['id|*'];
  if (op === 'updateContactInfo') return [`phone|${s.mapped.pathParams.customerId ?? ''}`];
  return [];
}
