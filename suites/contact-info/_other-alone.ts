import type { ContactUpdate } from '../../data-builders/contact-info';
import type { CaseContext } from '../../harness/case';
import type { HttpResult } from '../../harness/http/client';
import { is2xx, type Customer } from './customer';

/**
 * Rule 1 for an update that supplies only the e-mail address or only the postal address: it updates that object and
 * keeps the phone number on record (OP10-RULE1-UNSUPPLIED-KEPT). There is no read operation (11: "not shown"), so the
 * read-back is rule 2: the number on record before, named as old and new phone number (changes nothing), is accepted
 * only if it is still on record. The read-back carries the configured e-mail or postal address too, which sets it
 * back: the restore that follows costs no request of its own.
 *
 * Where the run's log proves the number on record (the proof before the first write, a confirmation, then only
 * updates that kept it) and the read-back is refused, the target changed it (_changed-by-target.ts, through
 * Customer.fromOnRecord): the case fails OP10-RULE1-UNSUPPLIED-KEPT on the customer's updates. Where an earlier
 * case left the number unconfirmed, it is set back and confirmed first, and both steps run again from there.
 */
export async function otherAloneKeepsPhone(
  t: CaseContext,
  c: Customer,
  which: 'email' | 'postal',
  build: () => ContactUpdate,
  verify: (res: HttpResult, sent: ContactUpdate) => Promise<void>,
): Promise<void> {
  const what = which === 'email' ? 'e-mail address' : 'postal address';
  const back: ContactUpdate =
    which === 'email' ? { emailAddress: c.original.emailAddress } : { postalAddress: c.original.postalAddress };
  let first: HttpResult | undefined;
  const { res: probe, from } = await c.fromOnRecord(async (before, again) => {
    const sent = build();
    const also = again ? ' (again, from the configured number)' : '';
    first = await t.step(`update the ${what} alone${also}`, () => c.update(sent, `${what} alone`));
    await verify(first, sent);
    // Not served: its own rules said so; nothing was written that the phone number could have lost.
    if (!is2xx(first.status)) return first;
    return t.step(
      `read back: ${before.number} as old and new phone number is accepted (kept), with the configured ${what}`,
      () =>
        c.update(
          {
            phone: {
              oldPhoneNumber: before.number,
              oldCountryCode: before.countryCode,
              newPhoneNumber: before.number,
              newCountryCode: before.countryCode,
            },
            ...back,
          },
          `read back: the number on record before as old and new, the configured ${what} (sets it back)`,
        ),
    );
  });
  if (first === undefined || !is2xx(first.status)) return;
  // Refused, and the log does not prove the number on record (else fromOnRecord failed the rule already): the number
  // may have been cleared; the run's log puts it in doubt and suspects the clear (harness/state/contact-believed.ts,
  // contact-candidates.ts), so the restore also tries "".
  if (is2xx(probe.status)) c.setBack(which);
  t.judgeLogKnowing(c.knownBefore(from), c.judgedLog, 'OP10-RULE1-UNSUPPLIED-KEPT');
}
