import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfigFile, resolveConfig } from '../harness/config';
import { jsonSyntaxError } from '../harness/json-syntax';
import { userCwd } from '../harness/local-files';
import { parseHar } from '../harness/traffic/har';
import { main } from '../harness/run/main';
import { main as record } from '../harness/traffic/recorder/main';
import { ROOT } from './_cli';

/**
 * Issue 25, local input as users give it: a JSON slip located by line and column; relative paths taken from the
 * folder npm was run from (INIT_CWD), not the package root npm runs scripts in. Each refusal is one line, exit 2,
 * and never a stack trace; checked in-process (no command is spawned, no run starts).
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
    ['True', '{"x": True}', 'unexpected "T" at line 1, column 7 (JSON writes true, false, null in lower case)'],
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
    // The shipped example, cut or with a character removed or inserted (seeded): the two always agree.
    const example = readFileSync(join(ROOT, 'config/example.target.json'), 'utf8');
    const chars = ['{', '}', '[', ']', ',', ':', '"', '\\', '-', '0', '1', 'e', '.', ' ', '\n', 't', "'", '\u0001'];
    let seed = 25;
    const rnd = (k: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % k;
    for (let i = 0; i < 1500; i++) {
      const p = rnd(example.length);
      const op = rnd(3);
      const t = example.slice(0, p) + (op === 0 ? chars[rnd(chars.length)] : '') + example.slice(op === 1 ? p + 1 : p);
      const cut = op === 2 ? t.slice(0, p) : t;
      let parses = true;
      try {
        JSON.parse(cut);
      } catch {
        parses = false;
      }
      expect(jsonSyntaxError(cut) === undefined, JSON.stringify(cut.slice(Math.max(0, p - 20), p + 20))).toBe(parses);
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

  test('a capture (HAR) cut off mid-way is located the same way, without quoting it (it holds credentials)', () => {
    const headers = '[{"name": "Authorization", "value": "Bearer tok-';
    const har = `{"log": {"version": "1.2", "entries": [\n  {"request": {"headers": ${headers}`;
    const says = 'a string that is never closed starts at line 2, column 63';
    expect(() => parseHar(har, 'cut.har')).toThrow(`cut.har is not JSON (${says}): expected a HAR 1.2 file`);
    expect(() => parseHar(har, 'cut.har')).not.toThrow(/tok-/);
  });

  test('a byte order mark, as some editors write, is accepted', () => {
    expect(loadConfigFile(file('bom.json', `\uFEFF${JSON.stringify(minimal)}`), {}).baseUrl).toBe(minimal.baseUrl);
  });
});

/** The main command in-process: its exit code and what it printed. */
async function run(argv: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('relative paths are taken from the folder npm was run from (INIT_CWD)', () => {
  // As `cd suites && npm run conformance -- …` gives them: npm runs in the package root, INIT_CWD is suites/.
  const sub = join(dir, 'suites');
  mkdirSync(sub);
  writeFileSync(join(sub, 'mine.json'), JSON.stringify(minimal));
  const elsewhere = join(dir, 'reports-elsewhere');
  const noStackTrace = (s: string) => expect(s).not.toMatch(/\n\s+at .+:\d+:\d+/);

  test('INIT_CWD when it is an absolute path, else the current folder', () => {
    expect(userCwd({ INIT_CWD: sub })).toBe(sub);
    expect(userCwd({})).toBe(process.cwd());
    expect(userCwd({ INIT_CWD: 'suites' })).toBe(process.cwd());
  });

  test('--config mine.json is found in that folder', async () => {
    const r = await run(['--list', '--area', 'disclosures', '--config', 'mine.json'], { INIT_CWD: sub });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('OP1-');
  });

  test('DBSI_CONFIG=mine.json too', async () => {
    const r = await run(['--list', '--area', 'disclosures'], { INIT_CWD: sub, DBSI_CONFIG: 'mine.json' });
    expect(r.code, r.err).toBe(0);
  });

  test('a file not found there: exit 2, one line naming the option and the folder', async () => {
    const r = await run(['--config', 'missing.json', '--reports', elsewhere], { INIT_CWD: sub });
    expect(r.code).toBe(2);
    const says = `cannot read the configuration file (--config: missing.json (in ${sub}) does not exist)`;
    expect(r.err).toBe(`dbsi-conformance: configuration error: ${says}`);
    const env = await run(['--list'], { INIT_CWD: sub, DBSI_CONFIG: 'missing.json' });
    expect(env.code).toBe(2);
    expect(env.err).toContain(`(DBSI_CONFIG: missing.json (in ${sub}) does not exist)`);
    noStackTrace(r.err + env.err);
  });

  test('without INIT_CWD (the command run directly), the current folder', async () => {
    const r = await run(['--list', '--config', 'mine.json'], {});
    expect(r.code).toBe(2);
    expect(r.err).toContain(`--config: mine.json (in ${process.cwd()}) does not exist`);
  });

  test('--reports out is created there, not in the package root', async () => {
    const r = await run(['--reports', 'out', '--config', 'missing.json'], { INIT_CWD: sub });
    expect(r.code).toBe(2); // the configuration is refused after the reports folder was checked
    expect(existsSync(join(sub, 'out'))).toBe(true);
    expect(existsSync(join(ROOT, 'out'))).toBe(false);
    writeFileSync(join(sub, 'a-file'), 'x');
    const bad = await run(['--reports', 'a-file'], { INIT_CWD: sub });
    expect(bad.code).toBe(2);
    expect(bad.err).toBe(`dbsi-conformance: --reports: a-file (in ${sub}) is a file, not a directory`);
  });

  test('--traffic capture.har is read there', async () => {
    const request = { method: 'GET', url: 'https://bank.example/index.html', headers: [] };
    const entry = { startedDateTime: '2026-11-20T09:00:00Z', time: 3, request, response: { status: 200, headers: [] } };
    writeFileSync(join(sub, 'capture.har'), JSON.stringify({ log: { version: '1.2', entries: [entry] } }));
    const r = await run(['--traffic', 'capture.har', '--reports', elsewhere], { INIT_CWD: sub });
    expect(r.err).toContain('nothing judgeable in capture.har'); // read, and judged: no operation in it
    expect(r.code).toBe(3);
    const missing = await run(['--traffic', 'missing.har', '--reports', elsewhere], { INIT_CWD: sub });
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(join(sub, 'missing.har'));
  });

  test('npm run record: --config mine.json is looked up there too', async () => {
    const err: string[] = [];
    const io = { out: () => true, err: (l: string) => err.push(l) > 0 };
    const code = await record(['--config', 'missing.json'], { INIT_CWD: sub }, io);
    expect(code).toBe(2);
    expect(err.join('\n')).toContain(`--config: missing.json (in ${sub}) does not exist`);
  });
});

describe('without --reports, a message names the default reports folder, not the option', () => {
  test('a file named reports where the folder would go: exit 2, one line, saying how to choose another', async () => {
    const home = join(dir, 'home');
    mkdirSync(home);
    writeFileSync(join(home, 'reports'), 'x');
    const r = await run(['--config', 'mine.json'], { INIT_CWD: home });
    expect(r.code).toBe(2);
    const says = `the default reports folder (reports/): reports (in ${home}) is a file, not a directory`;
    expect(r.err).toBe(`dbsi-conformance: ${says}; choose another with --reports DIR`);
    const given = await run(['--config', 'mine.json', '--reports', 'reports'], { INIT_CWD: home });
    expect(given.err).toBe(`dbsi-conformance: --reports: reports (in ${home}) is a file, not a directory`);
  });
});

test('a relative TLS file not found names the folder it was looked for in', () => {
  const m = refusal(() => resolveConfig({ ...minimal, http: { tls: { caFile: 'no-such-ca.pem' } } }, {}));
  expect(m).toBe(`"http.tls.caFile": no-such-ca.pem (in ${process.cwd()}) does not exist`);
});
