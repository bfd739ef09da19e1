import type { CaseContext } from '../../harness/case';
import { TransportError, type HttpResult } from '../../harness/http/client';
import { phoneBelieved } from './_customer-on-record';
import { is2xx, onRecordNow, reconcilePhone, REFUSED_AFTER_SETTING_BACK, type RestoreScope } from './_customer-restore';
import { samePhone, UNKNOWN_AFTER_EARLIER_CASE, type Phone } from './_phone-on-record';
import { changedByTarget, heldAsChanged } from './_changed-by-target';
import { countryCodeWithheld } from './_country-code';

/**
 * The steps of a case that rely on the phone the run believes is on record (customer.ts): the control before
 * requests to refuse, the steps that name it as oldPhoneNumber (set back and run again where an earlier case left
 * it unconfirmed), and the reconcile of a number an earlier case left unknown. A case's verdict never rests on
 * another case's fault: what it cannot confirm is could not test, never a failure.
 */

export interface StepsScope extends RestoreScope {
  /** Why an update the case needed served was not, and which rule reports it. */
  notServed(status: number, rules: string): string;
  /** The log the rules read starts at this case's last update (the confirmation after a reconcile). */
  logFromLast(): void;
  /** The answered updates of the customer this case sent, in order. */
  readonly answered: readonly HttpResult[];
}

/**
 * Before a refusal is blamed on anything else: where the run's log shows the number on record and the target
 * refused it later, the target changed it (_changed-by-target.ts), whichever of the case's refusals shows it.
 */
function targetChangedIt(c: StepsScope, refusals: readonly HttpResult[]): void {
  for (const res of [...refusals].reverse()) {
    const changed = changedByTarget(c.t, c.datum.customerId, res);
    if (changed) heldAsChanged(c.t, changed);
  }
}

/**
 * Could not test: the phone number could not be set back to the configured one and confirmed. Where the target
 * answered (refused the update naming the configured number as oldPhoneNumber), the configured number may not be
 * on record: its key is named.
 */
function notConfirmed(c: StepsScope, why: string, answered: boolean): never {
  targetChangedIt(c, c.answered);
  if (!answered) c.t.couldNotTest(why);
  const key = c.configKey('phoneNumber');
  c.t.couldNotTest(`${why}; the configured number may not be the one on record: check ${key}`, key);
}

/**
 * An earlier case could not confirm the phone number: set it back from what the run may have put on record and
 * confirm, before this case relies on it; else "could not test", never a failure.
 */
export async function reconcileAfterEarlierCase(c: StepsScope): Promise<void> {
  const earlier = c.s.unknown ?? '';
  let confirmed = false;
  let answered = true;
  try {
    confirmed = await c.t.step('reconcile the phone number on record (unknown ' + 'after an earlier case)', () =>
      reconcilePhone(c),
    );
  } catch (e) {
    if (!(e instanceof TransportError)) throw e;
    answered = false;
  }
  if (!confirmed) {
    const back = `setting it back to ${c.describe(c.start)} could not be confirmed (${earlier})`;
    notConfirmed(c, `${UNKNOWN_AFTER_EARLIER_CASE}, and ${back}`, answered);
  }
  c.t.putBack(c.key);
}

/**
 * Steps that rely on the phone the run believes is on record (`run` gets it), ending with an update that names it
 * as oldPhoneNumber, whose answer `run` returns. Where an earlier case left that phone and no update has confirmed
 * it since, a refusal may mean that case's accepted update did not store it (a fault of another rule): the number
 * is then set back to the configured one and confirmed, and the steps are run again from there, so this case's
 * verdict never rests on another case's fault. A conformant target never costs the second round. Returns the
 * answer and the phone the steps started from.
 */
export async function fromOnRecord(
  c: StepsScope,
  run: (from: Phone, again: boolean) => Promise<HttpResult>,
): Promise<{ res: HttpResult; from: Phone }> {
  const from = c.believed().phone;
  const unconfirmed = !c.proven();
  const res = await run(from, false);
  if (is2xx(res.status) || res.status >= 500) return { res, from };
  // Proven on record and refused now: the target changed it (else the refusal is the caller's to judge).
  if (!unconfirmed) {
    targetChangedIt(c, [res]);
    return { res, from };
  }
  let confirmed = false;
  let why = REFUSED_AFTER_SETTING_BACK;
  try {
    confirmed = await c.t.step(
      `${c.describe(from)}, left on record by an earlier test, was refused as ` +
        `oldPhoneNumber: set the configured number back and confirm it`,
      () => reconcilePhone(c),
    );
    // The steps run again from the confirmed number: the log the rules read starts at the confirmation.
    if (confirmed) c.logFromLast();
  } catch (e) {
    if (!(e instanceof TransportError)) throw e;
    why = e.message;
  }
  if (!confirmed) {
    const answered = why === REFUSED_AFTER_SETTING_BACK;
    c.s.unknown = why;
    const back = `setting it back to ${c.describe(c.start)} could not be confirmed (${why})`;
    const refused = `${c.describe(from)} was refused as oldPhoneNumber`;
    notConfirmed(c, `${UNKNOWN_AFTER_EARLIER_CASE}: ${refused}, and ${back}`, answered);
  }
  const again = c.believed().phone;
  return { res: await run(again, true), from: again };
}

/**
 * Before requests that must be refused (a case that holds the customer shared): a valid phone update that changes
 * nothing (the number on record, with its country code, as old and new) is served at the same path, so the
 * refusals that follow are the target applying the rule, not an operation that serves nothing. Where another case's
 * request that should have been refused was accepted meanwhile (a faulty target), the numbers it may have put on
 * record are tried too. Returns the number on record.
 */
export async function control(c: StepsScope, t: CaseContext): Promise<string> {
  const tried: Phone[] = [];
  for (;;) {
    const p = onRecordNow(c).find((q) => q.number !== '' && !tried.some((r) => samePhone(q, r)));
    if (!p || tried.length >= 4) break;
    tried.push(p);
    const res = await t.step(
      tried.length === 1
        ? `control: a valid phone update (${p.number} to ` + `the same number) is served`
        : `control again, naming ${c.describe(p)} (another test's ` + `accepted request may have put it on record)`,
      () => c.update({ phone: keep(p) }, 'control: valid phone update that keeps the number'),
    );
    if (is2xx(res.status)) {
      // A number another test's accepted request may have put on record: that request is in no log of this case, so
      // the log the rules read starts at this control, which shows the number on record.
      if (tried.length > 1) c.logFromLast();
      return p.number;
    }
    targetChangedIt(c, [res]);
    // Believed before this refusal (the refusal itself puts it in doubt: harness/state/contact-believed.ts).
    if (phoneBelieved(c.s, c.believed(res.logged?.x.index))) controlRefused(c, t, p, res.status);
  }
  t.couldNotTest(
    'the number on record was changed meanwhile by a request of another test that the target should have ' +
      'refused (see the tests that failed), and no number that request may have put on record was accepted ' +
      'as oldPhoneNumber',
  );
}

const keep = (p: Phone) => ({
  oldPhoneNumber: p.number,
  oldCountryCode: p.countryCode,
  newPhoneNumber: p.number,
  newCountryCode: p.countryCode,
});

/** The control naming the phone the run believes on record was refused: the case cannot judge a refusal. */
function controlRefused(c: StepsScope, t: CaseContext, p: Phone, status: number): never {
  if (!c.proven()) {
    // Left by an earlier case's accepted update and not confirmed since: the refusal puts it in doubt (the run's log
    // says so), so the last case out reconciles.
    t.couldNotTest(
      `${c.describe(p)}, which an earlier test's accepted update put on record, was refused as ` +
        `oldPhoneNumber (status ${status}), so the number on record is not known; the clean-up reconciles it`,
    );
  }
  // The configured number refused as old and new (not a 404 or 405: the operation is served): it may not be on
  // record. Not for a customer addressed by its login id: a target may refuse LOGIN_ID itself
  // (OP10-USERIDTYPE-LOGIN-ID reports that), so the number is not to blame.
  // Nor a 401: a refusal of the credentials is never the test data's (the diagnosis reads it for the credentials).
  const served = status !== 401 && status !== 404 && status !== 405 && status < 500;
  if (samePhone(p, c.start) && served && c.datum.userIdType !== 'LOGIN_ID') {
    // Sent without the configured country code (_country-code.ts): a target may require one.
    const withheld = countryCodeWithheld(t, c.datum)
      ? `, or the target requires a country code, which the suite sends only with ` +
        `${c.configKey('countryCodeConfirmed')} true`
      : '';
    t.couldNotTest(
      `a valid phone update naming the configured ${c.describe(p)} as old and new number was refused ` +
        `(status ${status}), so a refusal would show nothing: the configured number may not be the one on ` +
        `record; check ${c.configKey('phoneNumber')}${withheld}`,
      c.configKey('phoneNumber'),
    );
  }
  t.notApplicable(
    `a valid phone update was not served either ` +
      `(${c.notServed(status, 'OP10-PATH or OP10-RULE1-SUPPLIED-OBJECTS')}), so a ` +
      `refusal would show nothing`,
  );
}
