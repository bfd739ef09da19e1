import type { Seen } from '../rules/exchange';
import { sentOnce, type Requested } from '../rules/request';
import { outcomeOf } from './outcome';

/** What a write of a user's acceptance record (operations 5–7) names, as the fold and the rules read it. */

export type MoveKind = 'create' | 'change' | 'delete';

/** What a write names: its kind, the record (by id, or by institutionDisclosureName) and the status it sends. */
export interface WriteTarget {
  kind: MoveKind;
  byId?: string;
  name?: string;
  status?: string;
}

const WRITES = new Set([
  'createUserDisclosure',
  'changeUserDisclosure',
  'changeUserDisclosureById',
  'deleteUserDisclosure',
  'deleteUserDisclosureById',
]);

export const isUserWrite = (op: string): boolean => WRITES.has(op);

/**
 * What a write of operations 5–7 names (a value sent as header and member is known only where both agree), answered
 * or still in flight.
 */
export function writeTarget(s: Requested & Pick<Seen, 'mapped'>): WriteTarget {
  const op = s.mapped.operation;
  const kind: MoveKind = op.startsWith('create') ? 'create' : op.startsWith('change') ? 'change' : 'delete';
  const byId = op.endsWith('ById') ? s.mapped.pathParams.institutionUserDisclosureId : undefined;
  const named = sentOnce(s, 'institutionDisclosureName', 'institutionDisclosureName');
  const member = kind === 'create' ? 'institutionUserDisclosureStatus' : 'institutionDisclosureStatus';
  const status = kind === 'delete' ? { known: false } : sentOnce(s, 'institutionUserDisclosureStatus', member);
  return {
    kind,
    ...(byId !== undefined ? { byId } : {}),
    ...(named.known ? { name: named.value } : {}),
    ...(status.known ? { status: status.value } : {}),
  };
}

/**
 * Whether a 2xx delete removed the user's record of `name` since a create of it was last sent: in a log of one
 * client that awaits each answer (the explorer's sequence), the last write naming the record that is a create
 * (whatever its answer) or that a 2xx answer applied is a delete.
 */
export function deletedSinceCreated(log: readonly Seen[], name: string): boolean {
  for (let i = log.length - 1; i >= 0; i--) {
    const s = log[i]!;
    if (!isUserWrite(s.mapped.operation)) continue;
    const w = writeTarget(s);
    if (w.name !== name) continue;
    if (w.kind === 'create') return false;
    if (outcomeOf(s.x.status) === 'applied') return w.kind === 'delete';
  }
  return false;
}
