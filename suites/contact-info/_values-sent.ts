import type { CaseContext } from '../../harness/case';
import { isEmbeddedTarget } from '../../harness/embedded-target';
import { testEmailAddress, testPostalAddress } from '../../data-builders/contact-info';

/**
 * The e-mail and postal address an update sends. Nothing can read either back (11. Retrieve existing contact data:
 * not shown), so on a target other than the suite's own they are the configured values the operator confirmed are on
 * record (`emailAndPostalConfirmed`), never made-up ones: a right statement then changes nothing on the target, and
 * no test value is ever left on a real customer. What the tests judge (the answer, the phone number kept or stored)
 * does not depend on the value. The embedded target is the suite's own: it gets values of the run.
 */
interface Original {
  original: { emailAddress?: string; postalAddress?: Record<string, string> };
}

export function emailToSend(t: CaseContext, c: Original): string {
  const configured = c.original.emailAddress;
  return isEmbeddedTarget(t.config) || configured === undefined
    ? testEmailAddress(t.faker, t.settings.runId)
    : configured;
}

export function postalToSend(t: CaseContext, c: Original): Record<string, string> {
  const configured = c.original.postalAddress;
  return isEmbeddedTarget(t.config) || configured === undefined
    ? testPostalAddress(t.faker, t.settings.runId)
    : { ...configured };
}
