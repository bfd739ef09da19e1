import { describe, expect, test } from 'vitest';
import type { CaseReport } from '../harness/model';
import { Progress } from '../harness/run/progress';
import { cutAtToken } from '../harness/text';
import { until } from './_within';

/** A finished test as vitest's reporter API hands it to the progress display. */
function testCase(id: string, report: Partial<CaseReport>) {
  const full: CaseReport = {
    id,
    area: 'disclosures',
    operation: '1. List institution disclosures',
    title: id,
    requirements: ['OP1-REQUEST'],
    outcome: 'passed',
    checks: [],
    exchanges: [],
    durationMs: 5,
    parameters: {},
    ...report,
  };
  return {
    id,
    name: full.title,
    fullName: full.title,
    meta: () => ({ dbsi: full }),
    result: () => ({ state: 'passed' }),
  } as never;
}

const failed: Partial<CaseReport> = {
  outcome: 'failed',
  checks: [
    {
      check: 'status_code_conformance',
      requirement: 'OP1-REQUEST',
      grade: 'MUST',
      section: '1. List institution disclosures',
      outcome: 'failed',
      description: 'answers a 2xx',
      received: 'status 500, \u001b[31mbody\u001b[0m {"a":1}',
    },
  ],
};

describe('the progress display', () => {
  test('on a terminal: one live line redrawn in place, and a failure line printed above it as it happens', () => {
    let out = '';
    const p = new Progress({ total: 3, tty: true, columns: 60, write: (t) => (out += t) });
    p.onTestCaseReady(testCase('a', {}));
    p.onTestCaseResult(testCase('a', {}));
    expect(out).toMatch(/\r\u001b\[K1\/3 tests, 1 passed, [\d.]+ s$/);
    p.onTestCaseResult(testCase('b', failed));
    expect(out).toContain(
      '\r\u001b[K✗ OP1-REQUEST [MUST] disclosures › 1. List institution disclosures › b (spec section "1. ' +
        'List institution disclosures"): answers a 2xx; received status 500, body {"a":1}\n',
    );
    expect(out, "the target's escape sequences are not passed to the terminal").not.toContain('\u001b[31m');
    expect(out).toMatch(/2\/3 tests, 1 passed, 1 failed, [\d.]+ s$/);
    p.onTestCaseResult(testCase('b', failed));
    expect(out.match(/✗/g), 'a test reported again is counted once').toHaveLength(1);
    const live = out.split('\r\u001b[K').filter(Boolean);
    expect(Math.max(...live.filter((l) => !l.endsWith('\n')).map((l) => l.length))).toBeLessThanOrEqual(59);
    p.stop();
  });

  test('piped: a line per finished test, and a status line after a silence while a test runs', async () => {
    const lines: string[] = [];
    const p = new Progress({ total: 2, tty: false, heartbeatMs: 50, write: (t) => lines.push(t) });
    p.start();
    p.onTestCaseReady(testCase('slow one', {}));
    p.onTestCaseResult(testCase('quick one', {}));
    expect(lines[0]).toBe('✓ disclosures › 1. List institution disclosures › quick one (5 ms)\n');
    await until(() => lines.length >= 2);
    p.stop();
    expect(lines[1]).toMatch(/^… 1\/2 tests, 1 passed, 1 running, [\d.]+ s; waiting for "slow one" since \d+ s\n$/);
  });
});

/** A test that left no report: cancelled before it started (vitest reports it skipped), or one that crashed. */
function unreported(title: string, state: 'skipped' | 'failed') {
  const module = { type: 'module' };
  const area = { type: 'suite', name: 'disclosures', parent: module };
  const parent = { type: 'suite', name: '1. List institution disclosures', parent: area };
  const fullName = `disclosures > 1. List institution disclosures > ${title}`;
  return { id: title, name: title, fullName, parent, meta: () => ({}), result: () => ({ state }) } as never;
}

describe('tests a cancelled run (--bail, Ctrl-C) did not run', () => {
  test('piped: reported "not run", never as passed', () => {
    const lines: string[] = [];
    const p = new Progress({ total: 3, tty: false, write: (t) => lines.push(t) });
    p.onTestCaseResult(unreported('never started', 'skipped'));
    p.onTestCaseResult(unreported('crashed', 'failed'));
    expect(lines).toEqual([
      '? disclosures › 1. List institution disclosures › never started (not run)\n',
      '? disclosures › 1. List institution disclosures › crashed (error)\n',
    ]);
    expect(p.status()).toMatch(/^2\/3 tests, 1 not run, 1 error, [\d.]+ s$/);
  });

  test('on a terminal: counted "not run" in the live line', () => {
    let out = '';
    const p = new Progress({ total: 2, tty: true, columns: 80, write: (t) => (out += t) });
    p.onTestCaseResult(unreported('never started', 'skipped'));
    expect(out).toMatch(/1\/2 tests, 1 not run, [\d.]+ s$/);
    expect(out).not.toContain('passed');
  });
});

describe('cutting a received body', () => {
  const body = JSON.stringify({
    institutionDisclosures: [
      { institutionDisclosureId: 'abc-123', institutionDisclosureName: 'E-Sign "agreement"', status: true, n: 12345 },
    ],
  });

  test('cuts only after a complete value, comma or bracket, never inside a string or after a member name', () => {
    for (let max = 2; max < body.length; max++) {
      const cut = cutAtToken(body, max);
      expect(cut.endsWith('…')).toBe(true);
      expect(cut.length - 1).toBeLessThanOrEqual(max);
      const kept = cut.slice(0, -1);
      expect(body.startsWith(kept)).toBe(true);
      expect(kept, `max ${max}`).toMatch(/([,{[\]}]|\d|true|"(?!\s*:))$/);
      expect(body.slice(kept.length), `max ${max}: not after a member name`).not.toMatch(/^\s*:/);
    }
    expect(cutAtToken(body, body.length)).toBe(body);
  });

  test('a single long token is cut between words, and never between the halves of a surrogate pair', () => {
    expect(cutAtToken('one two three four', 9)).toBe('one two…');
    expect(cutAtToken('😀😀😀😀', 3)).toBe('😀…');
  });
});
