import {
  type BESIDE_SEVERAL,
  transition as named,
  USER_DISCLOSURE_TRANSITIONS,
} from '../../harness/state/coverage/user-disclosures';

/**
 * What the explorer reached, as transitions of the acceptance records' state: the state a record was in (as the
 * last list showed it), the operation and form, and the value sent. The figure a run reports is how many of
 * EXPLORABLE it took; a command whose state the log could not tell ("unknown") counts for none of them.
 */
export type From = 'absent' | 'deleted' | 'ACCEPTED' | 'NOT_ACCEPTED' | 'unknown' | 'any' | typeof BESIDE_SEVERAL;

/** The transitions' names are the state coverage's (harness/state/coverage/user-disclosures.ts). */
export const transition = (from: From, operation: string, value?: string): string => named(from, operation, value);

/** Every transition the commands can take (commands.ts): those a write of a known record can take, and the near ids. */
export const EXPLORABLE: readonly string[] = [
  ...USER_DISCLOSURE_TRANSITIONS,
  ...['change', 'delete'].flatMap((k) =>
    ['suffix', 'prefix', 'shorter', 'never-issued'].map((v) => transition('any', `${k} by a ${v} id`)),
  ),
];
