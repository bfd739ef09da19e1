import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { CATALOG } from '../requirements';
import { validator } from '../harness/schemas';
import type { ConformanceSummary } from '../harness/evidence/summary';
import { embeddedReportData, filesUnder, findSecrets, referenceSecrets, untarGz } from './_artifacts';
import { runMain } from './_main';

/**
 * The main command, run as bin/conformance.ts runs it (main() in-process, against the embedded reference target),
 * leaves evidence that is complete, machine-checkable, and free of every configured secret; and a
 * fault of the target shows as its requirement failed in every artifact.
 */

interface Run {
  dir: string;
  code: number | null;
  console: string;
}

async function conformance(args: string[]): Promise<Run> {
  const r = await runMain(['--seed', '4242', ...args], { env: { NO_COLOR: '1' }, timeoutMs: 240_000 });
  return { dir: r.reports, code: r.code, console: `${r.stdout}\n${r.stderr}` };
}

/** Every file the run left (bundles unpacked) and its console output. */
function artifactContents(run: Run): Array<{ name: string; data: Buffer }> {
  const files = filesUnder(run.dir);
  return [
    ...files
      .filter((f) => !f.endsWith('.tar.gz'))
      .map((f) => ({ name: f.slice(run.dir.length + 1), data: readFileSync(f) })),
    ...files
      .filter((f) => f.endsWith('.tar.gz'))
      .flatMap((f) => untarGz(f).map((e) => ({ name: `bundle:${e.name}`, data: e.data }))),
    { name: 'console output', data: Buffer.from(run.console) },
  ];
}

const summaryOf = (run: Run) =>
  JSON.parse(readFileSync(join(run.dir, 'conformance-summary.json'), 'utf8')) as ConformanceSummary;
const bundleOf = (run: Run) => readdirSync(run.dir).find((f) => /^dbsi-evidence-.*\.tar\.gz$/.test(f));

describe('a conformant run with --html --bundle', () => {
  let run: Run;
  beforeAll(async () => {
    run = await conformance(['--html', '--bundle']);
  }, 300_000);

  test('exits 0 and writes the summary, JUnit, allure-results, the single-file HTML report and the bundle', () => {
    expect(run.code, run.console).toBe(0);
    const names = readdirSync(run.dir);
    for (const f of [
      'conformance-summary.json',
      'conformance-summary.md',
      'junit.xml',
      'allure-results',
      'conformance-report.html',
      'allure-history.jsonl',
    ])
      expect(names).toContain(f);
    expect(bundleOf(run)).toBeDefined();
    const html = embeddedReportData(readFileSync(join(run.dir, 'conformance-report.html'), 'utf8'));
    const inReport = [...html.keys()].filter((k) => k.startsWith('data/test-results/')).length;
    const inResults = readdirSync(join(run.dir, 'allure-results')).filter((f) => f.endsWith('-result.json')).length;
    expect(inResults).toBeGreaterThan(0);
    expect(inReport, 'every test result is in the single-file report').toBe(inResults);
    expect(readFileSync(join(run.dir, 'conformance-report.html'), 'utf8')).not.toContain('googletagmanager');
  });

  test(
    'the summary validates against ' +
      'schemas/conformance-summary.schema.json and has a verdict for every ' +
      'catalog entry',
    () => {
      const s = summaryOf(run);
      const validate = validator('conformance-summary');
      expect(validate(s), JSON.stringify(validate.errors, null, 2)).toBe(true);
      expect(s.requirements.map((r) => r.id)).toEqual(CATALOG.map((r) => r.id));
      for (const r of s.requirements) expect(r.verdict, r.id).toMatch(/./);
      for (const r of CATALOG.filter((c) => c.notTestable))
        expect(s.requirements.find((x) => x.id === r.id)!.verdict).toBe('not-testable');
      expect(s.facts.spec.sha256).toMatch(/^[0-9a-f]{64}$/);
    },
  );

  test('the bundle holds the summaries, the JUnit file, the HTML report and a manifest whose hashes match', () => {
    const entries = untarGz(join(run.dir, bundleOf(run)!));
    expect(entries.map((e) => e.name).sort()).toEqual([
      'MANIFEST.json',
      'SHA256SUMS',
      'conformance-report.html',
      'conformance-summary.json',
      'conformance-summary.md',
      'contract-coverage.json',
      'contract-coverage.md',
      'junit.xml',
    ]);
    const manifest = JSON.parse(entries.find((e) => e.name === 'MANIFEST.json')!.data.toString()) as {
      files: Array<{ name: string; sha256: string }>;
    };
    for (const f of manifest.files) {
      const e = entries.find((x) => x.name === f.name)!;
      expect(createHash('sha256').update(e.data).digest('hex')).toBe(f.sha256);
      expect(
        e.data.equals(readFileSync(join(run.dir, f.name))),
        `${f.name} in the bundle is the file in ` + `the reports directory`,
      ).toBe(true);
    }
  });

  test(
    'no artifact holds a secret: allure-results, HTML report, ' + 'summaries, JUnit, history, bundle contents, console',
    () => {
      const files = filesUnder(run.dir);
      const contents = artifactContents(run);
      expect(contents.length).toBeGreaterThan(8);
      expect(contents.map((c) => c.name)).toContain('bundle:conformance-report.html');
      expect(findSecrets(contents)).toEqual([]);
      // The secrets were in play: requests carried them, and the reports show them redacted.
      const attachments = files.filter((f) => f.endsWith('-attachment.txt')).map((f) => readFileSync(f, 'utf8'));
      expect(attachments.some((a) => a.includes('Authorization: Bearer [REDACTED]'))).toBe(true);
      // The HTML report embeds the exchanges (base64): the search above decoded and read them.
      const html = embeddedReportData(readFileSync(join(run.dir, 'conformance-report.html'), 'utf8'));
      expect([...html.values()].some((v) => v.includes('Authorization: Bearer [REDACTED]'))).toBe(true);
    },
  );

  test('the secret search itself finds a secret hidden the way the HTML report embeds data', () => {
    const bearer = referenceSecrets()[0]!.value;
    const data = Buffer.from(JSON.stringify({ h: `Authorization: Bearer ${bearer}` })).toString('base64');
    const fake = `d("data/x.json","${data}")`;
    expect(findSecrets([{ name: 'fake.html', data: Buffer.from(fake) }])).not.toEqual([]);
  });
});

describe('a run against a reference target with a fault', () => {
  const REQ = 'RES-DISCLOSURE-FIELD-TYPES';
  let run: Run;
  beforeAll(async () => {
    run = await conformance(['--area', 'disclosures', '--fault', 'op1-status-as-string', '--bundle']);
  }, 300_000);

  test('exits 1 (non-conformant)', () => {
    expect(run.code, run.console).toBe(1);
  });

  test("shows the fault's requirement failed in the summary (JSON and Markdown)", () => {
    const s = summaryOf(run);
    expect(s.facts.verdict).toBe('non-conformant');
    expect(s.facts.target.faults).toEqual(['op1-status-as-string']);
    const row = s.requirements.find((r) => r.id === REQ)!;
    expect(row.verdict).toBe('failed');
    expect(row.notes.join(' ')).toContain('institutionDisclosureStatus');
    expect(s.requirements.filter((r) => r.verdict === 'failed').map((r) => r.id)).toEqual([REQ]);
    expect(readFileSync(join(run.dir, 'conformance-summary.md'), 'utf8')).toMatch(
      new RegExp(`\\| ${REQ} \\| MUST \\| [^|]+ \\| ❌ failed \\|`),
    );
  });

  test('no artifact holds a secret, failure messages and reproduce lines included', () => {
    const contents = artifactContents(run);
    expect(contents.map((c) => c.name)).toContain('bundle:conformance-report.html');
    expect(findSecrets(contents)).toEqual([]);
    expect(readFileSync(join(run.dir, 'junit.xml'), 'utf8')).toContain('$DBSI_BEARER_TOKEN');
  });

  test('shows it failed in the JUnit file, as a <failure> of a testcase declaring the requirement', () => {
    const xml = readFileSync(join(run.dir, 'junit.xml'), 'utf8');
    const cases = [...xml.matchAll(/<testcase [\s\S]*?<\/testcase>/g)].map((m) => m[0]);
    // The list case, and every test whose read-back list shows the faulty element (the change case, the explorer).
    const failing = cases.filter((c) => c.includes('<failure '));
    expect(failing.length).toBeGreaterThanOrEqual(1);
    for (const f of failing) {
      expect(f).toContain(`<property name="requirement" value="${REQ}"/>`);
      expect(f).toMatch(new RegExp(`<failure message="MUST ${REQ} `));
    }
  });

  test(
    'shows it failed in allure-results (status failed, story label, ' +
      'message) and in the HTML report under Non-conformance',
    () => {
      const dir = join(run.dir, 'allure-results');
      const results = readdirSync(dir)
        .filter((f) => f.endsWith('-result.json'))
        .map(
          (f) =>
            JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
              status: string;
              labels: Array<{ name: string; value: string }>;
              statusDetails?: { message?: string };
            },
        );
      const failed = results.filter((r) => r.status !== 'passed' && r.status !== 'skipped');
      expect(failed.length).toBeGreaterThanOrEqual(1);
      for (const f of failed) {
        expect(f.status).toBe('failed');
        expect(f.labels).toContainEqual({ name: 'story', value: REQ });
        expect(f.statusDetails?.message).toMatch(new RegExp(`^MUST ${REQ} `));
      }
      const data = embeddedReportData(readFileSync(join(run.dir, 'conformance-report.html'), 'utf8'));
      const categories = data.get('widgets/categories.json') ?? '';
      expect(categories).toContain('Non-conformance (a MUST check failed)');
      expect(categories).toContain(`story: ${REQ}`);
      const trs = [...data.entries()]
        .filter(([k]) => k.startsWith('data/test-results/'))
        .map(([, v]) => JSON.parse(v) as { status: string; name: string });
      // A failure's heading names its operation (harness/evidence/failure-heading.ts).
      expect(trs.filter((t) => t.status === 'failed').map((t) => t.name)).toContain(
        '1. List institution disclosures › lists disclosures whose members have the ' + 'documented types',
      );
    },
  );
});
