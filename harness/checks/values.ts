import type { HttpResult } from '../http/client';
import { fail, notApplicable, pass, type CheckVerdict } from './verdict';

/**
 * Where the spec lists only some values ("value shown: URL"), an unlisted value is an observation:
 * the check passes with a note, and the case context turns it into an INFO observation
 * (a failure only under --strict).
 */
export function shown_value(value: unknown, shown: readonly string[], what: string, res?: HttpResult): CheckVerdict {
  const d = `${what} is one of the values the spec shows (${shown.join(', ')})`;
  if (value === undefined) return notApplicable('shown_value', d, `${what} is absent`, res);
  return typeof value === 'string' && shown.includes(value)
    ? pass('shown_value', d, res)
    : fail(
        'shown_value',
        d,
        `one of ${shown.join(', ')} (others are not ` + `shown, so not forbidden)`,
        JSON.stringify(value),
        res,
      );
}

/** A state transition is visible: the observed value is the one sent. */
export function value_equals(actual: unknown, expected: unknown, what: string, res?: HttpResult): CheckVerdict {
  const d = `${what} is ${JSON.stringify(expected)}`;
  return JSON.stringify(actual) === JSON.stringify(expected)
    ? pass('value_equals', d, res)
    : fail('value_equals', d, JSON.stringify(expected), actual === undefined ? 'absent' : JSON.stringify(actual), res);
}

/** Something that must be present (a record, a member) is. */
export function present(found: unknown, what: string, res?: HttpResult): CheckVerdict {
  const d = `${what} is present`;
  return found !== undefined && found !== null ? pass('present', d, res) : fail('present', d, `${what}`, 'absent', res);
}

/** Something that must be gone (a deleted record) is. */
export function absent(found: unknown, what: string, res?: HttpResult): CheckVerdict {
  const d = `${what} is absent`;
  return found === undefined || found === null
    ? pass('absent', d, res)
    : fail('absent', d, 'absent', JSON.stringify(found).slice(0, 200), res);
}
