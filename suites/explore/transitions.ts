/**
 * What the explorer reached, as transitions of the acceptance records' state: the state a record was in (as the
 * last list showed it), the operation and form, and the value sent. The figure a run reports is how many of
 * EXPLORABLE it took; a command whose state the log could not tell ("unknown") counts for none of them.
 */
export type From = 'absent' | 'deleted' | 'ACCEPTED' | 'NOT_ACCEPTED' | 'unknown' | 'any';

export const transition = (from: From, operation: string, value?: string): string =>
  `${from} × ${operation}${value ? ` ${value}` : ''}`;

const STATUSES = ['ACCEPTED', 'NOT_ACCEPTED'];
const PRESENT: From[] = ['ACCEPTED', 'NOT_ACCEPTED'];
const EVERY: From[] = ['absent', 'deleted', ...PRESENT];

/** Every transition the commands can take (commands.ts): a create only where no record is listed. */
export const EXPLORABLE: readonly string[] = [
  ...(['absent', 'deleted'] as From[]).flatMap((f) => STATUSES.map((s) => transition(f, 'create', s))),
  ...EVERY.flatMap((f) => STATUSES.map((s) => transition(f, 'change (collection)', s))),
  ...PRESENT.flatMap((f) => STATUSES.map((s) => transition(f, 'change (by-id)', s))),
  ...EVERY.map((f) => transition(f, 'delete (collection)')),
  ...PRESENT.map((f) => transition(f, 'delete (by-id)')),
  ...['change', 'delete'].flatMap((k) =>
    ['suffix', 'prefix', 'shorter', 'never-issued'].map((v) => transition('any', `${k} by a ${v} id`)),
  ),
];
