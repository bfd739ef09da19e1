import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

/**
 * CONTRIBUTING's code examples compile (issue 32): every ```ts block begins with a comment naming the file it
 * would be (`// suites/disclosures/example.ts`); it is type-checked there, in memory (nothing is written), with
 * the project's compiler options, so its imports and calls are the real ones.
 */

const ROOT = join(dirname(new URL(import.meta.url).pathname), '..');

/** The ```ts blocks of a Markdown text, with the path their first line names. */
export function examplesOf(markdown: string): Array<{ path: string; code: string }> {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => {
    const code = m[1]!;
    const path =
      /^\/\/ ((?:suites|harness|selftest|requirements|reference-target)\/[\w/.-]+\.ts)\n/.exec(code)?.[1] ?? '';
    return { path, code };
  });
}

/** The type errors of `code` as the file `path` of the package (empty: it compiles). */
function typeErrors(path: string, code: string): string[] {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const file = join(ROOT, path.replace(/\.ts$/, '.contributing-example.ts'));
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (f) => f === file || fileExists(f);
  host.readFile = (f) => (f === file ? code : readFile(f));
  host.getSourceFile = (f, lang, ...rest) =>
    f === file ? ts.createSourceFile(f, code, lang, true) : getSourceFile(f, lang, ...rest);
  const program = ts.createProgram([file], { ...options, noEmit: true }, host);
  const source = program.getSourceFile(file)!;
  return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map(
    (d) =>
      `${path}:${d.start === undefined ? '?' : source.getLineAndCharacterOfPosition(d.start).line + 1}: ` +
      ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  );
}

describe("CONTRIBUTING's examples", () => {
  const examples = examplesOf(readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8'));

  test('every ts example names the file it would be', () => {
    expect(examples.length).toBeGreaterThan(0);
    expect(examples.filter((e) => !e.path).map((e) => e.code.split('\n')[0])).toEqual([]);
  });

  test('every ts example compiles where it says it lives', () => {
    const errors = examples.flatMap((e) => typeErrors(e.path, e.code));
    expect(errors, `examples that do not compile:\n  ${errors.join('\n  ')}`).toEqual([]);
  });

  test('the checker sees a call that does not exist and an import that names no file', () => {
    const bad =
      "// suites/x.ts\nimport { nothing } from '../harness/none';\nconst n: number = 'a';\nexport { n, nothing };";
    expect(typeErrors('suites/x.ts', bad).length).toBeGreaterThanOrEqual(2);
  });

  test('a driver example holds what it sent to the rules: it never calls t.verify', () => {
    const verifying = examples.filter((e) => e.path.startsWith('suites/') && /\.verify\(/.test(e.code));
    expect(verifying.map((e) => e.path)).toEqual([]);
  });
});
