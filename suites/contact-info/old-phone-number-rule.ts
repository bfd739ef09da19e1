import type { CaseDef } from '../../harness/case';
import { not_served } from '../../harness/checks';
import { Customer } from './customer';

/** Operation 10, rule 2: "oldPhoneNumber is required and must match the phone number on record." */
export const OLD_PHONE_NUMBER_RULE: CaseDef[] = [
  {
    title: 'refuses a phone number update without oldPhoneNumber',
    requirements: ['OP10-RULE2-OLD-PHONE-REQUIRED'],
    async run(t) {
      const c = await Customer.forRefusals(t);
      await c.control(t);
      const res = await t.step('update the phone number without oldPhoneNumber', () => c.update({ phone: { newPhoneNumber: c.newNumber() } }, 'phone number without oldPhoneNumber'));
      t.verify('OP10-RULE2-OLD-PHONE-REQUIRED', not_served(res, 'the phoneNumber object has no oldPhoneNumber'));
    },
  },
  {
    title: 'refuses a phone number update whose oldPhoneNumber is not the number on record',
    requirements: ['OP10-RULE2-OLD-PHONE-MATCH'],
    async run(t) {
      const c = await Customer.forRefusals(t);
      const onRecord = await c.control(t);
      const notOnRecord = c.newNumber();
      const res = await t.step(`update the phone number naming ${notOnRecord} as oldPhoneNumber`, () =>
        c.update({ phone: { oldPhoneNumber: notOnRecord, newPhoneNumber: c.newNumber() } }, 'oldPhoneNumber not on record'));
      t.verify('OP10-RULE2-OLD-PHONE-MATCH', not_served(res, `oldPhoneNumber ${notOnRecord} is not the number on record (${onRecord})`));
    },
  },
];
