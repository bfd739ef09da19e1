import { CouldNotTestError, type CaseContext } from '../../harness/case';
import { NotAllowedError, nothingSent, TransportError, type HttpResult } from '../../harness/http/client';
import { transferBudget } from '../../harness/transfer-budget';

/**
 * Send a transfer request built to be refused within the run's budget of transfers accepted by mistake
 * (harness/transfer-budget.ts): it waits for a slot, and is not sent once the budget is used up (the
 * test is then skipped, saying why; could not test where only requests without an answer spent it). A 4xx
 * answer gives the slot back, and so does an answer that says the request was not processed (429, a 500 that
 * names a throttle: harness/http/throttling.ts); any other answer spends it, as does a request whose outcome
 * is unknown. While it holds a slot others may wait for, it goes first.
 */
export async function withinBudget(t: CaseContext, send: () => Promise<HttpResult>): Promise<HttpResult> {
  const budget = transferBudget(t.run, t.config);
  const settle = await budget.reserve();
  if (!settle) {
    // Spent by requests that got no answer: no verdict on the target, and a gate must not read it as green.
    if (budget.usedUpByUnknownOutcomes) throw new CouldNotTestError(budget.usedUpText());
    throw new NotAllowedError('moneyMovement', 'POST', 'create a transfer', budget.usedUpText());
  }
  const priority = t.priority;
  t.priority = Math.max(priority, 1);
  try {
    const res = await send();
    const refused = res.status >= 400 && res.status < 500;
    settle(refused ? undefined : { test: t.def.title, answer: `answered ${res.status}` });
    return res;
  } catch (e) {
    const notProcessed = e instanceof TransportError && e.notProcessed === true;
    const sent = !(e instanceof NotAllowedError) && !nothingSent(e) && !notProcessed;
    settle(sent ? { test: t.def.title, answer: 'no answer (outcome unknown)', unknown: true } : undefined);
    throw e;
  } finally {
    t.priority = priority;
    settle();
  }
}
