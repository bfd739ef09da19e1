import { inStartOrder } from '../../log/entry';
import type { Seen } from '../../rules/exchange';
import { InstitutionDisclosureState } from '../institution-disclosures';
import { outcomeOf } from '../outcome';
import { Reached, type FamilyCoverage } from './reached';

/**
 * The institution disclosures (operations 2–3, read back by operation 1): a create with each status the spec shows
 * ("true or false"); a change of a listed disclosure from each status to each, keeping its name or renaming it.
 */

const STATUSES = ['true', 'false'];
const t = (from: string, operation: string, value: string) => `${from} × ${operation} ${value}`;

export const INSTITUTION_DISCLOSURE_TRANSITIONS: readonly string[] = [
  ...STATUSES.map((s) => t('new', 'create', `status ${s}`)),
  ...STATUSES.flatMap((from) =>
    STATUSES.flatMap((to) => ['same name', 'renamed'].map((n) => t(`status ${from}`, 'change', `to ${to}, ${n}`))),
  ),
];

/** The transition a 2xx create or change took, where the log tells the state before it. */
function transitionOf(state: InstitutionDisclosureState, s: Seen): { record?: string; transition?: string } {
  const id =
    s.mapped.operation === 'changeInstitutionDisclosure' ? s.mapped.pathParams.institutionDisclosureId : undefined;
  const before = id === undefined ? undefined : state.record(id);
  const move = state.write(s);
  if (!move || move === 'unknown' || move.status === undefined) return { record: id };
  const to = String(move.status);
  const record = move.id ?? `name:${move.name}`;
  if (move.kind === 'create') return { record, transition: t('new', 'create', `status ${to}`) };
  if (before?.status === undefined || before.name === undefined || move.name === undefined) return { record };
  const named = move.name === before.name ? 'same name' : 'renamed';
  return { record, transition: t(`status ${before.status}`, 'change', `to ${to}, ${named}`) };
}

export function institutionDisclosureCoverage(log: readonly Seen[]): FamilyCoverage {
  const state = new InstitutionDisclosureState();
  const reached = new Reached(INSTITUTION_DISCLOSURE_TRANSITIONS);
  for (const s of inStartOrder(log)) {
    const op = s.mapped.operation;
    if (op === 'listInstitutionDisclosures') {
      if (outcomeOf(s.x.status) === 'applied') reached.read(() => true, s);
      state.list(s);
    } else if (op === 'createInstitutionDisclosure' || op === 'changeInstitutionDisclosure') {
      const outcome = outcomeOf(s.x.status);
      const { record, transition } = transitionOf(state, s);
      if (record && transition && outcome === 'applied') reached.took(record, transition, s);
      else if (record && outcome === 'unknown') reached.lost(record);
    }
  }
  return reached.result('institution disclosures (operations 2–3)', 'a later list of the disclosures (operation 1)');
}
