import type { CaseDef } from '../../harness/case';
import { type ContactUpdate } from '../../data-builders/contact-info';
import { knownContactData } from './_unconfirmable';
import type { CustomerData } from '../../harness/config';
import { lockIsOpen } from '../../harness/lock';
import { phoneKey } from './_phone-on-record';
import { Customer } from './customer';
import { emailToSend, postalToSend } from './_values-sent';

/**
 * Operation 10, rule 2 from every side: "oldPhoneNumber ... must match the phone number on record"
 * holds for near misses, and whatever else the body carries. The same number written another way
 * (with its country code prefixed, say) is never sent: the spec does not say how numbers compare.
 * Each case's requests to refuse go side by side after its control: a conformant target refuses
 * each whatever the others do.
 */

/** The number with its last digit changed: it shares every other digit with the one on record. */
export function lastDigitChanged(n: string): string {
  const i = n.search(/\d(?=\D*$)/);
  if (i < 0) return `${n}0`;
  return `${n.slice(0, i)}${(Number(n[i]) + 1) % 10}${n.slice(i + 1)}`;
}

export const OLD_PHONE_NUMBER_DEPTH: CaseDef[] = [
  {
    title: 'refuses near misses of the number on record as oldPhoneNumber',
    requirements: ['OP10-RULE2-OLD-PHONE-MATCH'],
    async run(t) {
      const c = await Customer.forRefusals(t);
      // Another configured customer, held shared (not changed) so that its number stays the one on record meanwhile:
      // only one a reader can take now. Waiting for a second customer while holding the first is a hold-and-wait: the
      // explorer holds two customers exclusively, each case waited for the other's (session 40's hold-out, row C5).
      const open = (x: CustomerData) =>
        x.customerId !== c.customerId && lockIsOpen(phoneKey(t.config.baseUrl, x.customerId), 'shared');
      const more = [t.config.testData.customer, ...t.config.testData.moreCustomers].some(open);
      const other = more ? await Customer.forRefusals(t, { which: open }) : undefined;
      if (other) {
        await t.parameter('customerId', c.customerId);
        await t.parameter('other customerId', other.customerId);
      }
      const onRecord = await c.control(t);
      const misses: Array<[string, string]> = [
        [lastDigitChanged(onRecord), 'the number on record with its last digit changed'],
        ['', 'an empty value'],
        ['   ', 'spaces only'],
      ];
      const others = other?.knownNumber;
      if (other && others !== undefined && others !== onRecord)
        misses.push([others, `the number on record of another customer ` + `(${other.customerId})`]);
      await t.parameter('near misses', misses.map(([, why]) => why).join('; '));
      await c.updatesSideBySide(
        `update the phone number naming each near miss as oldPhoneNumber ` +
          `(${misses.map(([old]) => JSON.stringify(old)).join(', ')}), side by side`,
        misses.map(([old, why]) => ({
          u: { phone: { oldPhoneNumber: old, newPhoneNumber: c.newNumber() } },
          label: `oldPhoneNumber: ${why}`,
        })),
      );
      t.judgeLog(c.judgedLog, 'OP10-RULE2-OLD-PHONE-MATCH');
    },
  },
  {
    title: 'refuses an oldPhoneNumber that is not on record whatever else the body carries',
    requirements: ['OP10-RULE2-OLD-PHONE-MATCH'],
    async run(t) {
      const c = await Customer.forRefusals(t, knownContactData(t));
      // A faulty target that serves one of these changes the e-mail or address: only where they can be put back.
      c.requireRestorable({ email: true, postal: true });
      await c.control(t);
      const others: Array<[string, Omit<ContactUpdate, 'phone'>]> = [
        ['the e-mail address', { emailAddress: emailToSend(t, c) }],
        ['the postal address', { postalAddress: postalToSend(t, c) }],
        [
          'the e-mail and postal address (all three objects: rule 3 forbids ' +
            'a partial update, rule 2 the phone change)',
          {
            emailAddress: emailToSend(t, c),
            postalAddress: postalToSend(t, c),
          },
        ],
      ];
      const sent = others.map(([what, extra]) => ({ what, notOnRecord: c.newNumber(), extra }));
      await c.updatesSideBySide(
        `update the phone number naming a number that is not on record as oldPhoneNumber, with ` +
          `${others.map(([what]) => what.split(' (')[0]).join('; with ')}, side by side`,
        sent.map(({ what, notOnRecord, extra }) => ({
          u: { phone: { oldPhoneNumber: notOnRecord, newPhoneNumber: c.newNumber() }, ...extra },
          label: `oldPhoneNumber not on record, with ` + `${what.split(' (')[0]}`,
        })),
      );
      t.judgeLog(c.judgedLog, 'OP10-RULE2-OLD-PHONE-MATCH');
    },
  },
];
