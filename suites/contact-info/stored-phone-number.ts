import type { CaseContext, CaseDef } from '../../harness/case';
import { knownContactData } from './_unconfirmable';
import { Customer, is2xx } from './customer';
import { controlNotOnRecord } from './_not-on-record-control';
import { verifyDocumentedPath } from './_documented-path';
import { emailToSend, postalToSend } from './_values-sent';

/**
 * Operation 10 has no retrieval counterpart (operation 11: "not shown"), so what an update stored is
 * observed through rule 2: the number on record is the only one an update may name as oldPhoneNumber.
 * After a successful change from S to A, naming S must be refused and naming A must succeed (and
 * sets the number back to S).
 */
type StoredRule = 'OP10-RULE1-PHONE-STORED' | 'OP10-RULE3-PHONE-STORED';

async function provesStored(t: CaseContext, c: Customer, rule: StoredRule, together: boolean): Promise<void> {
  const changed = c.newNumber();
  const { res: first, from } = await c.changeFromOnRecord(
    `change the phone number ${together ? 'together with the e-mail and postal address' : 'alone'}`,
    (p) => {
      const phone = { oldPhoneNumber: p.number, oldCountryCode: p.countryCode, newPhoneNumber: changed };
      return together
        ? {
            phone,
            emailAddress: emailToSend(t, c),
            postalAddress: postalToSend(t, c),
          }
        : { phone };
    },
    together ? 'phone number, e-mail address and postal address' : 'phone number alone',
  );
  const start = from.number;
  if (!is2xx(first.status)) {
    const supplied = together ? 'OP10-RULE3-ALL-THREE' : 'OP10-RULE1-SUPPLIED-OBJECTS';
    t.notApplicable(`the update was not served (${c.notServed(first.status, `OP10-PATH, ${supplied}`)})`);
  }

  // Refusing the previous number proves something only where a number not on record is refused at all: the control
  // first, then the previous number (one after the other: an active run and its capture see the same order).
  await controlNotOnRecord(t, c);
  const previous = await t.step(`an update naming the previous number ${start} is refused`, () =>
    c.update(
      { phone: { oldPhoneNumber: start, oldCountryCode: from.countryCode, newPhoneNumber: c.newNumber() } },
      'oldPhoneNumber: the previous number',
    ),
  );
  // The previous number accepted: the rule fails on the log so far (nothing more is sent).
  if (is2xx(previous.status)) t.judgeLog(c.judgedLog, rule);

  // It sets the configured number back (the clean-up of the last test on the customer then only confirms it).
  await t.step(`an update naming the new number ${changed} succeeds`, () =>
    c.update(
      { phone: { oldPhoneNumber: changed, newPhoneNumber: c.start.number, newCountryCode: c.start.countryCode } },
      'oldPhoneNumber: the new number',
    ),
  );
  t.judgeLog(c.judgedLog, rule);
}

export const STORED_PHONE_NUMBER: CaseDef[] = [
  {
    title: 'stores a phone number sent alone',
    requirements: ['OP10-RULE1-PHONE-STORED'],
    async run(t) {
      const c = await Customer.forPhoneChanges(t);
      await provesStored(t, c, 'OP10-RULE1-PHONE-STORED', false);
    },
  },
  {
    title: 'stores a phone number sent together with an e-mail and a postal address',
    requirements: ['OP10-RULE3-PHONE-STORED'],
    async run(t) {
      const c = await Customer.forPhoneChanges(t, knownContactData(t));
      c.requireRestorable({ email: true, postal: true });
      await provesStored(t, c, 'OP10-RULE3-PHONE-STORED', true);
    },
  },
  {
    title: 'keeps the phone number when only the e-mail and postal address are supplied',
    requirements: ['OP10-PATH', 'OP10-RULE1-SUPPLIED-OBJECTS', 'OP10-RULE1-UNSUPPLIED-KEPT'],
    async run(t) {
      const c = await Customer.forPhoneChanges(t, knownContactData(t));
      c.requireRestorable({ email: true, postal: true });
      // From the number the run knows is on record (again from the configured one, where one an earlier test left is
      // refused).
      const { from: before } = await c.fromOnRecord(async (before, again) => {
        const sent = {
          emailAddress: emailToSend(t, c),
          postalAddress: postalToSend(t, c),
        };
        const first = await t.step(
          `update the e-mail and postal address, without ` +
            `phoneNumber${again ? ' (again, from the configured number)' : ''}`,
          () => c.update(sent, 'e-mail and postal address'),
        );
        await verifyDocumentedPath(t, c, first, sent);
        t.judge(first, 'OP10-RULE1-SUPPLIED-OBJECTS');
        const probe = await t.step(`an update naming the number on record before, ${before.number}, succeeds`, () =>
          c.update(
            {
              phone: {
                oldPhoneNumber: before.number,
                oldCountryCode: before.countryCode,
                newPhoneNumber: c.newNumber(),
              },
            },
            'oldPhoneNumber: the number on record before',
          ),
        );
        // Refused: the run's log puts the number in doubt (harness/state/contact-believed.ts).
        return probe;
      });
      // The log shows the number on record before the update without phoneNumber where an accepted update
      // put it there (an earlier case's, or the confirmation after a reconcile); else what the run knows does.
      t.judgeLogKnowing(c.knownBefore(before), c.judgedLog, 'OP10-RULE1-UNSUPPLIED-KEPT');
    },
  },
];
