import type { CaseDef } from '../../harness/case';
import { contactInfoAuthHeaders } from '../../harness/config';
import { Customer } from './customer';

/** "Authentication of the contact-info operations: not shown": a SHOULD-level expectation only. */
export const CREDENTIALS: CaseDef[] = [
  {
    title: 'is not served without the configured credentials',
    requirements: ['OP10-AUTH-EXPECTED'],
    async run(t) {
      const configured = Object.keys(contactInfoAuthHeaders(t.config));
      if (configured.length === 0)
        t.notApplicable(
          'the configuration names no credentials for the contact-info ' +
            'operation (credentials.contactInfoHeaders is empty)',
        );
      const c = await Customer.forRefusals(t);
      const onRecord = await c.control(t);
      const res = await t.step(`update the phone number without ${configured.join(', ')}`, () =>
        c.update(
          { phone: { oldPhoneNumber: onRecord, newPhoneNumber: c.newNumber() } },
          'phone number without credentials',
          'none',
        ),
      );
      t.judge(res, 'OP10-AUTH-EXPECTED');
    },
  },
];
