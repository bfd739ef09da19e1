import type { CaseContext, CaseDef } from '../../harness/case';
import type { Phone } from './_phone-on-record';
import { Customer, is2xx } from './customer';
import { controlNotOnRecord } from './_not-on-record-control';
import { countryCodeKnown, requireSomeCountryCode } from './_country-code';

/** Another country code than the one on record, written the same way ("+44" for "+1", "44" for "1"). */
export function otherCountryCode(code: string): string {
  const plus = code.startsWith('+') ? '+' : '';
  return `${plus}${code.replace(/^\+/, '') === '44' ? '1' : '44'}`;
}

/**
 * Operation 10, rule 1 for a phone update that also changes the country code: the new number and
 * code are stored, observed through rule 2 (operation 11, retrieval, is "not shown"). The case starts
 * from the phone the run knows is on record and sets the configured number and code back with its last
 * update; the clean-up of the last test on the customer confirms them.
 */
export const STORED_COUNTRY_CODE: CaseDef[] = [
  {
    title: 'stores a phone number sent with another country code',
    requirements: ['OP10-RULE1-COUNTRY-CODE-STORED'],
    async run(t) {
      // On a target other than the suite's own, only where the operator states the country code on record.
      requireSomeCountryCode(t);
      // With the switch off, any customer: its first update is refused naming the switch, as every other test's.
      const on = t.config.allow.contactUpdate;
      const c = await Customer.forPhoneChanges(t, {
        which: on ? (d) => d.countryCode !== '' && countryCodeKnown(t, d) : undefined,
        needs: 'no configured customer has a countryCode, so the suite ' + 'sends none and has none to change',
      });
      const code = otherCountryCode(c.onRecord.countryCode || c.start.countryCode);
      const changed = c.newNumber();
      const { res: first, from: start } = await c.changeFromOnRecord(
        `change the phone number to ${changed} with country code ${code}`,
        (from) => ({
          phone: {
            oldPhoneNumber: from.number,
            oldCountryCode: from.countryCode,
            newPhoneNumber: changed,
            newCountryCode: code,
          },
        }),
        'phone number with another country code',
      );
      await t.parameter('country codes', `${start.countryCode} to ${code}`);
      if (first.status === 404 || first.status === 405)
        t.notApplicable(`the update was not served ` + `(${c.notServed(first.status, 'OP10-PATH')})`);
      if (!is2xx(first.status))
        t.notApplicable(
          `the target did not accept ${changed} under country code ${code} (status ${first.status}); a ` +
            `target may validate numbers per country, so there is nothing to observe`,
          first,
        );

      await previousRefused(t, c, start, code);

      // It sets the configured number and code back (the clean-up of the last test on the customer then only confirms
      // them).
      await t.step(`an update naming the new number ${changed} (country code ${code}) succeeds`, () =>
        c.update(
          {
            phone: {
              oldPhoneNumber: changed,
              oldCountryCode: code,
              newPhoneNumber: c.start.number,
              newCountryCode: c.start.countryCode,
            },
          },
          'oldPhoneNumber: the new number, setting the ' + 'number and code back',
        ),
      );
      t.judgeLog(c.judgedLog, 'OP10-RULE1-COUNTRY-CODE-STORED');
    },
  },
];

/**
 * After the change: a control naming a number never on record is refused (refusing the previous number proves
 * something only where a number not on record is refused at all), then an update naming the previous number is
 * refused. One after the other, so that an active run and a capture of it see them in the same order. The previous
 * number accepted: the rule fails on the log so far.
 */
async function previousRefused(t: CaseContext, c: Customer, start: Phone, code: string): Promise<void> {
  await controlNotOnRecord(t, c);
  const previous = await t.step(`an update naming the previous number ${start.number} is refused`, () =>
    c.update(
      {
        phone: {
          oldPhoneNumber: start.number,
          oldCountryCode: start.countryCode,
          newPhoneNumber: c.newNumber(),
          newCountryCode: code,
        },
      },
      'oldPhoneNumber: the previous number',
    ),
  );
  // The previous number accepted: the rule fails on the log so far (nothing more is sent).
  if (is2xx(previous.status)) t.judgeLog(c.judgedLog, 'OP10-RULE1-COUNTRY-CODE-STORED');
}
