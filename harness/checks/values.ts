import type { HttpResult } from '../log/entry';
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

/**
 * A string carries a URL: not empty, no white space or control character, parseable as a URL. A
 * reference relative to a base is accepted (parsed against a placeholder base), since "URL" alone does
 * not say absolute. What is no string is not judged here (its type is another rule's).
 */
export function carries_url(value: unknown, what: string, res?: HttpResult): CheckVerdict {
  const d = `${what} carries a URL`;
  if (typeof value !== 'string') return notApplicable('carries_url', d, `${what} is not a string`, res);
  const ok = value !== '' && !/[\s\p{Cc}]/u.test(value) && URL.canParse(value, 'https://base.invalid/');
  return ok
    ? pass('carries_url', d, res)
    : fail('carries_url', d, 'a URL (absolute, or relative to a base)', JSON.stringify(value).slice(0, 200), res);
}

/** JSON with every object's members in one order, so that two equal elements compare equal. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x !== null && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );

/**
 * Elements that carry the same identifier describe one thing: two that share it but differ in another
 * member break it. The same element repeated is not judged (whether a list may repeat one is another matter).
 */
export function unique_ids(items: readonly unknown[], member: string, where: string, res?: HttpResult): CheckVerdict {
  const d = `the elements of ${where} that share a ${member} are the same element`;
  const byId = new Map<string, { index: number; json: string }>();
  let withId = 0;
  for (const [index, item] of items.entries()) {
    const id = item !== null && typeof item === 'object' ? (item as Record<string, unknown>)[member] : undefined;
    if (typeof id !== 'string') continue;
    withId++;
    const json = canonical(item);
    const first = byId.get(id);
    if (first && first.json !== json)
      return fail(
        'unique_ids',
        d,
        `each ${member} given to one element`,
        `${where}[${first.index}] and [${index}] both carry ${member} ${JSON.stringify(id)}: ` +
          `${first.json.slice(0, 120)} and ${json.slice(0, 120)}`,
        res,
      );
    if (!first) byId.set(id, { index, json });
  }
  return withId < 2
    ? notApplicable('unique_ids', d, `fewer than two elements of ${where} carry a ${member}`, res)
    : pass('unique_ids', d, res);
}

/**
 * The identifier a create answers is a new one: no list that ended before the create was sent showed it for
 * another thing (a listed element of another name). `earlier` is that element and the exchange that listed it.
 */
export function new_identifier(
  id: string,
  earlier: { element: Record<string, unknown>; by: number } | undefined,
  what: string,
  res?: HttpResult,
): CheckVerdict {
  const d = `${what} is an identifier no earlier list gave another disclosure`;
  return earlier === undefined
    ? pass('new_identifier', d, res)
    : fail(
        'new_identifier',
        d,
        'an identifier of its own',
        `${JSON.stringify(id)}, the id exchange #${earlier.by} listed for ` +
          `${JSON.stringify(earlier.element).slice(0, 160)}`,
        res,
      );
}

/** The shortest a size limit may cut a name sent to ("Rate limits, size limits …: not shown"). */
export const SHORTEST_CUT = 32;

/** `kept` is `sent` cut short by a size limit: a proper prefix of it, at least SHORTEST_CUT characters long. */
export function cutShort(kept: unknown, sent: unknown): boolean {
  return (
    typeof kept === 'string' &&
    typeof sent === 'string' &&
    kept.length >= SHORTEST_CUT &&
    kept.length < sent.length &&
    sent.startsWith(kept)
  );
}

/**
 * A name kept as sent, or cut short by a size limit the spec leaves open ("size limits …: not shown"): the first
 * SHORTEST_CUT characters or more of it.
 */
export function name_kept(actual: unknown, sent: string, what: string, res?: HttpResult): CheckVerdict {
  if (!cutShort(actual, sent)) return value_equals(actual, sent, what, res);
  const d = `${what} is ${JSON.stringify(sent)}, or that name cut short by a size limit ("size limits …: not shown")`;
  return pass('value_equals', d, res, `cut to ${(actual as string).length} characters`);
}
