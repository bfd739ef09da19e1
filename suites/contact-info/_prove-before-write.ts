import type { CaseContext } from '../../harness/case';

/**
 * Prove before you write (issue 31): before the first update of a customer in the run, while the run
 * believes the configured number is on record, the update that changes nothing (the configured number
 * as old and new; Customer.proveConfigured). Served, the configured customer and number are proven
 * (harness/setup/proof.ts), so a refusal after a write the target mishandled is the target's; refused,
 * the run's setup proofs name the key. One request per customer per run, which every case's first
 * update of that customer waits for (an e-mail update may clear a number on a faulty target).
 */
const PROOFS = new WeakMap<object, Map<string, Promise<void>>>();

export function provedBeforeFirstWrite(t: CaseContext, customerId: string, prove: () => Promise<void>): Promise<void> {
  const run = PROOFS.get(t.run) ?? PROOFS.set(t.run, new Map()).get(t.run)!;
  // A proof without an answer (a timeout, a 503 while the target sheds load) proves nothing: the run goes on
  // as without it (a refusal is then checked by the control after it, Customer.proveConfigured).
  const proof = run.get(customerId) ?? prove().catch(() => undefined);
  run.set(customerId, proof);
  return proof;
}
