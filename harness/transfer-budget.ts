import { slot, type RunState } from './run-state';
import type { TargetConfig } from './config';

/**
 * The budget of transfers accepted by mistake (issue 23, "Safety first"): every request of create a
 * transfer that is built to be refused (no token, an invalid one, a body that breaks a documented type,
 * …) takes a slot before it is sent. A 4xx answer gives the slot back; any other answer, or none (the
 * outcome unknown), spends it. No more such requests are in flight than the budget has left, so a
 * faulty target that accepts every one of them moves money at most `limit` times in a run, whatever
 * the concurrency. Once the budget is spent, no further one is sent.
 */

export const DEFAULT_TRANSFERS_ACCEPTED_BY_MISTAKE = 2;

export const BUDGET_KEY = 'budgets.transfersAcceptedByMistake';

/** The configured budget, or the default. */
export function budgetOf(config: Pick<TargetConfig, 'budgets'>): number {
  return config.budgets?.transfersAcceptedByMistake ?? DEFAULT_TRANSFERS_ACCEPTED_BY_MISTAKE;
}

/** A request that spent a slot: the test that sent it and what came back. */
export interface BudgetUse {
  test: string;
  answer: string;
  /** No answer: the transfer may or may not have been made. */
  unknown?: boolean;
}

/** Give the slot back (a refusal: pass nothing) or spend it. Calling it again does nothing. */
export type Settle = (spent?: BudgetUse) => void;

export class TransferBudget {
  private inFlight = 0;
  readonly spent: BudgetUse[] = [];
  private waiting: Array<() => void> = [];

  constructor(readonly limit: number) {}

  /** Used up by requests whose outcome is unknown only: no target accepted one (as far as the run knows). */
  get usedUpByUnknownOutcomes(): boolean {
    return this.usedUp && this.spent.every((u) => u.unknown);
  }

  get usedUp(): boolean {
    return this.spent.length >= this.limit;
  }

  /**
   * Wait until a slot is free: one while requests in flight and accepted ones together stay below the
   * limit. Undefined once the budget is used up (then nothing may be sent).
   */
  async reserve(): Promise<Settle | undefined> {
    while (!this.usedUp && this.spent.length + this.inFlight >= this.limit)
      await new Promise<void>((wake) => this.waiting.push(wake));
    if (this.usedUp) return undefined;
    this.inFlight++;
    let settled = false;
    return (spent) => {
      if (settled) return;
      settled = true;
      this.inFlight--;
      if (spent) this.spent.push(spent);
      for (const wake of this.waiting.splice(0)) wake();
    };
  }

  /** Why a request was not sent, for the test's reason and the reports. */
  usedUpText(): string {
    const uses = this.spent.map((u) => `${u.answer} to "${u.test}"`).join('; ');
    const by = this.limit === 0 ? 'is 0' : `is used up: ${uses}`;
    return `not sent: the budget of transfers accepted by mistake (${BUDGET_KEY}: ${this.limit}) ${by}`;
  }
}

/** One budget per run (harness/run-state.ts). */
const BUDGET = slot('transfers accepted by mistake', () => ({ budget: undefined as TransferBudget | undefined }));

export function transferBudget(run: RunState, config: Pick<TargetConfig, 'budgets'>): TransferBudget {
  const held = run.get(BUDGET);
  held.budget ??= new TransferBudget(budgetOf(config));
  return held.budget;
}
