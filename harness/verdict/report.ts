import type { Area, Leftover } from '../model';
import type { OperationKey } from '../operations';
import type { Redactor } from '../redact';

/** A test's stable id: its area, operation and title (a capture's tests and an active run's share the form). */
export function caseIdOf(area: Area, operation: OperationKey, title: string): string {
  return `${area}/${operation}/${title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}`;
}

/** The reason of a test, with what its clean-ups could not do and what they left on the target. */
export function reasonWithLeftovers(
  reason: string | undefined,
  cleanupProblems: readonly string[],
  leftovers: readonly Leftover[],
): string | undefined {
  const add = (line: string) => {
    reason = `${reason ? reason + '\n' : ''}${line}`;
  };
  if (cleanupProblems.length) add(`clean-up problems: ${cleanupProblems.join('; ')}`);
  const owed = leftovers.filter((l) => !l.unconfirmable);
  const set = leftovers.filter((l) => l.unconfirmable);
  if (owed.length)
    add(`LEFT ON THE TARGET (restore by hand): ${owed.map((l) => `${l.what}: ${l.restore}`).join('; ')}`);
  if (set.length) add(`SET TO THE CONFIGURED VALUES: ${set.map((l) => `${l.what}: ${l.now}`).join('; ')}`);
  return reason;
}

/** A leftover as reports show it: every text redacted. */
export function redactedLeftover(l: Leftover, redactor: Redactor): Leftover {
  return {
    ...l,
    what: redactor.text(l.what),
    now: l.now && redactor.text(l.now),
    restore: redactor.text(l.restore),
    why: redactor.text(l.why),
  };
}
