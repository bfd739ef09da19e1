import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from '../harness/run/main';
import type { ConformanceSummary } from '../harness/evidence/summary';
import { filesUnder } from './_artifacts';

/**
 * A capture written by hand in the style of a browser's "Save all as HAR": HTTP/2 lower-case header
 * names, a base64-encoded body, a static asset, an aborted entry, a 429 followed by its retry, and
 * credentials in clear (a Bearer token, Basic credentials, a password and tokens in bodies). Judged
 * without a configuration, so the base URLs are inferred.
 */

const API = 'https://bank.example/api';
const AUTH = 'https://login.bank.example/identity';
const BEARER = 'eyJhbGciOiJIUzI1NiJ9.browser-session-token.c2lnbmF0dXJl';
const SHARED_KEY = 'app-shared-key-77';
const SECRET_KEY = 'app-secret-key-Qx91';
const PASSWORD = 'correct horse battery staple';
const REFRESH = 'rt-9f8e7d6c5b4a-refresh';
const NEW_ACCESS = 'at-1a2b3c4d5e6f-access';
const SECRETS = [
  BEARER,
  SECRET_KEY,
  PASSWORD,
  REFRESH,
  NEW_ACCESS,
  Buffer.from(`${SHARED_KEY}:${SECRET_KEY}`).toString('base64'),
];

let clock = Date.parse('2026-11-20T09:00:00.000Z');
function entry(
  method: string,
  url: string,
  o: {
    headers?: Record<string, string>;
    body?: string;
    status: number;
    resHeaders?: Record<string, string>;
    text?: string;
    base64?: boolean;
    time?: number;
    error?: string;
  },
) {
  const started = new Date((clock += 1000)).toISOString();
  const time = o.time ?? 40;
  return {
    startedDateTime: started,
    time,
    request: {
      method,
      url,
      httpVersion: 'http/2.0',
      headers: [
        { name: ':authority', value: new URL(url).host },
        { name: ':method', value: method },
        ...Object.entries(o.headers ?? {}).map(([name, value]) => ({ name, value })),
      ],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: o.body ? o.body.length : 0,
      ...(o.body !== undefined ? { postData: { mimeType: 'application/json', text: o.body } } : {}),
    },
    response: {
      status: o.status,
      statusText: '',
      httpVersion: 'http/2.0',
      headers: Object.entries(o.resHeaders ?? {}).map(([name, value]) => ({ name, value })),
      cookies: [],
      content: {
        size: o.text?.length ?? 0,
        mimeType: 'application/json',
        ...(o.text !== undefined
          ? {
              text: o.base64 ? Buffer.from(o.text).toString('base64') : o.text,
              ...(o.base64 ? { encoding: 'base64' } : {}),
            }
          : {}),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      ...(o.error ? { _error: o.error } : {}),
    },
    cache: {},
    timings: { send: 1, wait: time - 2, receive: 1 },
    _resourceType: 'fetch',
  };
}

const common = {
  authorization: `Bearer ${BEARER}`,
  transactionid: '0f9d1c54-9a55-4b6e-9b4e-5a8c6b1f2d3e',
  callingappid: 'bank-web',
  accept: 'application/json',
};
const disclosures = {
  institutionDisclosures: [
    {
      institutionDisclosureId: 'd-1',
      institutionId: '77',
      institutionDisclosureName: 'E-Sign',
      institutionDisclosureData: 'https://bank.example/esign.pdf',
      institutionDisclosureDataType: 'URL',
      institutionDisclosureStatus: true,
    },
  ],
};
const record = (status: string) => ({
  institutionUserDisclosures: [
    {
      institutionId: '77',
      institutionUserId: 'u-1',
      institutionUserDisclosureStatus: status,
      institutionDisclosureName: 'E-Sign',
    },
  ],
});
const createHeaders = {
  ...common,
  'content-type': 'application/json',
  institutionuserdisclosurestatus: 'ACCEPTED',
  institutiondisclosurename: 'E-Sign',
  accountid: 'acc-1',
  institutiondisclosureid: 'd-1',
  institutionuserdisclosurestatusupdatedatetime: '2026-11-20T09:00:00Z',
};
// The app sends the status in the body as a boolean where the spec documents a string: a client's mistake, a warning.
const createBody = JSON.stringify({ institutionUserDisclosureStatus: true, institutionDisclosureName: 'E-Sign' });

/** The browser session; `listedAfterCreate` is what the list after the successful create shows. */
function session(listedAfterCreate: object) {
  clock = Date.parse('2026-11-20T09:00:00.000Z');
  return {
    log: {
      version: '1.2',
      creator: { name: 'WebInspector', version: '537.36' },
      pages: [],
      entries: [
        entry('GET', 'https://bank.example/assets/app.js', {
          status: 200,
          resHeaders: { 'content-type': 'text/javascript' },
          text: 'console.log(1)',
        }),
        entry('GET', 'https://fonts.example.net/font.woff2', { status: 200, text: '' }),
        entry('GET', `${API}/db-disclosures/v1/institution-disclosures`, {
          headers: common,
          status: 200,
          resHeaders: { 'content-type': 'application/json' },
          text: JSON.stringify(disclosures),
          base64: true,
        }),
        entry('GET', `${API}/db-disclosures/v1/institution-user-disclosures?InstitutionConsumerId=u-1`, {
          headers: common,
          status: 0,
          text: undefined,
          error: 'net::ERR_ABORTED',
          time: -1,
        }),
        entry('POST', `${API}/db-disclosures/v1/institution-user-disclosures`, {
          headers: createHeaders,
          body: createBody,
          status: 429,
          resHeaders: { 'retry-after': '1' },
          text: '',
        }),
        entry('POST', `${API}/db-disclosures/v1/institution-user-disclosures`, {
          headers: createHeaders,
          body: createBody,
          status: 204,
          text: '',
        }),
        entry('GET', `${API}/db-disclosures/v1/institution-user-disclosures?InstitutionConsumerId=u-1`, {
          headers: common,
          status: 200,
          text: JSON.stringify(listedAfterCreate),
        }),
        entry('DELETE', `${AUTH}/oauth2/v1/revoke`, {
          headers: {
            authorization: `Basic ${Buffer.from(`${SHARED_KEY}:${SECRET_KEY}`).toString('base64')}`,
            institutionid: '77',
            transactionid: 'f1e2d3c4-0000-4000-8000-000000000001',
            'content-type': 'application/json',
          },
          body: JSON.stringify({
            grant_type: 'refresh_token',
            username: 'jordan',
            password: PASSWORD,
            refresh_token: REFRESH,
          }),
          status: 200,
          text: JSON.stringify({
            expires_in: '3600',
            di_fiid: '77',
            di_ficustomer: 'u-1',
            access_token: NEW_ACCESS,
            refresh_token: REFRESH,
            refresh_token_expires_in: '86400',
          }),
        }),
      ],
    },
  };
}

async function judge(har: object, extra: string[] = [], env: NodeJS.ProcessEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'dbsi-browser-har-'));
  const file = join(dir, 'bank.example.har');
  writeFileSync(file, JSON.stringify(har, null, 2));
  const lines: string[] = [];
  const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
  const code = await main(['--traffic', file, '--reports', join(dir, 'reports'), ...extra], env, io);
  const summary = JSON.parse(
    readFileSync(join(dir, 'reports', 'conformance-summary.json'), 'utf8'),
  ) as ConformanceSummary;
  return { code, out: lines.join('\n'), summary, dir };
}

const verdict = (s: ConformanceSummary, id: string) => s.requirements.find((r) => r.id === id)!.verdict;

describe('a browser-style HAR, judged without a configuration', () => {
  test('is judged conformant in what it shows; the base URLs are inferred and said', async () => {
    const { code, out, summary } = await judge(session(record('ACCEPTED')), ['--area', 'disclosures,authentication']);
    expect(code, out).toBe(0);
    expect(out).toContain(`inferred baseUrl: ${API}`);
    expect(out).toContain(`inferred authBaseUrl: ${AUTH}`);
    expect(summary.traffic!.ignored).toMatchObject({ 'not an API path': 1, 'other host': 1 });
    // The base64 body is decoded and judged; HTTP/2 lower-case header names count.
    for (const id of [
      'OP1-REQUEST',
      'OP1-RESPONSE-ENVELOPE',
      'RES-DISCLOSURE-FIELD-TYPES',
      'OP5-REQUEST',
      'OP5-STATUS-204',
      'STATE-UD-CREATE',
      'OP8-REQUEST',
      'OP8-RESPONSE-TOKEN-RECORD',
    ])
      expect(verdict(summary, id), id).toBe('passed');
    expect(verdict(summary, 'OP9-REQUEST')).toBe('not-observed');
    // The client's own mistake is a warning, not a verdict on the target.
    expect(verdict(summary, 'CLIENT-REQUEST-AS-DOCUMENTED')).toBe('warning');
    expect(
      summary.traffic!.exchanges.find((l) => l.operation === 'createUserDisclosure' && l.status === 204)!.warned,
    ).toEqual(['CLIENT-REQUEST-AS-DOCUMENTED']);
    const lines = summary.traffic!.exchanges.map((l) => l.notes.join(' ') + ' ' + l.proved.join(' '));
    expect(lines.some((l) => /aborted/.test(l))).toBe(true);
    expect(lines.some((l) => /429: rate limited/.test(l))).toBe(true);
  });

  test('an area the traffic never shows is not tested: exit 5, as an active run with an area not tested', async () => {
    const env = { DBSI_SPEC_URL: 'https://spec.example/dbsi.md' };
    const { code, out, summary } = await judge(session(record('ACCEPTED')), [], env);
    expect(code, out).toBe(5);
    const scope = /in what the traffic shows \((\d+) of (\d+) requirements observed\)/.source;
    expect(out).toMatch(
      new RegExp(
        `Verdict: conformant in the areas tested \\(2 of 4\\) ${scope}; ` +
          'not tested: money movement, contact info \\(not observed: no exchange in the capture\\) \\(exit 5\\)',
      ),
    );
    expect(summary.facts.verdict).toBe('conformant in the areas tested');
    expect(summary.facts.coverage!.notTested.map((n) => n.area)).toEqual(['money-movement', 'contact-info']);
    // The reports link the spec where DBSI_SPEC_URL says (else the spec file of this checkout), as an active run's do.
    expect(summary.facts.spec.url).toBe('https://spec.example/dbsi.md');
    const local = await judge(session(record('ACCEPTED')), ['--area', 'disclosures']);
    expect(local.code, local.out).toBe(0);
    expect(local.summary.facts.spec.url).toMatch(/^file:\/\/.*\/spec\/digital-banking-service-interface\.md$/);
  });

  test('a record the list does not show after its 2xx create is a broken STATE-UD-CREATE (exit 1)', async () => {
    const { code, out, summary } = await judge(session({ institutionUserDisclosures: [] }));
    expect(code, out).toBe(1);
    expect(verdict(summary, 'STATE-UD-CREATE')).toBe('failed');
    expect(out).toMatch(/BROKE STATE-UD-CREATE/);
  });

  test('every credential of the capture is redacted in every artifact and the output', async () => {
    const area = ['--area', 'disclosures,authentication'];
    const { code, out, dir } = await judge(session(record('ACCEPTED')), ['--bundle', ...area]);
    expect(code, `the bundle's own scan (exit 4 when a secret is found), ${out}`).toBe(0);
    const texts = [out, ...filesUnder(join(dir, 'reports')).map((f) => readFileSync(f).toString('latin1'))];
    for (const s of SECRETS) {
      const forms = [s, Buffer.from(s).toString('base64').replace(/=+$/, '')];
      expect(texts.filter((t) => forms.some((f) => t.includes(f))).length, `${s.slice(0, 6)}… appears`).toBe(0);
    }
  });
});
