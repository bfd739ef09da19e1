import { fail, pass, type CheckVerdict } from '../checks';
import { inStartOrder } from '../log/entry';
import type { Known, Seen, Verifier } from './exchange';
import { isObject } from './request';
import { outcomeOf } from '../state/outcome';

/**
 * STATE-ID-CHANGE-ONLY-NAMED, a state rule across the log (the institution counterpart of
 * STATE-UD-CHANGE-ONLY-NAMED): a change of an institution disclosure (operation 3) moves the disclosure its path
 * names and no other. Judged on two lists of the same credential with at least one change answered 2xx between them:
 * every disclosure both lists show that no write between them names (by its path id) is shown with the same
 * institutionDisclosureName and institutionDisclosureStatus (where both lists give them). A disclosure missing from
 * the second list is not judged (what a list leaves out is STATE-ID-CREATE's and STATE-ID-CHANGE's business); nor
 * is one a create between the lists may have moved (one that answered its id, no id, or no known answer).
 *
 * `known.runNamePrefix` (an active run): the other tests of the run create and change disclosures whose names start
 * with it, and their writes may not be in the log: such a disclosure is judged only where the log created it.
 */
export const CHANGE_ONLY_NAMED = 'STATE-ID-CHANGE-ONLY-NAMED';

type Item = Record<string, unknown>;

const isList = (s: Seen) => s.mapped.operation === 'listInstitutionDisclosures' && outcomeOf(s.x.status) === 'applied';
const isWrite = (s: Seen) =>
  (s.mapped.operation === 'changeInstitutionDisclosure' || s.mapped.operation === 'createInstitutionDisclosure') &&
  outcomeOf(s.x.status) !== 'refused';

function itemsOf(s: Seen): Map<string, Item> {
  const items = (s.res.json as { institutionDisclosures?: unknown } | undefined)?.institutionDisclosures;
  const out = new Map<string, Item>();
  if (!Array.isArray(items)) return out;
  for (const o of items.filter(isObject))
    if (typeof o.institutionDisclosureId === 'string') out.set(o.institutionDisclosureId, o);
  return out;
}

/** a ended before b started (to the precision of b's start). */
const precedes = (a: Seen, b: Seen) => b.x.startMs > a.x.endMs - b.x.startPrecisionMs;

function compared(before: Item, after: Item): string[] {
  const out: string[] = [];
  for (const k of ['institutionDisclosureName', 'institutionDisclosureStatus']) {
    const [a, b] = [before[k], after[k]];
    const given = (v: unknown) => (k === 'institutionDisclosureName' ? typeof v === 'string' : typeof v === 'boolean');
    if (given(a) && given(b) && a !== b) out.push(`${k} ${JSON.stringify(a)} → ${JSON.stringify(b)}`);
  }
  return out;
}

/** A create in the window answered `id`, no id, or no answer known. */
function createdThere(window: readonly Seen[], id: string): boolean {
  return window.some((w) => {
    if (w.mapped.operation !== 'createInstitutionDisclosure') return false;
    const answered = (w.res.json as { institutionDisclosureId?: unknown } | undefined)?.institutionDisclosureId;
    return outcomeOf(w.x.status) !== 'applied' || typeof answered !== 'string' || answered === id;
  });
}

/** Judge STATE-ID-CHANGE-ONLY-NAMED over the log; the verdict goes to the second list's exchange. */
export function judgeInstitutionOthers(seen: readonly Seen[], verifierFor: (i: number) => Verifier, known: Known = {}) {
  const sorted = inStartOrder(seen);
  const lists = sorted.filter(isList);
  const writes = sorted.filter(isWrite);
  const createdInLog = new Set<string>();
  for (const w of writes) {
    const id = (w.res.json as { institutionDisclosureId?: unknown } | undefined)?.institutionDisclosureId;
    if (w.mapped.operation === 'createInstitutionDisclosure' && typeof id === 'string') createdInLog.add(id);
  }
  for (let k = 1; k < lists.length; k++) {
    const after = lists[k]!;
    const before = lists
      .slice(0, k)
      .reverse()
      .find((l) => precedes(l, after) && l.x.credential?.label === after.x.credential?.label);
    if (!before) continue;
    // Every write that may have taken effect after `before` was read and before `after` was.
    const window = writes.filter((w) => !precedes(w, before) && !precedes(after, w));
    const changes = window.filter(
      (w) => w.mapped.operation === 'changeInstitutionDisclosure' && outcomeOf(w.x.status) === 'applied',
    );
    if (changes.length === 0) continue;
    const named = new Set(window.map((w) => w.mapped.pathParams.institutionDisclosureId).filter((id) => id));
    const a = itemsOf(before);
    const b = itemsOf(after);
    const moved: string[] = [];
    let judged = 0;
    for (const [id, item] of a) {
      const now = b.get(id);
      if (!now || named.has(id)) continue;
      const name = item.institutionDisclosureName;
      const prefix = known.runNamePrefix;
      if (prefix && typeof name === 'string' && name.startsWith(prefix) && !createdInLog.has(id)) continue;
      // A create between the lists that answered this id, or none, may be what moved it: which write did is unknown.
      if (createdThere(window, id)) continue;
      judged++;
      const diff = compared(item, now);
      if (diff.length) moved.push(`${id}: ${diff.join(', ')}`);
    }
    if (judged === 0) continue;
    const by = changes.map((c) => `#${c.x.index} (${c.mapped.pathParams.institutionDisclosureId})`).join(', ');
    const what =
      `the ${judged} institution disclosure${judged === 1 ? '' : 's'} no write names, listed by exchange ` +
      `#${before.x.index}, are listed with the same name and status after the 2xx ` +
      `change${changes.length === 1 ? '' : 's'} ${by}`;
    const verdict: CheckVerdict = moved.length
      ? fail('others_unchanged', what, 'the same name and status', moved.join('; '), after.res)
      : pass('others_unchanged', what, after.res);
    verifierFor(after.x.index).verify(CHANGE_ONLY_NAMED, verdict);
  }
}
