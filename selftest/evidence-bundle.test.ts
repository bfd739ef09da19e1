import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BundleRefused, scanForSecrets, writeBundle } from '../harness/evidence/bundle';
import { stripAnalytics } from '../harness/evidence/report';
import { untarGz } from './_artifacts';

const base64 = (text: string) => Buffer.from(text).toString('base64');

const facts = { createdAt: '2026-01-02T03:04:05.000Z', suiteVersion: '0.0.0', verdict: 'conformant', exitCode: 0 };
const SECRET = 'tok-3f9a1c7e5b2d';

function files(contents: Record<string, string>): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'dbsi-bundle-'));
  return Object.entries(contents).map(([name, text]) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  });
}

describe('evidence bundle', () => {
  test('packs the files, MANIFEST.json and SHA256SUMS into a tar.gz whose hashes match', () => {
    const input = files({
      'conformance-summary.md': '# summary\n',
      'junit.xml': '<testsuites/>\n'.repeat(100),
      'conformance-summary.json': '{}',
    });
    const target = join(mkdtempSync(join(tmpdir(), 'dbsi-bundle-out-')), 'b.tar.gz');
    const manifest = writeBundle(target, input, [SECRET], facts);
    const entries = untarGz(target);
    expect(entries.map((e) => e.name)).toEqual([
      'conformance-summary.md',
      'junit.xml',
      'conformance-summary.json',
      'MANIFEST.json',
      'SHA256SUMS',
    ]);
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    for (const f of manifest.files) expect(sha(entries.find((e) => e.name === f.name)!.data)).toBe(f.sha256);
    expect(JSON.parse(entries.find((e) => e.name === 'MANIFEST.json')!.data.toString())).toEqual(manifest);
    const sums = entries
      .find((e) => e.name === 'SHA256SUMS')!
      .data.toString()
      .trim()
      .split('\n');
    expect(sums).toEqual(manifest.files.map((f) => `${f.sha256}  ${f.name}`));
  });

  test.each([
    ['as plain text', `Authorization: Bearer ${SECRET}`],
    ['base64-encoded', `x ${Buffer.from(SECRET).toString('base64')} y`],
    ['inside a Basic header value', `Authorization: Basic ${Buffer.from(`client:${SECRET}`).toString('base64')}`],
    [
      'inside base64-embedded report data',
      `d("data/x.json","${base64(JSON.stringify({ header: `Bearer ${SECRET}`, padding: 'p'.repeat(7) }))}")`,
    ],
    ['URL-encoded', `?t=${encodeURIComponent(SECRET + '/+')}`],
  ])('is refused when a file contains a secret %s, and nothing is written', (_how, text) => {
    const secrets =
      _how === 'inside a Basic header value'
        ? [Buffer.from(`client:${SECRET}`).toString('base64')]
        : _how === 'URL-encoded'
          ? [SECRET + '/+']
          : [SECRET];
    const input = files({ 'conformance-summary.md': '# fine\n', 'junit.xml': text });
    const target = join(mkdtempSync(join(tmpdir(), 'dbsi-bundle-out-')), 'b.tar.gz');
    let err: unknown;
    try {
      writeBundle(target, input, secrets, facts);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BundleRefused);
    expect((err as Error).message).toContain('junit.xml');
    expect((err as Error).message).not.toContain(SECRET);
    expect(existsSync(target)).toBe(false);
  });

  test('finds nothing in files without a secret (no false alarm on similar text)', () => {
    expect(
      scanForSecrets(
        [
          {
            name: 'a',
            data: Buffer.from(
              `Authorization: Bearer [REDACTED] tok-3f9a1c7e5b2 ` + `${Buffer.from('unrelated').toString('base64')}`,
            ),
          },
        ],
        [SECRET],
      ),
    ).toEqual([]);
  });

  test('the HTML report loses the analytics tag the Allure template carries', () => {
    const html =
      `<body>\n    <script async src="https://www.googletagmanager.com/gtag/js?id=G-X"></script>\n    ` +
      `<script>\n        window.dataLayer = window.dataLayer || [];\n        gtag('config', 'G-X', {});\n    ` +
      `</script>\n    <script async>window.allureReportData = {}</script></body>`;
    const out = stripAnalytics(html);
    expect(out).not.toContain('googletagmanager');
    expect(out).not.toContain('dataLayer');
    expect(out).toContain('allureReportData');
  });
});
