/**
 * Cut a text (often a JSON body) to at most `max` characters, only at a token boundary: after a
 * complete value or a comma or bracket, never inside a string, after a member name, or between the
 * two halves of a surrogate pair. What was left out is marked with "…".
 */
export function cutAtToken(text: string, max: number): string {
  if (text.length <= max) return text;
  let inString = false;
  let escaped = false;
  let boundary = 0;
  for (let i = 0; i < max; i++) {
    const ch = text[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') {
        inString = false;
        // After a value, not after a member name (a name is followed by ":").
        if (!/^\s*:/.test(text.slice(i + 1, i + 40))) boundary = i + 1;
      }
      continue;
    }
    if (ch === '"') inString = true;
    else if (/[\s,{}[\]]/.test(ch)) boundary = i + 1;
    else if (ch !== ':' && i + 1 < text.length && /[\s,{}[\]]/.test(text[i + 1]!)) boundary = i + 1;
  }
  if (boundary === 0) {
    // One token longer than the limit (a long string): cut between words, else between characters.
    const space = text.lastIndexOf(' ', max);
    boundary = space > 0 ? space : max;
    if (/[\uD800-\uDBFF]/.test(text[boundary - 1] ?? '')) boundary--;
  }
  return `${text.slice(0, boundary).trimEnd()}…`;
}
