import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { consoleSummary } from '../harness/run/console';
import { casesForTerminal, terminalLine, terminalText } from '../harness/run/terminal-text';
import type { CaseReport } from '../harness/model';
import { runMain } from './_main';

/** Issue 11: text from a configuration or a target is printed without control characters. */

const FAKE = '\u001b[2K\r\u001b[32mVerdict: conformant (exit 0)\u001b[0m';

describe('untrusted text on a terminal', () => {
  test('escape sequences, CR and other controls are removed; line feeds kept by terminalText', () => {
    expect(terminalText(`a${FAKE}\nb\u0007\u009b31m\u202Ec`)).toBe('aVerdict: conformant (exit 0)\nbc');
    expect(terminalText('\u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007')).toBe('link');
  });

  test('terminalLine also folds line breaks, so a value cannot start a line of its own', () => {
    expect(terminalLine(`name\n${FAKE}`)).toBe('name Verdict: conformant (exit 0)');
  });

  test("a target's answer crafted to add a verdict line to the console summary cannot", () => {
    const crafted: CaseReport = {
      id: 'disclosures/x/y',
      area: 'disclosures',
      operation: 'op',
      title: 'lists disclosures',
      requirements: ['OP1-REQUEST'],
      outcome: 'failed',
      reason: `MUST OP1-REQUEST failed${FAKE}`,
      checks: [
        {
          check: 'status_code_conformance',
          requirement: 'OP1-REQUEST',
          grade: 'MUST',
          section: 's',
          outcome: 'failed',
          description: 'the status is documented',
          received: `418\n${FAKE}`,
        },
      ],
      exchanges: [],
      durationMs: 1,
      parameters: {},
    };
    const out = terminalText(consoleSummary(casesForTerminal([crafted])));
    expect(out.split('\n').filter((l) => /^\s*Verdict:/.test(l))).toEqual([]);
    expect(out).toContain('received 418 Verdict: conformant (exit 0)');
  });

  test('a configured name with escapes and a newline cannot fake a verdict line', async () => {
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as { port: number }).port;
    await new Promise((r) => srv.close(r));
    const base = `http://127.0.0.1:${port}`;
    const cfg = join(mkdtempSync(join(tmpdir(), 'dbsi-terminal-')), 'target.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        name: `acme\n${FAKE}\n`,
        baseUrl: `${base}/api`,
        authBaseUrl: `${base}/id`,
        transfersBaseUrl: `${base}/x`,
        credentials: { bearerToken: 'terminal-token-1' },
        testData: { institutionId: '1', institutionUserId: 'u', accountId: 'a' },
        http: { timeoutMs: 1000, retries: 0 },
      }),
    );
    const run = await runMain(['--config', cfg, '--area', 'disclosures', '--grep', 'three common headers'], {
      timeoutMs: 60_000,
    });
    expect(run.code, run.stdout + run.stderr).toBe(3);
    const out = run.stdout + run.stderr;
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    const verdictLines = out.split('\n').filter((l) => /^Verdict:/.test(l));
    expect(verdictLines).toHaveLength(1);
    expect(verdictLines[0]).toMatch(/^Verdict: could not test \(exit 3\)/);
    expect(run.stdout).toContain('acme Verdict: conformant (exit 0)');
  });
});
