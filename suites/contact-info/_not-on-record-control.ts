import type { CaseContext } from '../../harness/case';
import { is2xx, type Customer } from './customer';

/**
 * Before an update naming the previous number (the stored-number tests): an update naming a number never on record
 * is refused, else refusing the previous number would show nothing (not applicable; OP10-RULE2-OLD-PHONE-MATCH
 * reports it). Sent before it, not beside it, so that an active run and a capture of it see the two in one order.
 */
export async function controlNotOnRecord(t: CaseContext, c: Customer): Promise<void> {
  const control = await t.step('(control) an update naming a number that is not on record is refused', () =>
    c.update(
      { phone: { oldPhoneNumber: c.newNumber(), newPhoneNumber: c.newNumber() } },
      'control: oldPhoneNumber not on record',
    ),
  );
  if (is2xx(control.status))
    t.notApplicable(
      `the target accepts an oldPhoneNumber that is not on record (answered ${control.status}; reported ` +
        `by OP10-RULE2-OLD-PHONE-MATCH), so a refusal cannot show which number is on record`,
    );
}
