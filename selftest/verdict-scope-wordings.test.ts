import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ConformanceSummary } from '../harness/evidence/summary';
import { reportVerdict } from '../harness/evidence/evidence';
import { verdictBanner } from '../harness/evidence/report';
import { main } from '../harness/run/main';
import { runMain } from './_main';
import { joined } from './_regex';

/**
 * Issue 30: every verdict says exactly what it covers. A capture's verdict names its scope (how many requirements
 * the traffic showed) in facts.headline, the Markdown title, the HTML banner and the console alike; --compare with
 * a run of something else says so in its first line.
 */
const API = 'https://bank.example/api';
const dir = mkdtempSync(join(tmpdir(), 'dbsi-scope-'));

/** One list of institution disclosures, answered as the spec shows. */
function capture() {
  const list = [{ institutionDisclosureId: 'd-1', institutionId: '77', institutionDisclosureName: 'E-Sign' }];
  const headers = { authorization: 'Bearer browser-token-0001', transactionid: 't-1', callingappid: 'bank-web' };
  const entry = {
    startedDateTime: '2026-11-20T09:00:00.000Z',
    time: 40,
    request: {
      method: 'GET',
      url: `${API}/db-disclosures/v1/institution-disclosures`,
      httpVersion: 'http/2.0',
      headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 200,
      statusText: '',
      httpVersion: 'http/2.0',
      headers: [{ name: 'content-type', value: 'application/json' }],
      cookies: [],
      content: { size: 0, mimeType: 'application/json', text: JSON.stringify({ institutionDisclosures: list }) },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 1, wait: 38, receive: 1 },
  };
  return { log: { version: '1.2', creator: { name: 'WebInspector', version: '1' }, pages: [], entries: [entry] } };
}

describe('a verdict names what it covers', () => {
  test('recorded traffic: "in what the traffic shows (N of M requirements observed)" everywhere', async () => {
    const file = join(dir, 'one.har');
    writeFileSync(file, JSON.stringify(capture()));
    const reports = join(dir, 'traffic');
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
    const code = await main(['--traffic', file, '--area', 'disclosures', '--reports', reports], {}, io);
    const s = JSON.parse(readFileSync(join(reports, 'conformance-summary.json'), 'utf8')) as ConformanceSummary;
    const observed = s.requirements.filter((r) => !['not-observed', 'not-testable'].includes(r.verdict)).length;
    const testable = s.requirements.filter((r) => r.verdict !== 'not-testable').length;
    expect(observed).toBeGreaterThan(0);
    expect(observed).toBeLessThan(testable);
    const scope = `in what the traffic shows (${observed} of ${testable} requirements observed)`;
    expect(s.facts.scope).toBe(scope);
    expect(s.facts.headline).toBe(`conformant ${scope}`);
    expect(lines.join('\n')).toContain(`Verdict: conformant ${scope} (exit ${code})`);
    const md = readFileSync(join(reports, 'conformance-summary.md'), 'utf8');
    expect(md.split('\n')[0]).toBe(`# DBSI conformance summary: CONFORMANT ${scope}`);
    expect(verdictBanner('<body>', reportVerdict(s))).toContain(`Verdict: conformant ${scope} <span`);
  });

  test('--compare with a run of another area selection and configuration says so in its first line', async () => {
    const first = await runMain(['--area', 'disclosures', '--grep', 'listInstitutionDisclosures']);
    expect(first.code, first.stdout).toBe(0);
    const previous = join(first.reports, 'conformance-summary.json');
    const same = await runMain([
      '--area',
      'disclosures',
      '--grep',
      'listInstitutionDisclosures',
      '--compare',
      previous,
    ]);
    expect(same.stdout).toMatch(/^Compared with the run of \S+ \(conformant, exit 0; [^)]*\):$/m);
    const other = await runMain(['--area', 'disclosures', '--grep', 'listUserDisclosures', '--compare', previous]);
    expect(other.stdout).toMatch(
      joined(
        'm',
        /^Compared with the run of \S+ \(conformant, exit 0; [^)]*\) — a run of another area selection: /,
        /what changed may come from that, not from the target:$/,
      ),
    );
    const s = JSON.parse(readFileSync(join(other.reports, 'conformance-summary.json'), 'utf8')) as ConformanceSummary;
    expect(s.comparison?.differs).toEqual(['area selection']);
    const md = readFileSync(join(other.reports, 'conformance-summary.md'), 'utf8');
    expect(md).toContain('— a run of another area selection');
    // Another spec and another configuration are named too (the earlier summary edited as such a run writes it).
    const edited = JSON.parse(readFileSync(previous, 'utf8'));
    edited.facts.spec.sha256 = 'f'.repeat(64);
    edited.facts.target = { ...edited.facts.target, embedded: false, name: 'bank sandbox' };
    edited.facts.configSha256 = 'e'.repeat(64);
    const file = join(dir, 'edited.json');
    writeFileSync(file, JSON.stringify(edited));
    const third = await runMain(['--area', 'disclosures', '--grep', 'listInstitutionDisclosures', '--compare', file]);
    expect(third.stdout).toMatch(/\) — a run of another target, another configuration, another spec: what changed/);
  });
});
