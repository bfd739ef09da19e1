import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { CATALOG } from '../requirements';
import { AREAS } from '../harness/model';
import { main, type Io } from '../harness/run/main';
import { validator } from '../harness/schemas';
import type { ConformanceSummary } from '../harness/evidence/summary';
import { FAULTS } from '../reference-target/faults';
import { filesUnder, findSecrets, untarGz } from './_artifacts';
import { explain } from './_reference';
import {
  brokenRequirements,
  judgeFile,
  exemptIfNotShown,
  recordActiveRun,
  TRAFFIC_COLLATERAL,
  type RecordedRun,
} from './_recorded-run';

/**
 * Judging recorded traffic (--traffic), proved on the suite's own active run: recorded through
 * the recorder (npm run record) against the reference target, the traffic is judged conformant,
 * with no secret in the HAR or any artifact; with a fault switched on, it is judged non-conformant
 * on the fault's requirement, for every fault whose rule shows in traffic, and on nothing else.
 */

function capture(): Io & { text(): string } {
  const lines: string[] = [];
  return { out: (l) => lines.push(l), err: (l) => lines.push(l), text: () => lines.join('\n') };
}

describe("the suite's own active run, recorded through the recorder and judged", () => {
  let rec: RecordedRun;
  let code: number;
  let out: string;
  let reports: string;
  beforeAll(async () => {
    rec = await recordActiveRun({ areas: [...AREAS] });
    reports = join(rec.dir, 'reports');
    const io = capture();
    code = await main(['--traffic', rec.har, '--config', rec.configFile, '--reports', reports, '--bundle'], {}, io);
    out = io.text();
  }, 300_000);

  test('the active run through the recorder is itself conformant', () => {
    expect(
      explain(
        rec.active.cases.filter(
          (c) => c.outcome === 'failed' || c.outcome === 'error' || c.outcome === 'could-not-test',
        ),
      ),
    ).toBe('');
  });

  test('is judged conformant (exit 0), with a verdict per requirement and not-observed never counted as passed', () => {
    expect(code, out).toBe(0);
    const s = JSON.parse(readFileSync(join(reports, 'conformance-summary.json'), 'utf8')) as ConformanceSummary;
    expect(validator('conformance-summary')(s), JSON.stringify(validator('conformance-summary').errors)).toBe(true);
    expect(s.requirements.map((r) => r.id)).toEqual(CATALOG.map((r) => r.id));
    expect(
      s.requirements.filter(
        (r) => (r.verdict === 'failed' || r.verdict === 'warning') && r.id !== 'CLIENT-REQUEST-AS-DOCUMENTED',
      ),
    ).toEqual([]);
    // The suite breaks rules on purpose (a missing header, a mistyped body): as a client, it is warned about.
    const client = s.requirements.find((r) => r.id === 'CLIENT-REQUEST-AS-DOCUMENTED')!;
    expect(client.verdict).toBe('warning');
    expect(client.notes.join('\n')).toMatch(/without transactionId|a body that does not match/);
    // What a capture can never show (a token's validity) is "not observed", not passed.
    expect(s.requirements.find((r) => r.id === 'OP9-AUTH-403')!.verdict).toBe('not-observed');
    expect(s.requirements.filter((r) => r.verdict === 'passed').length).toBeGreaterThan(40);
    expect(s.traffic!.judged).toBe(s.traffic!.entries);
    expect(s.traffic!.exchanges).toHaveLength(s.traffic!.judged);
    expect(s.traffic!.coverage.find((c) => c.operation.startsWith('5.'))!.proved).toEqual(
      expect.arrayContaining(['OP5-REQUEST', 'OP5-STATUS-204']),
    );
    const md = readFileSync(join(reports, 'conformance-summary.md'), 'utf8');
    expect(md).toMatch(/## Recorded traffic/);
    expect(md).toMatch(/### Coverage per operation/);
    expect(md).toMatch(
      /#\d+ POST \/dbsi\/db-disclosures\/v1\/institution-user-disclosures → 204: proved OP5-REQUEST, OP5-STATUS-204/,
    );
    expect(md).toMatch(/#\d+ GET \S+institution-user-disclosures\S* → 200: proved .*STATE-UD-CREATE/);
  });

  test('writes JUnit, Allure results (one per judged exchange), the HTML report and the bundle', () => {
    const names = readdirSync(reports);
    for (const f of ['junit.xml', 'allure-results', 'conformance-report.html']) expect(names).toContain(f);
    expect(names.some((f) => /^dbsi-evidence-.*\.tar\.gz$/.test(f))).toBe(true);
    const s = JSON.parse(readFileSync(join(reports, 'conformance-summary.json'), 'utf8')) as ConformanceSummary;
    expect(readdirSync(join(reports, 'allure-results')).filter((f) => f.endsWith('-result.json'))).toHaveLength(
      s.cases.length,
    );
  });

  test("no secret in the HAR, any artifact or the output, the recorder's included", () => {
    const files = filesUnder(reports);
    const contents = [
      { name: 'run.har', data: readFileSync(rec.har) },
      ...files.filter((f) => !f.endsWith('.tar.gz')).map((f) => ({ name: f, data: readFileSync(f) })),
      ...files
        .filter((f) => f.endsWith('.tar.gz'))
        .flatMap((f) => untarGz(f).map((e) => ({ name: `bundle:${e.name}`, data: e.data }))),
      { name: 'console', data: Buffer.from(out) },
      { name: 'recorder output', data: Buffer.from(rec.printed.join('\n')) },
    ];
    expect(findSecrets(contents)).toEqual([]);
    expect(readFileSync(rec.har, 'utf8')).toMatch(/"Bearer \[REDACTED\]"/);
  });

  test(
    'the recorder printed no broken MUST rule (only warnings about ' + 'the requests the suite breaks on purpose)',
    () => {
      expect(rec.printed.filter((l) => l.startsWith('✗'))).toEqual([]);
      expect(
        rec.printed.filter((l) => l.startsWith('!')).every((l) => l.includes('SHOULD CLIENT-REQUEST-AS-DOCUMENTED')),
      ).toBe(true);
    },
  );
});

describe("with a fault switched on, the recorded traffic is judged non-conformant on the fault's requirement", () => {
  const faults = FAULTS.filter((f) => !f.variant);
  test.for(faults.map((f) => [f.name, f] as const))('%s', async ([_name, fault], ctx) => {
    const strict = fault.strict ?? false;
    const rec = await recordActiveRun({ areas: [fault.area], faults: [fault.name], strict });
    const j = await judgeFile(rec.har, rec.config, strict);
    // What the suite breaks on purpose as a client is no verdict on the target.
    const broken = new Set([...brokenRequirements(j, strict)].filter((id) => id !== 'CLIENT-REQUEST-AS-DOCUMENTED'));
    const allowed = new Set([...fault.breaks, ...(fault.collateral ?? []), ...(TRAFFIC_COLLATERAL[fault.name] ?? [])]);
    expect(
      [...broken].filter((id) => !allowed.has(id)),
      "nothing but the fault's rule may be broken",
    ).toEqual([]);
    // Exempt only where the rules themselves say a capture of the same exchanges shows no failure.
    if (await exemptIfNotShown(rec.active, fault, ctx)) return;
    for (const id of fault.breaks) {
      expect([...broken], `${fault.name} must be judged as ${id} broken`).toContain(id);
      expect(
        rec.printed.some((l) => l.includes(` ${id} broken by #`)),
        `the recorder prints ${id} as it ` + `happens:\n${rec.printed.join('\n')}`,
      ).toBe(true);
    }
  });
});
