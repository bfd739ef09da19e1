import type { CaseDef } from '../../harness/case';
import type { ContactUpdate } from '../../data-builders/contact-info';
import { Customer, is2xx } from './customer';
import { servedElsewhere } from './_documented-path';

/** userIdType: "Values: CUSTOMER_ID, LOGIN_ID". A customer the configuration addresses by its login id is served like
 * any other. */
export const LOGIN_ID: CaseDef[] = [
  {
    title: 'serves a phone number update of a customer addressed by its login id (LOGIN_ID)',
    requirements: ['OP10-USERIDTYPE-LOGIN-ID'],
    async run(t) {
      const c = await Customer.forPhoneChanges(t, {
        which: (x) => x.userIdType === 'LOGIN_ID',
        needs:
          'no configured customer is addressed by its login id (testData.customer ' +
          'or testData.moreCustomers with userIdType LOGIN_ID)',
      });
      await t.parameter('login id', c.customerId);
      let sent: ContactUpdate = {};
      const { res, from } = await c.changeFromOnRecord(
        'update the phone number alone, with userIdType LOGIN_ID',
        (from) =>
          (sent = {
            phone: { oldPhoneNumber: from.number, oldCountryCode: from.countryCode, newPhoneNumber: c.newNumber() },
          }),
        'phone number of a customer addressed by its login id',
      );
      // A 404 may mean no customer has that login id, or the path (_documented-path.ts).
      if (res.status === 404) {
        await servedElsewhere(t, c, res, sent);
        t.notApplicable(
          'the operation answered 404 at the documented path and was served with a v1 segment ' +
            '(reported by OP10-PATH), so the documented path shows nothing about LOGIN_ID',
        );
      }
      if (is2xx(res.status)) return t.judge(res, 'OP10-USERIDTYPE-LOGIN-ID');
      // Refused: the rule (harness/rules/sequence-rules.ts, onRecordRefused) reads the number on record from the
      // log, or where no accepted update in it shows one (a target that refuses LOGIN_ID never serves one), from
      // what the run knows: the configured number (relies names no key for a LOGIN_ID customer).
      t.judgeLogKnowing(c.knownBefore(from), c.judgedLog, 'OP10-USERIDTYPE-LOGIN-ID');
    },
  },
];
