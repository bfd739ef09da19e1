import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfigFile } from '../harness/config';
import { jsonSyntaxError } from '../harness/json-syntax';

/**
 * Issue 25, local input as users give it: a JSON slip located by line and column. Each refusal is one line,
 * exit 2, and never a stack trace; checked in-process (no command is spawned).
 */

const dir = mkdtempSync(join(tmpdir(), 'dbsi-habits-'));
const minimal = {
  baseUrl: 'https://bank.example/api',
  authBaseUrl: 'https://bank.example/identity',
  transfersBaseUrl: 'https://bank.example/banking',
};

function file(name: string, content: string): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('a JSON syntax error in the configuration is located by line and column', () => {
  test.each([
    [
      'a trailing comma',
      '{\n  "baseUrl": "x",\n}\n',
      'unexpected "}" at line 3, column 1 (JSON allows no comma after the last member)',
    ],
    ['a comment', '{\n  // sandbox\n  "baseUrl": "x"\n}', 'unexpected "/" at line 2, column 3 (JSON has no comments)'],
    ['single quotes', "{\n  'baseUrl': 'x'\n}", `unexpected "'" at line 2, column 3 (JSON strings take double quotes)`],
    ['an unquoted key', '{\n  "a": 1,\n  b: "x"\n}', 'unexpected "b" at line 3, column 3 (a key takes double quotes)'],
    ['a missing comma', '{\n  "a": "x"\n  "b": "y"\n}', 'unexpected """ at line 3, column 3 (expected "," or "}")'],
    ['cut off', '{\n  "a": {"b": [1, 2', 'the file ends too early at line 2, column 19 (3 "{" or "[" not closed)'],
    ['a line break in a string', '{"a": "one\ntwo"}', 'unexpected U+000A at line 1, column 11'],
    ['a trailing comma in a list, after CRLF lines', '{\r\n"a": [1,\r\n2,\r\n]}', 'unexpected "]" at line 4, column 1'],
  ])('%s', (_what, text, says) => {
    const path = file(`bad-${_what.replace(/\W+/g, '-')}.json`, text);
    const m = refusal(() => loadConfigFile(path, {}, '--config'));
    expect(m).toContain(`the configuration file ${path} (--config) is not valid JSON: ${says}`);
    expect(m).not.toMatch(/position|\n/);
  });

  test('the located error agrees with JSON.parse: none in valid JSON, one in every text it refuses', () => {
    const valid = ['{}', '[]', ' 0 ', '"s"', '{"a":[1,{"b":null,"c":true}],"e":-1.5e3,"f":"\\u00e9\\n\\"x\\""}'];
    for (const t of valid) expect(jsonSyntaxError(t), t).toBeUndefined();
    const invalid = ['', ' ', '{', '{"a"}', '{"a":}', '[1 2]', '01', '-', '1.', '.5', '"\\x"', '"\\u12"', 'tru', '[,]'];
    invalid.push('{,}', '{} {}');
    for (const t of invalid) {
      expect(() => JSON.parse(t), t).toThrow();
      expect(jsonSyntaxError(t), t).toBeDefined();
    }
  });

  test('the text around the error is never quoted (it may hold a secret), only the character found', () => {
    const text = '{"credentials": {"bearerToken": "s3cret-T0ken-value" x}}';
    const m = refusal(() => loadConfigFile(file('secret.json', text), {}));
    expect(m).toContain('unexpected "x" at line 1, column 54');
    expect(m).not.toContain('s3cret');
  });

  test('a very deeply nested truncated file is located without overflowing the stack', () => {
    const m = refusal(() => loadConfigFile(file('deep-open.json', '['.repeat(500_000)), {}));
    expect(m).toContain('500000 "{" or "[" not closed');
  });

  test('a byte order mark, as some editors write, is accepted', () => {
    expect(loadConfigFile(file('bom.json', `\uFEFF${JSON.stringify(minimal)}`), {}).baseUrl).toBe(minimal.baseUrl);
  });
});
