import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { configWarnings, resolveConfig } from '../harness/config';
import { caseId } from '../harness/case';
import { declaredDeviations, deviationHeadline, markDeviations } from '../harness/run/deviations';
import { dryRun } from '../harness/run/dry-run';
import { requirementRows } from '../harness/run/results';
import { buildSummary, summaryMarkdown, type RunFacts } from '../harness/evidence/summary';
import { reportVariables } from '../harness/evidence/evidence';
import { validator } from '../harness/schemas';
import { mapEntry } from '../harness/traffic/operation-map';
import { REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { FEATURES_BY_AREA } from '../suites';
import { explain, runAreas } from './_reference';
import { editedExample } from './_example';

/**
 * paths: an operation served at another path than the spec's, declared in the configuration. The run
 * sends there (and plans and maps recorded traffic there), and every report lists it as a declared
 * deviation: the requirements that state the spec's path are not verified, never passed.
 */
const example = editedExample() as object;
const SLASHED = '/customers/{customerId}/contact-info';
const CUSTOMER = { ...REFERENCE_TEST_DATA.customer, customerId: 'c-9' };
const RUN_PATHS = { updateContactInfo: '/dbsi/customers/{customerId}:contact-info' };

describe('paths, a declared deviation', () => {
  test('an override keeps the parameters of the documented path; an unknown operation is refused', () => {
    const cfg = resolveConfig({ ...example, paths: { updateContactInfo: SLASHED } }, {});
    expect(cfg.paths).toEqual({ updateContactInfo: SLASHED });
    expect(configWarnings(cfg).join('\n')).toContain(
      `paths.updateContactInfo: 10. Update contact information is sent to ${SLASHED} instead of the spec's`,
    );
    const refused = (paths: unknown) => () => resolveConfig({ ...example, paths }, {});
    const wrong = /"paths.updateContactInfo" must carry the parameters/;
    expect(refused({ updateContactInfo: '/customers/{id}/contact-info' })).toThrow(wrong);
    const none = /must carry the parameters .*: no parameter/;
    expect(refused({ listInstitutionDisclosures: '/disclosures/{x}' })).toThrow(none);
    expect(refused({ noSuchOperation: '/x' })).toThrow(/invalid configuration/);
    expect(refused({ updateContactInfo: 'customers/{customerId}' })).toThrow(/invalid configuration/);
  });

  test('the run sends there; the path requirement is not verified, with the deviation noted', async () => {
    let origin = '';
    const { cases } = await runAreas({
      areas: ['contact-info'],
      configure: (cfg) => {
        origin = new URL(cfg.baseUrl).origin;
        // The reference target serves contact info under /dbsi: the same URL, reached through the override.
        return { ...cfg, contactInfoBaseUrl: origin, paths: RUN_PATHS };
      },
    });
    const documented = cases.flatMap((c) => c.exchanges.filter((e) => e.operation === 'updateContactInfo'));
    expect(documented.length).toBeGreaterThan(0);
    for (const e of documented) expect(e.request.url.startsWith(`${origin}/dbsi/customers/`), e.request.url).toBe(true);
    const broken = cases.filter((c) => c.outcome === 'error' || c.outcome === 'failed');
    expect(
      broken.map((c) => c.id),
      explain(cases),
    ).toEqual([]);
    const declared = new Map<string, string[]>();
    for (const f of FEATURES_BY_AREA['contact-info']) {
      for (const c of f.cases) {
        for (const r of c.requirements) declared.set(r, [...(declared.get(r) ?? []), caseId(f, c)]);
      }
    }
    const deviations = declaredDeviations({ paths: RUN_PATHS });
    expect(deviations.map((d) => [d.key, d.requirements])).toEqual([['paths.updateContactInfo', ['OP10-PATH']]]);
    const rows = markDeviations(requirementRows(cases, declared, false), deviations);
    const path = rows.find((r) => r.id === 'OP10-PATH')!;
    expect(path.verdict, explain(cases)).toBe('not-verified');
    expect(path.notes[0]).toMatch(/^declared deviation, not verified at the spec's path: paths.updateContactInfo/);
    const headline = deviationHeadline('conformant', deviations);
    expect(headline).toBe('conformant; 1 declared deviation (paths.updateContactInfo)');
    const facts: RunFacts = {
      target: { name: 't', baseUrl: origin, authBaseUrl: origin, transfersBaseUrl: origin, embedded: true, faults: [] },
      suiteVersion: '0.1.0',
      spec: { file: 'spec.md', sha256: '0'.repeat(64) },
      seed: 1,
      strict: false,
      areas: ['contact-info'],
      filter: {},
      startedAt: new Date().toISOString(),
      durationMs: 1,
      node: process.version,
      exitCode: 0,
      verdict: 'conformant',
      headline,
      problems: [],
      deviations,
    };
    const summary = buildSummary(facts, cases, rows);
    const validate = validator('conformance-summary');
    expect(validate(summary), JSON.stringify(validate.errors)).toBe(true);
    const md = summaryMarkdown(summary);
    expect(md.indexOf('## Declared deviations')).toBeLessThan(md.indexOf('| fact | value |'));
    expect(reportVariables(summary)['Declared deviations']).toContain('paths.updateContactInfo');
  });

  test('--dry-run plans the declared path, and recorded traffic at it maps to the operation', async () => {
    const cfg = resolveConfig(
      {
        ...example,
        baseUrl: 'https://bank.example/api',
        contactInfoBaseUrl: 'https://gateway.example/ci',
        paths: { updateContactInfo: SLASHED },
        testData: { ...REFERENCE_TEST_DATA, moreCustomers: [], customer: CUSTOMER },
        allow: { contactUpdate: true },
      },
      {},
    );
    const out: string[] = [];
    const reports = mkdtempSync(join(tmpdir(), 'dbsi-paths-'));
    const io = { out: (l: string) => out.push(l), err: () => undefined };
    const code = await dryRun({ areas: ['contact-info'], filter: { tags: [], excludeTags: [] }, reports }, cfg, io);
    expect(code).toBe(0);
    const url = 'https://gateway.example/ci/customers/c-9/contact-info';
    expect(out.join('\n')).toContain(`PUT ${url}  [allow.contactUpdate: on]`);
    const { baseUrl, authBaseUrl, transfersBaseUrl, contactInfoBaseUrl } = cfg;
    const bases = { baseUrl, authBaseUrl, transfersBaseUrl, contactInfoBaseUrl };
    const m = mapEntry({ method: 'PUT', url }, bases, cfg.paths);
    expect(m).toMatchObject({ operation: 'updateContactInfo', pathParams: { customerId: 'c-9' } });
    expect(mapEntry({ method: 'PUT', url }, bases)).toMatchObject({ ignored: 'not an API path' });
  });
});
