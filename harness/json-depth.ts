/**
 * JSON a target or a capture wrote, read within a bound. A body of the spec nests at most five levels (an
 * authentication record's additionalInfo.entry[]); a vendor's extra members may nest further. A body nested
 * hundreds of thousands of levels deep is valid JSON that JSON.parse reads, but every walk over it (the
 * contract coverage, the redaction, the rules) would exhaust the stack and end the run with no reports. So a
 * text nested deeper than MAX_JSON_DEPTH is not read as JSON: the answer is "too deep to judge", one message,
 * never a crash.
 */

/** Deeper than any body of the spec, with room for a vendor's extra members; far below what a walk can take. */
export const MAX_JSON_DEPTH = 256;

/** Why a text was not read as JSON: it nests deeper than MAX_JSON_DEPTH (a SyntaxError, as JSON.parse throws). */
export class JsonTooDeep extends SyntaxError {
  constructor() {
    super(`it nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep, deeper than the suite reads`);
    this.name = 'JsonTooDeep';
  }
}

/** Whether `text` nests arrays and objects deeper than `limit`: one pass, brackets inside strings skipped. */
export function nestsDeeperThan(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** JSON.parse of a text a target or a capture wrote: throws JsonTooDeep where it nests deeper than the bound. */
export function parseJson(text: string): unknown {
  if (nestsDeeperThan(text)) throw new JsonTooDeep();
  return JSON.parse(text);
}
