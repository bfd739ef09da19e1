import { describe, expect, test } from 'vitest';
import { CaseContext, feature, runCase, type CaseDef, type RunSettings } from '../harness/case';
import { fail, pass, type CheckVerdict } from '../harness/checks';
import { resolveConfig } from '../harness/config';
import { DbsiClient, NotAllowedError, TransportError } from '../harness/http/client';
import { Redactor } from '../harness/redact';
import { exitCodeFor } from '../harness/run/results';

// Catalog entries of each grade used as fixtures: OP1-REQUEST (MUST), RES-DISCLOSURE-DATATYPE-VALUES (INFO).
const MUST = 'OP1-REQUEST';
const INFO = 'RES-DISCLOSURE-DATATYPE-VALUES';
const config = resolveConfig(
  { baseUrl: 'http://127.0.0.1:9/a', authBaseUrl: 'http://127.0.0.1:9/b', transfersBaseUrl: 'http://127.0.0.1:9/c' },
  {},
);
const ok: CheckVerdict = pass('some_check', 'holds');
const bad: CheckVerdict = fail('some_check', 'holds', 'this', 'that');

async function outcome(run: CaseDef['run'], requirements: string[], strict = false) {
  const settings: RunSettings = { config, seed: 1, strict, runId: 'rtst', specUrl: 'spec.md' };
  const f = feature('disclosures', 'listInstitutionDisclosures', []);
  const client = new DbsiClient(config, new Redactor([]));
  return runCase(new CaseContext(settings, client, f, { title: 't', requirements, run }));
}

describe('grading of checks and cases', () => {
  test('a failed MUST check fails the case and names requirement, section, expected and received', async () => {
    const r = await outcome(
      async (t) => {
        t.verify(MUST, bad);
        t.verify(MUST, ok);
      },
      [MUST],
    );
    expect(r.outcome).toBe('failed');
    expect(r.checks).toHaveLength(1);
    expect(r.reason).toContain('MUST OP1-REQUEST (spec section "1. List institution disclosures")');
    expect(r.reason).toContain('spec documents: this');
    expect(r.reason).toContain('received: that');
  });

  test('a failed INFO check is an observation: the case passes, unless strict', async () => {
    expect(
      (
        await outcome(
          async (t) => {
            t.verify(INFO, bad);
          },
          [INFO],
        )
      ).outcome,
    ).toBe('passed');
    expect(
      (
        await outcome(
          async (t) => {
            t.verify(INFO, bad);
          },
          [INFO],
          true,
        )
      ).outcome,
    ).toBe('failed');
  });

  test('a case that runs no check is a suite error, never a pass', async () => {
    const r = await outcome(async () => undefined, [MUST]);
    expect(r.outcome).toBe('error');
  });

  test('checking an undeclared requirement is a suite error', async () => {
    expect(
      (
        await outcome(
          async (t) => {
            t.verify(INFO, ok);
          },
          [MUST],
        )
      ).outcome,
    ).toBe('error');
  });

  test('not applicable, not allowed and transport failures have their own outcomes and reasons', async () => {
    const na = await outcome(async (t) => t.notApplicable('no id exposed'), [MUST]);
    expect([na.outcome, na.reason]).toEqual(['not-applicable', 'not applicable on this target: no id exposed']);
    const nal = await outcome(async () => {
      throw new NotAllowedError('moneyMovement', 'POST', 'u');
    }, [MUST]);
    expect([nal.outcome, nal.reason]).toEqual([
      'not-allowed',
      'skipped: not allowed on this target ' + '(allow.moneyMovement is off)',
    ]);
    const cnt = await outcome(async () => {
      throw new TransportError('timeout', 'no complete answer');
    }, [MUST]);
    expect(cnt.outcome).toBe('could-not-test');
  });

  test('clean-ups run after a failure, in reverse order', async () => {
    const order: string[] = [];
    await outcome(
      async (t) => {
        t.cleanup('a', async () => order.push('a'));
        t.cleanup('b', async () => order.push('b'));
        t.verify(MUST, bad);
      },
      [MUST],
    );
    expect(order).toEqual(['b', 'a']);
  });

  test(
    'exit codes: 1 on a MUST failure even when something could not ' + 'be tested, 3 with no verdict, 0 otherwise',
    () => {
      const c = (outcome: string) => ({ outcome }) as never;
      expect(exitCodeFor([c('passed'), c('warning'), c('not-applicable')])).toBe(0);
      expect(exitCodeFor([c('passed'), c('could-not-test')])).toBe(3);
      expect(exitCodeFor([c('failed'), c('could-not-test')])).toBe(1);
      expect(exitCodeFor([c('passed')], 1)).toBe(3);
      expect(exitCodeFor([c('not-allowed'), c('not-applicable')]), 'nothing verified is no verdict').toBe(3);
    },
  );
});
