import { closeSync, ftruncateSync, mkdtempSync, openSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runMain } from './_main';

/**
 * A file that cannot be judged gets one message and a documented exit code, fast, never a stack
 * trace: 2 for a file that is not JSON, not HAR or too large (refused before it is read), 3 for a
 * HAR in which no entry is an exchange of a documented operation.
 */

const dir = mkdtempSync(join(tmpdir(), 'dbsi-malformed-har-'));
function file(name: string, content: string): string {
  writeFileSync(join(dir, name), content);
  return join(dir, name);
}

/** A sparse file of the given size: 200 MB on the command line, nothing on the disk. */
function huge(name: string, bytes: number): string {
  const p = join(dir, name);
  const fd = openSync(p, 'w');
  ftruncateSync(fd, bytes);
  closeSync(fd);
  return p;
}

const cases: Array<{ name: string; make: () => string; code: number; message: RegExp }> = [
  {
    name: 'a file that is not JSON',
    make: () => file('page.har', '<html><body>Save as HAR failed</body></html>'),
    code: 2,
    message: /is not JSON/,
  },
  {
    name: 'JSON that is not HAR',
    make: () => file('config.har', JSON.stringify({ baseUrl: 'https://bank.example' })),
    code: 2,
    message: /JSON but not HAR/,
  },
  {
    name: 'a HAR whose entries match no operation',
    make: () =>
      file(
        'static.har',
        JSON.stringify({
          log: {
            version: '1.2',
            entries: [
              {
                startedDateTime: '2026-11-20T09:00:00Z',
                time: 3,
                request: { method: 'GET', url: 'https://bank.example/index.html', headers: [] },
                response: { status: 200, headers: [], content: { text: '<html></html>' } },
              },
            ],
          },
        }),
      ),
    code: 3,
    message: /nothing judgeable.*none of its 1 entries/,
  },
  {
    name: 'a 200 MB file',
    make: () => huge('huge.har', 200 * 1024 * 1024),
    code: 2,
    message: /larger than the 32 MiB a capture may be/,
  },
  {
    name: 'a file that does not exist',
    make: () => join(dir, 'missing.har'),
    code: 2,
    message: /cannot read .*missing\.har: ENOENT/,
  },
];

describe('a capture that cannot be judged', () => {
  test.each(cases)('$name: exit $code with one message, fast', async ({ make, code, message }) => {
    // Generous: the point is that nothing of the file is read or hangs (main() rejects after 30 s).
    const r = await runMain(['--traffic', make()], { timeoutMs: 30_000 });
    expect(r.code, r.stderr).toBe(code);
    const lines = r.stderr.split('\n').filter((l) => l.trim() && !/^npm warn/.test(l));
    expect(lines, 'one message').toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(r.stderr + r.stdout).not.toMatch(/^\s+at /m);
    expect(readdirSync(r.reports)).toEqual([]);
  });

  test('options that send requests do not apply with --traffic: exit 2 with one message', async () => {
    const r = await runMain(['--traffic', join(dir, 'x.har'), '--fault', 'op1-html-body'], { timeoutMs: 60_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--fault does not apply with --traffic/);
  });
});
