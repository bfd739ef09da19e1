import { randomInt } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { scanForSecrets } from '../harness/evidence/bundle';
import { filesUnder, untarGz } from './_artifacts';
import { runMain, type MainRun } from './_main';

/**
 * Issue 11, end to end: a hostile target echoes every request (headers and body) back in every
 * encoding (as is, JSON-escaped once and twice, HTML-escaped, URL-encoded, base64, in a response
 * header), and the configured secrets hold the characters that escaping changes. A run with
 * --html --bundle leaves none of them in any artifact or on the console, in any encoding; and the
 * scan of those artifacts refuses none of 40 sets of random 8-character secrets (no refusal by chance).
 */

const SECRETS: Record<string, string> = {
  DBSI_BEARER_TOKEN: `Tok"en\\Q&<b>'+/=%2F x9`,
  DBSI_TRANSFERS_TOKEN: 'tr@ns/fer+Tok==9',
  DBSI_TRANSFERS_FORBIDDEN_TOKEN: `r3ad"0nly\\tok`,
  DBSI_REVOCATION_CLIENT_SECRET: `cl!ent&secret"<7>`,
  DBSI_REVOCATION_PASSWORD: `p@ss w0rd\\"é'`,
  DBSI_REVOCATION_REFRESH_TOKEN: 'refresh/Tok+en%41',
};
const API_KEY = `ap1-K3y"&<x>'`;
const CLIENT_ID = 'echo-client-77';

const html = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** Every secret value and the encodings of it an artifact could hold (independent of harness/secret-forms.ts). */
function needles(): Array<{ name: string; value: string }> {
  const values: Array<[string, string]> = [
    ...Object.entries(SECRETS),
    ['contact-info x-api-key', API_KEY],
    ['Basic header', Buffer.from(`${CLIENT_ID}:${SECRETS.DBSI_REVOCATION_CLIENT_SECRET}`).toString('base64')],
  ];
  return values.flatMap(([name, v]) => [
    { name: `${name}`, value: v },
    { name: `${name} (JSON)`, value: JSON.stringify(v).slice(1, -1) },
    { name: `${name} (JSON twice)`, value: JSON.stringify(JSON.stringify(v)).slice(1, -1) },
    { name: `${name} (HTML)`, value: html(v) },
    { name: `${name} (XML of JSON)`, value: html(JSON.stringify(v).slice(1, -1)) },
    { name: `${name} (URL)`, value: encodeURIComponent(v) },
    { name: `${name} (base64)`, value: Buffer.from(v).toString('base64').replace(/=+$/, '') },
  ]);
}

/** The file's text and every base64 run in it decoded. */
const views = (data: Buffer) => {
  const s = data.toString('utf8');
  return [s, ...[...s.matchAll(/[A-Za-z0-9+/]{16,}={0,2}/g)].map((m) => Buffer.from(m[0], 'base64').toString('utf8'))];
};

let echo: Server;
let echoed = 0;
let run: MainRun;
let contents: Array<{ name: string; data: Buffer }>;

beforeAll(async () => {
  echo = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString('latin1')));
    req.on('end', () => {
      echoed++;
      const seen = JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body });
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-echo-authorization', req.headers.authorization ?? 'none');
      res.end(
        JSON.stringify({
          echo: JSON.parse(seen),
          json: seen,
          jsonTwice: JSON.stringify(seen),
          html: html(seen),
          url: encodeURIComponent(seen),
          base64: Buffer.from(seen).toString('base64'),
        }),
      );
    });
  });
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(echo.address() as { port: number }).port}`;
  const cfg = join(mkdtempSync(join(tmpdir(), 'dbsi-echo-')), 'target.json');
  writeFileSync(
    cfg,
    JSON.stringify({
      // A secret in the target's name: the reports' facts and the console show it redacted too.
      name: `echo target ${SECRETS.DBSI_TRANSFERS_TOKEN}`,
      baseUrl: `${base}/api`,
      authBaseUrl: `${base}/identity`,
      transfersBaseUrl: `${base}/banking`,
      testData: {
        institutionId: '1001',
        institutionUserId: 'user-1',
        accountId: 'acct-1',
        disclosure: { institutionDisclosureId: 'disc-1', institutionDisclosureName: 'E-Sign' },
        transfer: { fromAccountId: 'acct-1', toAccountId: 'acct-2', currencyCode: 'AED', amount: 0.01 },
        customer: { customerId: 'cust-1', userIdType: 'CUSTOMER_ID', phoneNumber: '5550100', countryCode: '1' },
        revocation: { institutionId: '1001', grant_type: 'refresh_token', username: 'user-1', scopes: 'openid' },
      },
      allow: { moneyMovement: true, contactUpdate: true, tokenRevocation: true, institutionDisclosureWrites: true },
      http: { timeoutMs: 5_000, retries: 0 },
    }),
  );
  run = await runMain(['--config', cfg, '--html', '--bundle', '--seed', '11'], {
    env: {
      ...SECRETS,
      DBSI_REVOCATION_CLIENT_ID: CLIENT_ID,
      DBSI_CONTACT_INFO_HEADERS: JSON.stringify({ 'x-api-key': API_KEY }),
      NO_COLOR: '1',
    },
    timeoutMs: 280_000,
  });
  const files = filesUnder(run.reports);
  contents = [
    ...files
      .filter((f) => !f.endsWith('.tar.gz') && !f.endsWith('target.json'))
      .map((f) => ({ name: f.slice(run.reports.length + 1), data: readFileSync(f) })),
    ...files
      .filter((f) => f.endsWith('.tar.gz'))
      .flatMap((f) => untarGz(f).map((e) => ({ name: `bundle:${e.name}`, data: e.data }))),
    { name: 'console', data: Buffer.from(run.stdout + run.stderr) },
  ];
}, 300_000);

afterAll(() => new Promise<void>((r) => echo.close(() => r())));

describe('a target echoing every secret in every encoding', () => {
  test('the run reached the target, wrote every artifact and packed the bundle (no secret to refuse it for)', () => {
    expect(echoed, run.stderr).toBeGreaterThan(20);
    expect(run.code, run.stdout + run.stderr).not.toBe(4);
    expect([0, 1, 3]).toContain(run.code);
    const names = readdirSync(run.reports);
    for (const f of [
      'conformance-summary.json',
      'conformance-summary.md',
      'junit.xml',
      'allure-results',
      'conformance-report.html',
      'allure-history.jsonl',
    ])
      expect(names).toContain(f);
    expect(names.some((f) => /^dbsi-evidence-.*\.tar\.gz$/.test(f))).toBe(true);
    // The secrets were in play: the echoes came back, redacted.
    expect(contents.some((c) => c.name.endsWith('-attachment.txt') && c.data.toString().includes('[REDACTED]'))).toBe(
      true,
    );
  });

  test('0 hits in every artifact and the console, in every encoding', () => {
    const all = needles();
    const found: string[] = [];
    for (const c of contents) {
      const v = views(c.data);
      for (const n of all) if (v.some((t) => t.includes(n.value))) found.push(`${n.name} in ${c.name}`);
    }
    expect(contents.length).toBeGreaterThan(20);
    expect(found).toEqual([]);
  });

  test('the scan refuses none of 40 sets of random 8-character secrets over these artifacts', () => {
    const chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
    const entries = contents.filter((c) => c.name !== 'console');
    // All 40 sets in one scan (the artifacts are decoded once); a hit is a refusal of its set.
    const sets = Array.from({ length: 40 }, (_, set) =>
      Array.from({ length: 8 }, (_, i) => ({
        name: `set ${set} secret ${i}`,
        value: Array.from({ length: 8 }, () => chars[randomInt(chars.length)]).join(''),
      })),
    );
    const hits = scanForSecrets(entries, sets.flat());
    const refusals = hits.map(
      (h) =>
        `${h.secret} (${JSON.stringify(sets.flat().find((s) => s.name === h.secret)!.value)}) ` +
        `in ${h.file} as ${h.form}`,
    );
    expect(refusals).toEqual([]);
  });
});
