import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfigError, loadConfigFile, resolveConfig } from '../harness/config';
import { LocalFileError, prepareReportsDir } from '../harness/local-files';
import { runMain } from './_main';
import { HANG_MS } from './_within';
import { startCountingTarget, type CountingTarget } from './_counting-target';
import { makeTlsFixture, type TlsFixture } from './_tls-files';

/**
 * Issue 11, local input: bad paths, files, URLs and TLS files are refused before anything is sent,
 * with exit 2 and one message naming the option or key, at once (the check itself, bounded by HANG_MS; the main
 * command runs in-process, bounded generously: it proves "does not hang", not speed).
 */

const dir = mkdtempSync(join(tmpdir(), 'dbsi-local-input-'));
const minimal = {
  baseUrl: 'https://bank.example/api',
  authBaseUrl: 'https://bank.example/identity',
  transfersBaseUrl: 'https://bank.example/banking',
};
const noStackTrace = (s: string) => expect(s).not.toMatch(/\n\s+at .+:\d+:\d+/);

/** A target that counts the requests it receives: none may arrive when local input is refused. */
let counter: CountingTarget;
let base = '';
beforeAll(async () => {
  counter = await startCountingTarget();
  base = counter.base;
});
afterAll(() => counter.close());

function counterConfig(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    baseUrl: `${base}/api`,
    authBaseUrl: `${base}/id`,
    transfersBaseUrl: `${base}/xfer`,
    credentials: { bearerToken: 'local-input-token-1' },
    testData: { institutionId: '1', institutionUserId: 'u', accountId: 'a' },
    http: { timeoutMs: 1000 },
    ...extra,
  };
}

function file(name: string, content: string | Buffer): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

/** The error a synchronous check throws, and how long it took. */
function refusal(f: () => unknown): { error: Error; ms: number } {
  const t0 = performance.now();
  try {
    f();
  } catch (e) {
    return { error: e as Error, ms: performance.now() - t0 };
  }
  throw new Error('expected the input to be refused');
}

describe('--reports is checked before anything is sent', () => {
  const regular = file('a-file', 'x');
  test.each([
    ['a regular file', regular, 'is a file, not a directory'],
    ['/dev/null', '/dev/null', 'is a character device, not a directory'],
    ['a path under /proc', '/proc/dbsi-x', 'cannot be created'],
    ['a path under a file', join(regular, 'sub'), 'cannot be used (a part of the path is a file)'],
    ['a read-only pseudo file system', '/proc/self', 'is not writable'],
    ['an empty path', '', 'names no folder'],
  ])('%s: refused at once, naming --reports', (_what, path, says) => {
    const { error, ms } = refusal(() => prepareReportsDir(path));
    expect(error).toBeInstanceOf(LocalFileError);
    expect(error.message).toMatch(/^--reports: /);
    expect(error.message).toContain(says);
    expect(ms, 'refused at once (bounded, not timed: HANG_MS)').toBeLessThan(HANG_MS);
  });

  test('a missing folder is created, also several levels deep, and accepted', () => {
    const deep = join(dir, 'new', 'reports', 'here');
    expect(prepareReportsDir(deep)).toBe(deep);
    writeFileSync(join(deep, 'x'), 'ok');
  });

  test.concurrent.each([['/proc/dbsi-x'], ['/dev/null']])(
    'the main command with --reports %s: exit 2 naming ' + '--reports, no request sent',
    async (path) => {
      const cfg = file(`counter-${path.replace(/\W/g, '')}.json`, JSON.stringify(counterConfig()));
      const before = counter.requests();
      // Rejects when main() has not returned within 30 s.
      const run = await runMain(['--config', cfg, '--area', 'disclosures', '--reports', path], { timeoutMs: 30_000 });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/dbsi-conformance: --reports: /);
      noStackTrace(run.stderr);
      expect(counter.requests()).toBe(before);
    },
  );
});

describe('--config must be a regular file under 1 MiB', () => {
  test('a FIFO is refused at once (never waited on), naming --config', () => {
    const fifo = join(dir, 'config.fifo');
    execFileSync('mkfifo', [fifo]);
    const { error, ms } = refusal(() => loadConfigFile(fifo, {}, '--config'));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain('--config');
    expect(error.message).toContain('is a FIFO (named pipe), not a regular file');
    expect(ms, 'refused at once (bounded, not timed: HANG_MS)').toBeLessThan(HANG_MS);
  });

  test('/dev/zero is refused at once, naming --config', () => {
    const { error, ms } = refusal(() => loadConfigFile('/dev/zero', {}, '--config'));
    expect(error.message).toContain('--config: /dev/zero is a character device, not a regular file');
    expect(ms, 'refused at once (bounded, not timed: HANG_MS)').toBeLessThan(HANG_MS);
  });

  test('a 300 MB file is refused without reading it, naming DBSI_CONFIG when it came from there', () => {
    const big = join(dir, 'big.json');
    const fd = openSync(big, 'w');
    ftruncateSync(fd, 300 * 1024 * 1024); // sparse: no disk space used
    closeSync(fd);
    const { error, ms } = refusal(() => loadConfigFile(big, {}, 'DBSI_CONFIG'));
    expect(error.message).toContain('DBSI_CONFIG');
    expect(error.message).toContain('larger than the 1048576 bytes');
    expect(ms, 'refused at once (bounded, not timed: HANG_MS)').toBeLessThan(HANG_MS);
  });

  test('a directory is refused, naming --config', () => {
    expect(refusal(() => loadConfigFile(dir, {}, '--config')).error.message).toContain(
      'is a directory, not a regular file',
    );
  });

  test('a configuration nested 100 000 levels deep is refused, naming where', () => {
    const deep = file('deep.json', `{"testData":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`);
    const { error, ms } = refusal(() => loadConfigFile(deep, {}, '--config'));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(/"testData\.a\.a\.a[.a]*" is nested deeper than 16 levels/);
    expect(ms, 'refused at once (bounded, not timed: HANG_MS)').toBeLessThan(HANG_MS);
  });

  // The main command with --config naming a FIFO runs as a process: local-input-fifo.test.ts.
});

describe('URLs name their key', () => {
  const message = (raw: Record<string, unknown>) => refusal(() => resolveConfig(raw, {})).error.message;

  test('a port out of range', () => {
    expect(message({ ...minimal, authBaseUrl: 'http://127.0.0.1:99999/id' })).toMatch(
      /"authBaseUrl" (has the port 99999, outside 1–65535|must be an absolute)/,
    );
  });

  test('an unparsable URL', () => {
    expect(message({ ...minimal, transfersBaseUrl: 'https://exa mple.com/x' })).toMatch(
      /"transfersBaseUrl" (is not a valid URL|must be an absolute)/,
    );
    expect(message({ ...minimal, http: { proxyUrl: 'http://proxy:70000' } })).toContain('"http.proxyUrl"');
  });

  test('credentials in a base URL are refused, and the password is not repeated', () => {
    const m = message({ ...minimal, baseUrl: 'https://user:S3cretPw-Long@bank.example/api' });
    expect(m).toContain('"baseUrl" carries credentials in the URL');
    expect(m).not.toContain('S3cretPw-Long');
  });

  test('loopback means a literal loopback address: 127.0.0.1.nip.io is not one', () => {
    expect(message({ ...minimal, baseUrl: 'http://127.0.0.1.nip.io:1/x' })).toContain(
      '"baseUrl" is plain http:// to a ' + 'non-loopback host',
    );
    expect(message({ ...minimal, baseUrl: 'http://localhost.example:1/x' })).toContain('non-loopback');
    for (const ok of ['http://127.0.0.1:8080/a', 'http://127.9.8.7/a', 'http://[::1]:8080/a', 'http://localhost:1/a'])
      expect(resolveConfig({ ...minimal, baseUrl: ok }, {}).baseUrl).toBe(ok);
  });
});

describe('TLS files must be readable PEM, the key matching the certificate', () => {
  let tls: TlsFixture;
  beforeAll(() => {
    tls = makeTlsFixture();
  });
  const message = (t: Record<string, string>) =>
    refusal(() => resolveConfig({ ...minimal, http: { tls: t } }, {})).error.message;

  test('a CA file that is not PEM', () => {
    const der = join(dir, 'ca.der');
    execFileSync('openssl', ['x509', '-in', tls.ca, '-outform', 'der', '-out', der]);
    expect(message({ caFile: der })).toMatch(/"http\.tls\.caFile": .* is not in PEM format/);
  });

  test('a CA file that is a FIFO is refused at once', () => {
    const fifo = join(dir, 'ca.fifo');
    execFileSync('mkfifo', [fifo]);
    expect(message({ caFile: fifo })).toContain('"http.tls.caFile": ');
  });

  test('an encrypted key', () => {
    expect(message({ certFile: tls.client, keyFile: tls.clientKeyEncrypted })).toMatch(
      /"http\.tls\.keyFile": .* encrypted private key/,
    );
  });

  test('a key that does not belong to the certificate', () => {
    expect(message({ certFile: tls.client, keyFile: tls.otherKey })).toMatch(
      /"http\.tls\.keyFile": the private key .* does not belong to the certificate/,
    );
  });

  test('certificate and key swapped', () => {
    expect(message({ certFile: tls.clientKey, keyFile: tls.client })).toMatch(
      /"http\.tls\.certFile": .*not a certificate \(are http\.tls\.certFile and http\.tls\.keyFile swapped\?\)/,
    );
  });

  test('valid files are accepted', () => {
    expect(
      resolveConfig({ ...minimal, http: { tls: { caFile: tls.ca, certFile: tls.client, keyFile: tls.clientKey } } }, {})
        .http.tls.certFile,
    ).toBe(tls.client);
  });

  test('the main command with a mismatched key: exit 2 naming http.tls.keyFile, no request sent', async () => {
    const cfg = file(
      'tls-mismatch.json',
      JSON.stringify(
        counterConfig({ http: { timeoutMs: 1000, tls: { certFile: tls.client, keyFile: tls.otherKey } } }),
      ),
    );
    const before = counter.requests();
    const run = await runMain(['--config', cfg, '--area', 'disclosures'], { timeoutMs: 30_000 });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('"http.tls.keyFile"');
    expect(counter.requests()).toBe(before);
  });
});

test('a folder given as --reports that exists and is writable keeps its other files', () => {
  const keep = join(dir, 'keep');
  mkdirSync(keep);
  writeFileSync(join(keep, 'mine.txt'), 'mine');
  prepareReportsDir(keep);
  expect(readFileSync(join(keep, 'mine.txt'), 'utf8')).toBe('mine');
});
