/**
 * Where a JSON text first breaks the grammar, as line and column, with a hint for the usual slips (a trailing
 * comma, a comment, single quotes, an unquoted key). JSON.parse's own messages differ between Node versions
 * (Node 20 gives a character offset or none, later ones sometimes line and column) and may quote the text
 * around the error, which can hold a secret: this scanner gives the same one-line answer on every version and
 * shows at most the one character it stopped at. It runs only on a text JSON.parse refused, without recursion
 * (a deeply nested text cannot overflow the stack).
 */

export interface JsonSyntaxError {
  /** Offset in UTF-16 code units; line and column count from 1 (column in characters). */
  offset: number;
  line: number;
  column: number;
  /** One line: what was found where, and a hint when the slip is a usual one. */
  text: string;
}

const WS = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

type Want = 'value' | 'value-or-close' | 'key' | 'key-or-close' | 'colon' | 'after';

/** Line and column (from 1) of an offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  const line = (before.match(/\n/g)?.length ?? 0) + 1;
  return { line, column: [...before.slice(lineStart)].length + 1 };
}

function shown(text: string, i: number): string {
  if (i >= text.length) return 'the end of the file';
  const ch = String.fromCodePoint(text.codePointAt(i)!);
  const code = ch.codePointAt(0)!;
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0xfeff || (/\p{Z}/u.test(ch) && ch !== ' ')) {
    return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return `"${ch}"`;
}

/** The first syntax error of a JSON text, or undefined when there is none. */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const stack: Array<'{' | '['> = [];
  const n = text.length;
  let i = 0;
  let want: Want = 'value';
  let afterComma = false;
  const error = (at: number, what: string, hint?: string): JsonSyntaxError => {
    const { line, column } = lineAndColumn(text, at);
    return { offset: at, line, column, text: `${what} at line ${line}, column ${column}${hint ? ` (${hint})` : ''}` };
  };
  const unexpected = (at: number, hint?: string) => error(at, `unexpected ${shown(text, at)}`, hint);
  /** Scan a string from its opening quote; an error, or undefined with i after the closing quote. */
  const string = (): JsonSyntaxError | undefined => {
    const start = i;
    for (i++; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return undefined;
      }
      if (c < 0x20) return unexpected(i, 'a line break or control character in a string: write it as \\n, \\t, \\u…');
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 5;
        else if (e !== undefined && ESCAPES.has(e)) i++;
        else return unexpected(i + 1, 'not an escape JSON knows: write a backslash as \\\\');
      }
    }
    return error(start, 'a string that is never closed starts');
  };
  for (;;) {
    while (i < n && WS.has(text[i]!)) i++;
    if (i >= n) {
      if (want === 'after' && !stack.length) return undefined;
      if (!stack.length) return error(n, 'the file ends before any JSON value');
      return error(n, 'the file ends too early', stack.length ? `${stack.length} "{" or "[" not closed` : undefined);
    }
    const c = text[i]!;
    if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) return unexpected(i, 'JSON has no comments');
    if (c === '\uFEFF' && i === 0) return unexpected(i, 'a byte order mark');
    switch (want) {
      case 'value':
      case 'value-or-close': {
        if (c === ']' && (want === 'value-or-close' || afterComma)) {
          if (afterComma) return unexpected(i, 'JSON allows no comma after the last item');
          stack.pop();
          i++;
          want = 'after';
          continue;
        }
        afterComma = false;
        if (c === '{' || c === '[') {
          stack.push(c);
          i++;
          want = c === '{' ? 'key-or-close' : 'value-or-close';
          continue;
        }
        if (c === '"') {
          const e = string();
          if (e) return e;
          want = 'after';
          continue;
        }
        if (c === "'") return unexpected(i, 'JSON strings take double quotes');
        const literal = ['true', 'false', 'null'].find((w) => text.startsWith(w, i));
        if (literal) {
          i += literal.length;
          want = 'after';
          continue;
        }
        NUMBER.lastIndex = i;
        if (/[-\d]/.test(c) && NUMBER.test(text)) {
          i = NUMBER.lastIndex;
          want = 'after';
          continue;
        }
        if (c === '-' || /\d/.test(c)) return unexpected(c === '-' ? i + 1 : i, 'not a JSON number');
        const lowerCase = 'JSON writes true, false, null in lower case';
        if (/^(?:true|false|null|none)\b/i.test(text.slice(i, i + 6))) return unexpected(i, lowerCase);
        return unexpected(i, /[A-Za-z]/.test(c) ? 'a text value takes double quotes' : undefined);
      }
      case 'key':
      case 'key-or-close':
        if (c === '}') {
          if (afterComma) return unexpected(i, 'JSON allows no comma after the last member');
          stack.pop();
          i++;
          want = 'after';
          continue;
        }
        afterComma = false;
        if (c === '"') {
          const e = string();
          if (e) return e;
          want = 'colon';
          continue;
        }
        if (c === "'") return unexpected(i, 'JSON strings take double quotes');
        return unexpected(i, /[A-Za-z_$]/.test(c) ? 'a key takes double quotes' : undefined);
      case 'colon':
        if (c === ':') {
          i++;
          want = 'value';
          continue;
        }
        return unexpected(i, 'expected ":" after a key');
      case 'after': {
        const top = stack.at(-1);
        if (top === undefined) return unexpected(i, 'text after the end of the JSON value');
        if (c === ',') {
          i++;
          afterComma = true;
          want = top === '{' ? 'key' : 'value';
          continue;
        }
        if (c === (top === '{' ? '}' : ']')) {
          stack.pop();
          i++;
          continue;
        }
        return unexpected(i, `expected "," or "${top === '{' ? '}' : ']'}"`);
      }
    }
  }
}
