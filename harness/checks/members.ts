import type { HttpResult } from '../log/entry';
import { fail, pass, type CheckVerdict } from './verdict';

/** An object carries the members the spec says it carries. */
export function required_members(
  obj: unknown,
  members: readonly string[],
  where: string,
  res?: HttpResult,
): CheckVerdict {
  const d = `${where} carries ${members.join(', ')}`;
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj))
    return fail('required_members', d, 'an object', JSON.stringify(obj)?.slice(0, 100) ?? 'undefined', res);
  const missing = members.filter((m) => !(m in obj));
  return missing.length === 0
    ? pass('required_members', d, res)
    : fail('required_members', d, `members ${members.join(', ')}`, `${where} without ${missing.join(', ')}`, res);
}
