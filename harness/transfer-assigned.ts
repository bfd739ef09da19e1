import { withMember } from './contract-coverage/generate';
import { membersOf } from './contract-coverage/model';
import { validate } from './schemas';
import { sentValues } from './transfer-values';

/**
 * The members of a Transfer a target assigns or computes itself (id, status, confirmation, fee,
 * payoffAmount, notificationMessage, the next and final execution dates, the remaining count): every
 * member of the transfer schema that sentValues (what the answer must repeat) does not read, nor holds a
 * member it reads. Whether a target reads them in a request is not stated (OP9-BODY-TYPES-ASSIGNED).
 */
let assigned: string[] | undefined;
export function assignedTransferMembers(): readonly string[] {
  if (assigned) return assigned;
  const paths = membersOf('transfer').map((m) => m.path);
  const every = paths.reduce<Record<string, unknown>>((body, p) => withMember(body, p, 1), {});
  const chosen = Object.keys(sentValues(every as Record<string, any>));
  return (assigned = paths.filter((p) => !chosen.some((k) => k === p || k.startsWith(`${p}.`))));
}

/** The member a client chooses (OP9-BODY-TYPES), not one the target assigns (OP9-BODY-TYPES-ASSIGNED). */
export function chosenByClient(path: string): boolean {
  return !assignedTransferMembers().some((a) => path === a || path.startsWith(`${a}.`));
}

/**
 * The requirement a Transfer body that breaks the schema breaks: OP9-BODY-TYPES-ASSIGNED when only
 * members the target assigns break it (without them it is valid), else OP9-BODY-TYPES.
 */
export function bodyTypesRule(body: unknown): 'OP9-BODY-TYPES' | 'OP9-BODY-TYPES-ASSIGNED' {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'OP9-BODY-TYPES';
  const rest = structuredClone(body) as Record<string, any>;
  for (const path of assignedTransferMembers()) {
    const keys = path.split('.');
    const holder = keys.slice(0, -1).reduce<any>((o, k) => (o && typeof o === 'object' ? o[k] : undefined), rest);
    if (holder && typeof holder === 'object') delete holder[keys[keys.length - 1]!];
  }
  return validate('transfer', rest).length === 0 ? 'OP9-BODY-TYPES-ASSIGNED' : 'OP9-BODY-TYPES';
}
