import type { CaseContext } from '../../harness/case';
import { slot } from '../../harness/run-state';

/**
 * Prove before you write (issue 31): before the first update of a customer in the run, while the run
 * believes the configured number is on record, the update that changes nothing (the configured number
 * as old and new; Customer.proveConfigured). Served, the configured customer and number are proven
 * (harness/setup/proof.ts), so a refusal after a write the target mishandled is the target's; refused,
 * the run's setup proofs name the key. One request per customer per run, which every case's first
 * update of that customer waits for (an e-mail update may clear a number on a faulty target).
 */
const PROOFS = slot('proofs before the first write, by customer id', () => new Map<string, Promise<void>>());

export function provedBeforeFirstWrite(t: CaseContext, customerId: string, prove: () => Promise<void>): Promise<void> {
  const proofs = t.run.get(PROOFS);
  // A proof without an answer (a timeout, a 503 while the target sheds load) proves nothing: the run goes on
  // as without it (a refusal is then checked by the control after it, Customer.proveConfigured).
  const proof = proofs.get(customerId) ?? prove().catch(() => undefined);
  proofs.set(customerId, proof);
  return proof;
}
