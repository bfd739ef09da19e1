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
  return new Scanner(text).run();
}

/** The scan's state: where it is, what it expects next, the objects and arrays still open. */
class Scanner {
  private readonly stack: Array<'{' | '['> = [];
  private readonly n: number;
  private i = 0;
  private want: Want = 'value';
  private afterComma = false;

  constructor(private readonly text: string) {
    this.n = text.length;
  }

  /** Each step returns the error it found, or undefined to go on. */
  run(): JsonSyntaxError | undefined {
    const { text, n, stack } = this;
    for (;;) {
      while (this.i < n && WS.has(text[this.i]!)) this.i++;
      const i = this.i;
      if (i >= n) {
        if (this.want === 'after' && !stack.length) return undefined;
        if (!stack.length) return this.error(n, 'the file ends before any JSON value');
        return this.error(n, 'the file ends too early', `${stack.length} "{" or "[" not closed`);
      }
      const c = text[i]!;
      if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) return this.unexpected(i, 'JSON has no comments');
      if (c === '\uFEFF' && i === 0) return this.unexpected(i, 'a byte order mark');
      const e = this.step(c);
      if (e) return e;
    }
  }

  private step(c: string): JsonSyntaxError | undefined {
    switch (this.want) {
      case 'value':
      case 'value-or-close':
        return this.value(c);
      case 'key':
      case 'key-or-close':
        return this.key(c);
      case 'colon':
        if (c !== ':') return this.unexpected(this.i, 'expected ":" after a key');
        this.i++;
        this.want = 'value';
        return undefined;
      case 'after':
        return this.after(c);
    }
  }

  private error(at: number, what: string, hint?: string): JsonSyntaxError {
    const { line, column } = lineAndColumn(this.text, at);
    return { offset: at, line, column, text: `${what} at line ${line}, column ${column}${hint ? ` (${hint})` : ''}` };
  }

  private unexpected(at: number, hint?: string): JsonSyntaxError {
    return this.error(at, `unexpected ${shown(this.text, at)}`, hint);
  }

  /** Scan a string from its opening quote; an error, or undefined with i after the closing quote. */
  private string(): JsonSyntaxError | undefined {
    const { text, n } = this;
    const start = this.i;
    for (this.i++; this.i < n; this.i++) {
      const c = text.charCodeAt(this.i);
      if (c === 0x22) {
        this.i++;
        return undefined;
      }
      if (c < 0x20)
        return this.unexpected(this.i, 'a line break or control character in a string: write it as \\n, \\t, \\u…');
      if (c === 0x5c) {
        const e = text[this.i + 1];
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(this.i + 2, this.i + 6))) this.i += 5;
        else if (e !== undefined && ESCAPES.has(e)) this.i++;
        else return this.unexpected(this.i + 1, 'not an escape JSON knows: write a backslash as \\\\');
      }
    }
    return this.error(start, 'a string that is never closed starts');
  }

  /** An opening or scalar value is read, then what follows it is expected. */
  private read(to: number, want: Want): undefined {
    this.i = to;
    this.want = want;
    return undefined;
  }

  private value(c: string): JsonSyntaxError | undefined {
    const { text, i } = this;
    if (c === ']' && (this.want === 'value-or-close' || this.afterComma)) {
      if (this.afterComma) return this.unexpected(i, 'JSON allows no comma after the last item');
      this.stack.pop();
      return this.read(i + 1, 'after');
    }
    this.afterComma = false;
    if (c === '{' || c === '[') {
      this.stack.push(c);
      return this.read(i + 1, c === '{' ? 'key-or-close' : 'value-or-close');
    }
    if (c === '"') return this.string() ?? this.read(this.i, 'after');
    if (c === "'") return this.unexpected(i, 'JSON strings take double quotes');
    const literal = ['true', 'false', 'null'].find((w) => text.startsWith(w, i));
    if (literal) return this.read(i + literal.length, 'after');
    NUMBER.lastIndex = i;
    if (/[-\d]/.test(c) && NUMBER.test(text)) return this.read(NUMBER.lastIndex, 'after');
    if (c === '-' || /\d/.test(c)) return this.unexpected(c === '-' ? i + 1 : i, 'not a JSON number');
    const lowerCase = 'JSON writes true, false, null in lower case';
    if (/^(?:true|false|null|none)\b/i.test(text.slice(i, i + 6))) return this.unexpected(i, lowerCase);
    return this.unexpected(i, /[A-Za-z]/.test(c) ? 'a text value takes double quotes' : undefined);
  }

  private key(c: string): JsonSyntaxError | undefined {
    const { i } = this;
    if (c === '}') {
      if (this.afterComma) return this.unexpected(i, 'JSON allows no comma after the last member');
      this.stack.pop();
      return this.read(i + 1, 'after');
    }
    this.afterComma = false;
    if (c === '"') return this.string() ?? this.read(this.i, 'colon');
    if (c === "'") return this.unexpected(i, 'JSON strings take double quotes');
    return this.unexpected(i, /[A-Za-z_$]/.test(c) ? 'a key takes double quotes' : undefined);
  }

  private after(c: string): JsonSyntaxError | undefined {
    const { i } = this;
    const top = this.stack.at(-1);
    if (top === undefined) return this.unexpected(i, 'text after the end of the JSON value');
    if (c === ',') {
      this.afterComma = true;
      return this.read(i + 1, top === '{' ? 'key' : 'value');
    }
    if (c === (top === '{' ? '}' : ']')) {
      this.stack.pop();
      this.i = i + 1;
      return undefined;
    }
    return this.unexpected(i, `expected "," or "${top === '{' ? '}' : ']'}"`);
  }
}
