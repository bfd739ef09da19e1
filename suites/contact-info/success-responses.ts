import type { CaseContext, CaseDef } from '../../harness/case';
import type { HttpResult } from '../../harness/http/client';
import { type ContactUpdate } from '../../data-builders/contact-info';
import { verifyDocumentedPath } from './_documented-path';
import { knownContactData } from './_unconfirmable';
import { Customer, is2xx } from './customer';
import { otherAloneKeepsPhone } from './_other-alone';
import { emailToSend, postalToSend } from './_values-sent';

/**
 * Operation 10, rules 1 and 3: each object alone, and all three together, succeed with 204 and no
 * content, at the documented path (literal ":contact-info" suffix, no version segment; a 404 there is
 * judged by _documented-path.ts). A refused phone update breaks the rule where the log shows it named
 * the number on record (an update before it, or the control after it, harness/rules/sequence-rules.ts). The e-mail
 * or postal address alone also reads back that the phone number was kept (_other-alone.ts).
 */
async function verifySuccess(
  t: CaseContext,
  c: Customer,
  res: HttpResult,
  sent: ContactUpdate,
  rule: 'OP10-RULE1-SUPPLIED-OBJECTS' | 'OP10-RULE3-ALL-THREE',
): Promise<void> {
  await verifyDocumentedPath(t, c, res, sent);
  if (is2xx(res.status) || !sent.phone) t.judge(res, rule, 'OP10-SUCCESS-NO-CONTENT');
  else t.judgeLog(c.judgedLog, rule);
}

export const SUCCESS_RESPONSES: CaseDef[] = [
  {
    title: 'answers 204 with no content to a phone number update alone',
    requirements: ['OP10-PATH', 'OP10-RULE1-SUPPLIED-OBJECTS', 'OP10-SUCCESS-NO-CONTENT'],
    async run(t) {
      const c = await Customer.forPhoneChanges(t);
      await t.parameter('path', c.path);
      let sent: ContactUpdate = {};
      const { res } = await c.changeFromOnRecord(
        'update the phone number alone',
        (from) =>
          (sent = {
            phone: { oldPhoneNumber: from.number, oldCountryCode: from.countryCode, newPhoneNumber: c.newNumber() },
          }),
        'phone number alone',
      );
      await verifySuccess(t, c, res, sent, 'OP10-RULE1-SUPPLIED-OBJECTS');
    },
  },
  {
    title: 'answers 204 with no content to an e-mail address update alone',
    requirements: ['OP10-PATH', 'OP10-RULE1-SUPPLIED-OBJECTS', 'OP10-SUCCESS-NO-CONTENT', 'OP10-RULE1-UNSUPPLIED-KEPT'],
    async run(t) {
      const c = await Customer.forPhoneChanges(t, knownContactData(t));
      c.requireRestorable({ email: true });
      await otherAloneKeepsPhone(
        t,
        c,
        'email',
        () => ({ emailAddress: emailToSend(t, c) }),
        (res, sent) => verifySuccess(t, c, res, sent, 'OP10-RULE1-SUPPLIED-OBJECTS'),
      );
    },
  },
  {
    title: 'answers 204 with no content to a postal address update alone',
    requirements: ['OP10-PATH', 'OP10-RULE1-SUPPLIED-OBJECTS', 'OP10-SUCCESS-NO-CONTENT', 'OP10-RULE1-UNSUPPLIED-KEPT'],
    async run(t) {
      const c = await Customer.forPhoneChanges(t, knownContactData(t));
      c.requireRestorable({ postal: true });
      await otherAloneKeepsPhone(
        t,
        c,
        'postal',
        () => ({ postalAddress: postalToSend(t, c) }),
        (res, sent) => verifySuccess(t, c, res, sent, 'OP10-RULE1-SUPPLIED-OBJECTS'),
      );
    },
  },
  {
    title: 'answers 204 with no content to a phone number, e-mail address and postal address update together',
    requirements: ['OP10-PATH', 'OP10-RULE3-ALL-THREE', 'OP10-SUCCESS-NO-CONTENT'],
    async run(t) {
      const c = await Customer.forPhoneChanges(t, knownContactData(t));
      c.requireRestorable({ email: true, postal: true });
      let sent: ContactUpdate = {};
      const { res } = await c.changeFromOnRecord(
        'update all three together',
        (from) =>
          (sent = {
            phone: { oldPhoneNumber: from.number, oldCountryCode: from.countryCode, newPhoneNumber: c.newNumber() },
            emailAddress: emailToSend(t, c),
            postalAddress: postalToSend(t, c),
          }),
        'phone number, e-mail address and postal address',
      );
      await verifySuccess(t, c, res, sent, 'OP10-RULE3-ALL-THREE');
    },
  },
];
