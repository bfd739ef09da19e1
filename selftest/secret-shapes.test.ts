import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REDACTED, Redactor } from '../harness/redact';
import { scanForSecrets } from '../harness/evidence/bundle';
import { writeEvidence } from '../harness/evidence/evidence';
import { EXIT } from '../harness/run/results';
import type { ConformanceSummary } from '../harness/evidence/summary';
import { REFERENCE_TEST_DATA } from '../reference-target/fixtures';

const base64 = (text: string) => Buffer.from(text).toString('base64');
const unicodeEscape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Issue 11: every configured secret is hidden, and found by the evidence scan, in every encoding a
 * report can hold. The encodings here are written out independently of harness/secret-forms.ts.
 */

const SECRET = `Tok"en\\Q&<b>'+/=%2F x9`;

/** A secret as each kind of artifact or answer may hold it. */
const ENCODINGS: Array<[string, (s: string) => string]> = [
  ['plain', (s) => s],
  ['base64', (s) => Buffer.from(s).toString('base64')],
  ['base64url', (s) => Buffer.from(s).toString('base64url')],
  ['a Basic header', (s) => `Basic ${Buffer.from(`client-7:${s}`).toString('base64')}`],
  ['URL-encoded', (s) => encodeURIComponent(s)],
  ['form-encoded', (s) => new URLSearchParams({ t: s }).toString().slice(2)],
  ['JSON-escaped', (s) => JSON.stringify(s)],
  ['JSON-escaped twice', (s) => JSON.stringify(JSON.stringify(s))],
  [
    'JSON with every non-alphanumeric as \\u',
    (s) => `"${[...s].map((c) => (/[A-Za-z0-9 ]/.test(c) ? c : unicodeEscape(c))).join('')}"`,
  ],
  [
    'XML-escaped (JUnit)',
    (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'),
  ],
  [
    'HTML-escaped',
    (s) =>
      s
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;')
        .replace(/'/g, '&#39;'),
  ],
  [
    'JSON- then XML-escaped',
    (s) => JSON.stringify(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'),
  ],
  [
    'inside the HTML report data (base64 of JSON)',
    (s) => `d("data/x.json","${base64(JSON.stringify({ body: JSON.stringify({ token: s }), pad: 'p'.repeat(5) }))}")`,
  ],
];

describe('redaction hides a secret in every encoding a target may answer with', () => {
  const r = new Redactor([SECRET]);
  test.each(ENCODINGS)('%s', (_n, enc) => {
    const out = r.text(`before ${enc(SECRET)} after`);
    expect(out).toContain(REDACTED);
    expect(out).not.toContain(enc(SECRET));
  });

  test('a secret inside base64 at any alignment is hidden, with the base64 run around it', () => {
    for (let pre = 0; pre < 3; pre++) {
      const run = Buffer.from(`${'x'.repeat(pre)}${SECRET}!`).toString('base64');
      expect(r.text(`Basic ${run}`)).toBe(`Basic ${REDACTED}`);
    }
  });

  test('JSON bodies are re-read, so any JSON escaping of the secret is hidden', () => {
    const body = `{"echo":${ENCODINGS.find(([n]) => n.startsWith('JSON with every'))![1](SECRET)}}`;
    expect(JSON.parse(body).echo).toBe(SECRET);
    expect(r.body(body)).toBe(`{"echo":"${REDACTED}"}`);
  });

  test('more secrets can be added later (e.g. found in a recorded capture)', () => {
    const later = new Redactor([]);
    expect(later.text('x captured-cookie-value-9 y')).toBe('x captured-cookie-value-9 y');
    later.add(['captured-cookie-value-9']);
    expect(later.text('x captured-cookie-value-9 y')).toBe(`x ${REDACTED} y`);
  });
});

describe('the evidence scan finds a secret in every encoding', () => {
  const secrets = [
    { name: 'DBSI_BEARER_TOKEN', value: SECRET },
    { name: 'the Basic credentials', value: Buffer.from(`client-7:${SECRET}`).toString('base64') },
  ];
  test.each(ENCODINGS)('%s', (_n, enc) => {
    const hits = scanForSecrets(
      [{ name: 'allure-history.jsonl', data: Buffer.from(`{"x":1}\n{"m":"a ${enc(SECRET)} b"}\n`) }],
      secrets,
    );
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]!.file).toBe('allure-history.jsonl');
    expect(hits.map((h) => h.secret).join()).toMatch(/DBSI_BEARER_TOKEN|Basic/);
  });
});

describe('allure-history.jsonl is scanned like every other artifact', () => {
  const summary = {
    facts: {
      startedAt: '2026-01-02T03:04:05.000Z',
      suiteVersion: '0.0.0',
      verdict: 'conformant',
      exitCode: 0,
      target: { name: 'x' },
    },
  } as unknown as ConformanceSummary;

  function reportsWith(history: string): string {
    const dir = mkdtempSync(join(tmpdir(), 'dbsi-history-'));
    writeFileSync(join(dir, 'conformance-summary.md'), '# clean\n');
    writeFileSync(join(dir, 'junit.xml'), '<testsuites/>\n');
    writeFileSync(join(dir, 'allure-history.jsonl'), history);
    return dir;
  }

  test('a secret in the history refuses the bundle (exit 4), naming the file and the variable', async () => {
    const history = `{"uuid":"1","testResults":{"a":{"message":"Bearer ${JSON.stringify(SECRET).slice(1, -1)}"}}}\n`;
    const dir = reportsWith(history);
    const err: string[] = [];
    const code = await writeEvidence({
      html: false,
      bundle: true,
      reportsDir: dir,
      resultsDir: join(dir, 'allure-results'),
      summary,
      secrets: [{ name: 'DBSI_BEARER_TOKEN', value: SECRET }],
      io: { out: () => undefined, err: (l) => err.push(l) },
    });
    expect(code).toBe(EXIT.EVIDENCE_REFUSED);
    expect(err.join('\n')).toContain('allure-history.jsonl (DBSI_BEARER_TOKEN, as JSON-escaped)');
    expect(err.join('\n')).not.toContain(SECRET);
    // What was there before this run stays; this run added nothing (no HTML was built).
    expect(readFileSync(join(dir, 'allure-history.jsonl'), 'utf8')).toBe(history);
  });

  test('a clean history lets the bundle be packed', async () => {
    const dir = reportsWith('{"uuid":"1","testResults":{}}\n');
    const code = await writeEvidence({
      html: false,
      bundle: true,
      reportsDir: dir,
      resultsDir: join(dir, 'allure-results'),
      summary,
      secrets: [{ name: 'DBSI_BEARER_TOKEN', value: SECRET }],
      io: { out: () => undefined, err: () => undefined },
    });
    expect(code).toBeUndefined();
  });
});

describe('a secret that is also ordinary test data', () => {
  test('the user name equal to the revocation password: redacted everywhere, and no verdict changes', async () => {
    const { runAreas, explain } = await import('./_reference');
    const plain = await runAreas({ areas: ['authentication'] });
    const same = await runAreas({
      areas: ['authentication'],
      configure: (cfg) => ({
        ...cfg,
        testData: {
          ...cfg.testData,
          revocation: { ...cfg.testData.revocation, username: cfg.testData.revocation.password },
        },
      }),
    });
    const outcomes = (r: typeof plain) => r.cases.map((c) => `${c.id}: ${c.outcome}`).sort();
    expect(outcomes(same), explain(same.cases)).toEqual(outcomes(plain));
    const password = REFERENCE_TEST_DATA.revocation.password;
    expect(JSON.stringify(same.cases)).not.toContain(password);
    expect(JSON.stringify(same.cases)).toContain(REDACTED);
  });
});
