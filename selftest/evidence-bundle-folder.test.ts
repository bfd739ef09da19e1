import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { writeBundle } from '../harness/evidence/bundle';
import { untarGz as readBundle } from '../harness/evidence/tar-read';
import { untarGz, untarGzRaw } from './_artifacts';

/**
 * Issue 34: the evidence bundle unpacks into one folder named after it (not files among the reader's own), and its
 * MANIFEST names the target and the seed of the run.
 */
describe('the evidence bundle', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dbsi-bundle-'));
  writeFileSync(join(dir, 'conformance-summary.md'), '# summary\n');
  writeFileSync(join(dir, 'junit.xml'), '<testsuites/>\n');
  const target = { name: 'sandbox', baseUrl: 'https://b.example/api', authBaseUrl: 'https://b.example/id' };
  const facts = {
    createdAt: '2026-11-28T06:00:00.000Z',
    suiteVersion: '0.1.0',
    verdict: 'conformant',
    exitCode: 0,
    target: { ...target, transfersBaseUrl: 'https://b.example/bank', embedded: false },
    seed: 4711,
  };
  const file = join(dir, 'dbsi-evidence-2026-11-28T06-00-00.tar.gz');
  writeBundle(file, [join(dir, 'conformance-summary.md'), join(dir, 'junit.xml')], [], facts);

  test('holds one top folder named after the bundle, and every file in it', () => {
    const raw = untarGzRaw(file).map((e) => e.name);
    expect(raw[0]).toBe('dbsi-evidence-2026-11-28T06-00-00/');
    expect(raw.slice(1).every((n) => n.startsWith('dbsi-evidence-2026-11-28T06-00-00/'))).toBe(true);
    // The system's tar agrees, and sha256sum -c holds inside the folder.
    const out = mkdtempSync(join(tmpdir(), 'dbsi-unpack-'));
    execFileSync('tar', ['-xzf', file, '-C', out]);
    const inside = join(out, 'dbsi-evidence-2026-11-28T06-00-00');
    expect(execFileSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: inside }).toString()).toMatch(/junit\.xml: OK/);
  });

  test("is read by its files' own names, and its MANIFEST names the target and the seed", () => {
    const names = readBundle(readFileSync(file)).map((e) => e.name);
    expect(names).toEqual(['conformance-summary.md', 'junit.xml', 'MANIFEST.json', 'SHA256SUMS']);
    const manifest = JSON.parse(
      untarGz(file)
        .find((e) => e.name === 'MANIFEST.json')!
        .data.toString('utf8'),
    );
    expect(manifest.target).toMatchObject({ name: 'sandbox', baseUrl: 'https://b.example/api', embedded: false });
    expect(manifest.seed).toBe(4711);
  });
});
