import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { reportVariables } from '../harness/evidence/evidence';
import { declaredDeviations } from '../harness/run/deviations';
import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { startReferenceTarget } from '../reference-target/server';
import { runMain } from './_main';

/**
 * Issue 30: a base URL of its own is a declared choice, not a pass. The reference target serves contact info
 * only under its own prefix; baseUrl points elsewhere (where, say, the disclosures would be). Set to
 * contactInfoBaseUrl, the run reaches the operation there, and reports it like a declared `paths` deviation: the
 * requirement that states the spec's path is not verified, and the URL is in the facts, the verdict line and the
 * HTML front page. Equal to baseUrl, it is no deviation at all.
 */
describe('contactInfoBaseUrl other than baseUrl', () => {
  test('is a declared deviation: OP10-PATH not verified, the URL in facts, verdict line and front page', async () => {
    const target = await startReferenceTarget();
    try {
      const origin = new URL(target.urls.baseUrl).origin;
      const raw = {
        name: 'own contact base',
        ...target.urls,
        baseUrl: `${origin}/elsewhere`,
        contactInfoBaseUrl: target.urls.baseUrl,
        credentials: { ...REFERENCE_CREDENTIALS },
        testData: { ...REFERENCE_TEST_DATA, moreCustomers: [] },
        allow: { contactUpdate: true },
      };
      const r = await runMain(['--area', 'contact-info', '--grep', 'phone number update alone'], {
        raw,
        timeoutMs: 120_000,
      });
      const summary = JSON.parse(readFileSync(join(r.reports, 'conformance-summary.json'), 'utf8'));
      const row = summary.requirements.find((x: { id: string }) => x.id === 'OP10-PATH');
      expect(row.verdict, r.stdout).toBe('not-verified');
      expect(row.notes[0]).toMatch(/^declared deviation, not verified at the spec's path: contactInfoBaseUrl: 10\./);
      const used = `PUT ${target.urls.baseUrl}/customers/{customerId}:contact-info`;
      expect(summary.facts.deviations.map((d: { key: string; text: string }) => [d.key, d.text])).toEqual([
        [
          'contactInfoBaseUrl',
          `contactInfoBaseUrl: 10. Update contact information is sent to ${used} instead of the spec's ` +
            `{base_url}/customers/{customerId}:contact-info at the {base_url} of the other operations, ` +
            `baseUrl ${origin}/elsewhere`,
        ],
      ]);
      expect(summary.facts.headline).toMatch(/; 1 declared deviation \(contactInfoBaseUrl\)$/);
      expect(r.stdout).toMatch(/^Verdict: .*1 declared deviation \(contactInfoBaseUrl\)/m);
      expect(r.stderr).toContain('declared deviation: contactInfoBaseUrl');
      expect(reportVariables(summary)['Declared deviations']).toContain(used);
    } finally {
      await target.close();
    }
  });

  test('equal to baseUrl (or unset) it is no deviation', () => {
    const baseUrl = 'https://bank.example/api';
    expect(declaredDeviations({ baseUrl, contactInfoBaseUrl: baseUrl })).toEqual([]);
    expect(declaredDeviations({ baseUrl })).toEqual([]);
    expect(declaredDeviations({ baseUrl, contactInfoBaseUrl: `${baseUrl}/v1` }).map((d) => d.requirements)).toEqual([
      ['OP10-PATH'],
    ]);
  });
});
