import type { CaseDef } from '../../harness/case';
import { Customer } from './customer';

/** Operation 10, rule 2: "oldPhoneNumber is required and must match the phone number on record." */
export const OLD_PHONE_NUMBER_RULE: CaseDef[] = [
  {
    title: 'refuses a phone number update without oldPhoneNumber',
    requirements: ['OP10-RULE2-OLD-PHONE-REQUIRED'],
    async run(t) {
      const c = await Customer.forRefusals(t);
      await c.control(t);
      const res = await t.step('update the phone number without oldPhoneNumber', () =>
        c.update({ phone: { newPhoneNumber: c.newNumber() } }, 'phone number without oldPhoneNumber'),
      );
      t.judge(res, 'OP10-RULE2-OLD-PHONE-REQUIRED');
    },
  },
  {
    title: 'refuses a phone number update whose oldPhoneNumber is not the number on record',
    requirements: ['OP10-RULE2-OLD-PHONE-MATCH'],
    async run(t) {
      const c = await Customer.forRefusals(t);
      await c.control(t);
      const notOnRecord = c.newNumber();
      await t.step(`update the phone number naming ${notOnRecord} as oldPhoneNumber`, () =>
        c.update(
          { phone: { oldPhoneNumber: notOnRecord, newPhoneNumber: c.newNumber() } },
          'oldPhoneNumber not on record',
        ),
      );
      // The control shows the number on record: the log the rule reads.
      t.judgeLog(c.judgedLog, 'OP10-RULE2-OLD-PHONE-MATCH');
    },
  },
];
