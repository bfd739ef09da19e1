import { describe, expect, test } from 'vitest';
import { resolveConfig } from '../harness/config';
import { contractCoverage } from '../harness/contract-coverage/measure';
import { buildCoverageModel } from '../harness/contract-coverage/model';
import { contractCoverageLine, contractCoverageMarkdown } from '../harness/contract-coverage/write';
import { budgetOf, TransferBudget } from '../harness/transfer-budget';
import { runAreas } from './_reference';
import { handWritten } from './_explored-transfers';

/** The budget of transfers accepted by mistake (issue 23, "Safety first"). */
describe('the budget of transfers accepted by mistake', () => {
  test('no more requests are in flight than the budget has left, and none once it is used up', async () => {
    const budget = new TransferBudget(2);
    let inFlight = 0;
    let most = 0;
    const sent: number[] = [];
    const one = async (i: number) => {
      const settle = await budget.reserve();
      if (!settle) return;
      inFlight++;
      most = Math.max(most, inFlight);
      sent.push(i);
      await new Promise((r) => setImmediate(r));
      inFlight--;
      // Every third request is accepted by mistake.
      settle(i % 3 === 2 ? { test: `t${i}`, answer: 'answered 200' } : undefined);
    };
    await Promise.all(Array.from({ length: 12 }, (_, i) => one(i)));
    expect(most).toBeLessThanOrEqual(2);
    expect(budget.spent).toHaveLength(2);
    expect(budget.usedUp).toBe(true);
    expect(await budget.reserve()).toBeUndefined();
    expect(sent.length).toBeLessThan(12);
    expect(budget.usedUpText()).toMatch(/budgets\.transfersAcceptedByMistake: 2\) is used up: answered 200 to "t2"/);
  });

  test('a budget of 0 sends nothing', async () => {
    expect(await new TransferBudget(0).reserve()).toBeUndefined();
  });

  test('the key defaults to 2 and is validated', () => {
    const url = 'http://127.0.0.1:1';
    const base = { baseUrl: url, authBaseUrl: url, transfersBaseUrl: url };
    expect(budgetOf(resolveConfig(base, {}))).toBe(2);
    expect(budgetOf(resolveConfig({ ...base, budgets: { transfersAcceptedByMistake: 0 } }, {}))).toBe(0);
    const negative = { ...base, budgets: { transfersAcceptedByMistake: -1 } };
    expect(() => resolveConfig(negative, {})).toThrow(/transfersAcceptedByMistake/);
    expect(() => resolveConfig({ ...base, budgets: { transfersAcceptedByMistak: 1 } }, {})).toThrow(/did you mean/);
  });

  test('a target that accepts every mistyped body gets 2 transfers by mistake; the rest are skipped', async () => {
    const run = await runAreas({ areas: ['money-movement'], faults: ['op9-accepts-mistyped-body'] });
    const { cases, target } = handWritten(run);
    // The two requests meant to succeed, and two accepted by mistake.
    expect(target.state.transfers).toHaveLength(4);
    const skipped = cases.filter((c) => c.outcome === 'not-allowed');
    expect(skipped.length).toBeGreaterThan(20);
    for (const c of skipped) {
      expect(c.reason).toMatch(
        /budget of transfers accepted by mistake \(budgets\.transfersAcceptedByMistake: 2\) is used up/,
      );
      expect(c.exchanges).toEqual([]);
    }
    // Served mistyped bodies are OP9-BODY-TYPES's (SHOULD): warnings, not failures.
    expect(cases.filter((c) => c.outcome === 'warning').length).toBe(2);
    expect(cases.filter((c) => c.outcome === 'failed')).toEqual([]);
    // The coverage report says so, cell by cell and in its line.
    const report = contractCoverage(cases, buildCoverageModel());
    const cells = report.operations.find((o) => o.operation === 'createTransfer')!.cells;
    const budgeted = cells.filter((c) => c.status === 'skipped');
    expect(budgeted.length).toBe(skipped.filter((c) => c.parameters['coverage cell']).length);
    expect(budgeted.every((c) => /budget/.test(c.reason ?? ''))).toBe(true);
    expect(contractCoverageLine(report)).toMatch(/\d+ skipped: budget of transfers accepted by mistake used up/);
    expect(contractCoverageMarkdown(report)).toMatch(/\*\*Budget used up\.\*\*/);
  });

  test('with a budget of 0 no request built to be refused reaches the transfer path', async () => {
    const { cases, target } = handWritten(
      await runAreas({
        areas: ['money-movement'],
        configure: (cfg) => ({ ...cfg, budgets: { transfersAcceptedByMistake: 0 } }),
      }),
    );
    // Only the two transfers meant to succeed were sent.
    expect(target.state.seenRequests).toHaveLength(2);
    expect(cases.filter((c) => c.outcome === 'passed')).toHaveLength(2);
    expect(cases.filter((c) => c.outcome === 'not-allowed').every((c) => /is 0/.test(c.reason ?? ''))).toBe(true);
  });

  test('on a conformant target every negative transfer is sent and refused: nothing skipped', async () => {
    const { cases, target } = handWritten(await runAreas({ areas: ['money-movement'] }));
    expect(cases.filter((c) => c.outcome !== 'passed').map((c) => c.id)).toEqual([]);
    expect(target.state.transfers).toHaveLength(2);
    expect(target.state.seenRequests.length).toBe(cases.length);
  });
});

describe('a budget spent by requests that got no answer', () => {
  test('is told apart: nothing is known to be accepted', async () => {
    const budget = new TransferBudget(1);
    (await budget.reserve())!({ test: 't', answer: 'no answer (outcome unknown)', unknown: true });
    expect(budget.usedUpByUnknownOutcomes).toBe(true);
    const accepted = new TransferBudget(1);
    (await accepted.reserve())!({ test: 't', answer: 'answered 200' });
    expect(accepted.usedUpByUnknownOutcomes).toBe(false);
  });
});
