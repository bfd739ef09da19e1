import { slot } from '../../harness/run-state';
import { listUserDisclosuresRequest, type DisclosureRef } from '../../data-builders/disclosures';
import { CouldNotTestError, NotApplicableError, type CaseContext } from '../../harness/case';
import { TransportError, type HttpResult } from '../../harness/http/client';
import { cutAtToken } from '../../harness/text';
import { ownWords } from '../../harness/setup/error-names';
import { refused } from './_case-records';
import type { Listed } from './_institution-disclosures';
import { institutionDisclosuresOnce, oncePerRun, ONCE_PER_RUN_PRIORITY } from './_known-records';

/**
 * Issue 20: a red verdict means the target broke the spec, not that the setup is wrong. The test data
 * of the user disclosure cases is checked against what the target shows before anything is written
 * with it, and where a control request can prove or disprove a configured value, the run sends it:
 *
 * - testData.disclosure must be among the disclosures operation 1 lists (the run lists them once), and
 *   the user must not have accepted it before the run (the survey of _user-records.ts);
 * - testData.institutionUserId: a list of operation 4 refused for it (a 4xx other than 429, 401, 405)
 *   is set beside the same list for a made-up consumer (once per run);
 * - testData.institutionCustomerId: a change or delete carrying it that is refused is sent again
 *   without it (the records' life, _record-lifecycle.ts; the run remembers a value it disproved, and
 *   its clean-ups delete without it).
 *
 * A value disproven leaves the cases that depend on it "could not test", naming the key (CaseReport.setup),
 * never failed and never "not applicable". Where a failure could still come from a configured value,
 * its text says so and names the key (CaseContext.withSetupNote). A create served whose record the list for the
 * configured user does not show is listed as left on the target (createdButNotListed).
 */

export const DISCLOSURE_KEY = 'testData.disclosure';
export const USER_KEY = 'testData.institutionUserId';
export const CUSTOMER_ID_KEY = 'testData.institutionCustomerId';
export const ACCOUNT_TYPE_KEY = 'testData.accountType';

const is2xx = (res: HttpResult): boolean => res.status >= 200 && res.status < 300;
/** A refusal test data may explain: not 401 (the credentials) nor 405 (the method is not served at the path). */
const refusedForData = (res: HttpResult): boolean => refused(res) && res.status !== 401 && res.status !== 405;
const NOTHING = 'nothing was written for it';

type ConfiguredDisclosure = { institutionDisclosureId: string; institutionDisclosureName: string };

/** What operation 1 lists, for a person: `"E-Sign Agreement" (disc-001), …`, cut to a reasonable length. */
export function listedDisclosures(items: Listed[], max = 300): string {
  if (items.length === 0) return 'none';
  const shown: string[] = [];
  let length = 0;
  for (const i of items) {
    const n = i.institutionDisclosureName;
    const name = typeof n === 'string' ? JSON.stringify(cutAtToken(n, 40)) : 'no name';
    const id = typeof i.institutionDisclosureId === 'string' ? cutAtToken(i.institutionDisclosureId, 40) : 'no id';
    const one = `${name} (${id})`;
    if (shown.length > 0 && length + one.length > max) break;
    shown.push(one);
    length += one.length + 2;
  }
  const more = items.length - shown.length;
  return `${shown.join(', ')}${more > 0 ? `, … and ${more} more` : ''}`;
}

/** Why the configured disclosure does not match what operation 1 lists; undefined where it does. */
export function disclosureMismatch(d: ConfiguredDisclosure, items: Listed[]): string | undefined {
  const id = JSON.stringify(d.institutionDisclosureId);
  const name = JSON.stringify(d.institutionDisclosureName);
  const named = `${DISCLOSURE_KEY} (institutionDisclosureId ${id}, institutionDisclosureName ${name})`;
  const byId = items.find((i) => i.institutionDisclosureId === d.institutionDisclosureId);
  if (byId) {
    const listedName = byId.institutionDisclosureName;
    if (typeof listedName !== 'string' || listedName === d.institutionDisclosureName) return undefined;
    const listed = JSON.stringify(cutAtToken(listedName, 80));
    const fix = 'set institutionDisclosureName to the listed name';
    return `${named} is listed by operation 1 under the name ${listed}: ${fix}; ${NOTHING}`;
  }
  // A list whose elements omit the id (reported by RES-DISCLOSURE-OPTIONAL-MEMBERS): by name.
  const sameName = (i: Listed) => i.institutionDisclosureName === d.institutionDisclosureName;
  if (items.some((i) => i.institutionDisclosureId === undefined && sameName(i))) return undefined;
  return (
    `${named} is not among the disclosures operation 1 lists: set it to one of them, or leave it out to use those ` +
    `the target lists; ${NOTHING}. Operation 1 lists ${items.length}: ${listedDisclosures(items)}`
  );
}

/** The user had a record for the configured disclosure before the run: the suite never alters it. */
export function alreadyAccepted(d: ConfiguredDisclosure): string {
  const id = JSON.stringify(d.institutionDisclosureId);
  return (
    `the user already had an acceptance record for ${DISCLOSURE_KEY} (institutionDisclosureId ${id}) before the run, ` +
    'and the suite does not alter records it did not create: set it to a disclosure the user has not accepted, or ' +
    `leave it out to use those the target lists; ${NOTHING}`
  );
}

/**
 * The configured testData.disclosure, before anything is written for it: where operation 1's list (once
 * per run) was served and does not hold it, the case could not test, naming the key. Where the list
 * was not served (reported by operation 1's cases), the configured disclosure is used as it is.
 */
export async function checkConfiguredDisclosure(t: CaseContext): Promise<void> {
  const d = t.config.testData.disclosure;
  if (!d) return;
  let items: Listed[];
  try {
    items = await institutionDisclosuresOnce(t);
  } catch (e) {
    if (e instanceof NotApplicableError || e instanceof TransportError) return;
    throw e;
  }
  const mismatch = disclosureMismatch(d, items);
  if (mismatch) t.couldNotTest(mismatch, DISCLOSURE_KEY);
}

/** The configured user, as a person reads it. */
const user = (t: CaseContext): string =>
  `InstitutionConsumerId ${JSON.stringify(t.config.testData.institutionUserId)} (${USER_KEY})`;

/**
 * Once per run: operation 4 asked for a made-up consumer, the control of a list refused for the configured user (a
 * deduplication of requests; what it proves is about the setup, not the records' state).
 */
function listForNobody(t: CaseContext): Promise<{ res: HttpResult; consumer: string }> {
  return oncePerRun(t, 'control: list user disclosures of a made-up consumer', async () => {
    const consumer = `dbsi-${t.settings.runId}-nobody-control`;
    const req = listUserDisclosuresRequest(t.faker, t.config);
    const label = 'control: list user disclosures of a made-up consumer';
    const query = { ...req.query, InstitutionConsumerId: consumer };
    const res = await t.step('control: the same list for a made-up consumer', () =>
      t.send({ operation: 'listUserDisclosures', ...req, query, label, priority: ONCE_PER_RUN_PRIORITY }),
    );
    return { res, consumer };
  });
}

/**
 * Operation 4 was not served for the configured user. Where it was refused (a 4xx other than 429),
 * the control: the same list for a made-up consumer. Served, it disproves the configured user (the
 * target serves lists, but not this user's to this token): could not test, naming the key. Else the
 * note a failure carries: the control cannot tell.
 */
export async function userListNotServed(t: CaseContext, res: HttpResult): Promise<string | undefined> {
  if (!refusedForData(res)) return undefined;
  const control = await listForNobody(t);
  if (is2xx(control.res))
    t.couldNotTest(
      `the list of user disclosures (operation 4) was refused for ${user(t)} (status ${res.status}) while the same ` +
        `list for a made-up consumer was served (status ${control.res.status}): the target does not serve this ` +
        `user's list to the bearer token; set ${USER_KEY} to the user the token stands for (or, where the ` +
        'token is the wrong one, DBSI_BEARER_TOKEN to a token of this user)',
      USER_KEY,
    );
  return (
    `the list was asked for ${user(t)}; the same list for a made-up consumer was refused too ` +
    `(status ${control.res.status}), so the control cannot tell whether the target refuses the list or does not ` +
    `know this user: check ${USER_KEY}`
  );
}

/** The note of a failure where a created record is not listed for the configured user. */
export const notListedNote = (t: CaseContext): string =>
  `the list was asked for ${user(t)}: where that is not the user the bearer token stands for, the record was created ` +
  `for another user; check ${USER_KEY}`;

/** The note of a refused create: the values of the configuration it carried. */
export function createRefusedNote(t: CaseContext, d: DisclosureRef, res: HttpResult): string | undefined {
  if (!refusedForData(res)) return undefined;
  const disclosure = t.config.testData.disclosure ? DISCLOSURE_KEY : 'as operation 1 lists it';
  return (
    `the request named InstitutionDisclosureId ${JSON.stringify(d.institutionDisclosureId)} (${disclosure}) and ` +
    `AccountId ${JSON.stringify(t.config.testData.accountId)} (testData.accountId) for the user the bearer token ` +
    'stands for: ' +
    'a target that does not know them may refuse it; check testData.accountId'
  );
}

/** Per run (t.run): the configured InstitutionCustomerId, once a control disproved it. */
const DISPROVEN = slot('InstitutionCustomerId disproven', () => ({ why: undefined as CouldNotTestError | undefined }));

/** The configured InstitutionCustomerId was disproven by a control earlier in the run: why (else undefined). */
export function customerIdDisproven(t: CaseContext): CouldNotTestError | undefined {
  return t.config.testData.institutionCustomerId === undefined ? undefined : t.run.get(DISPROVEN).why;
}

/** The same request without InstitutionCustomerId. */
export function withoutCustomerId<R extends { query?: Record<string, string | undefined> }>(req: R): R {
  return { ...req, query: { ...req.query, InstitutionCustomerId: undefined } };
}

/**
 * A change or delete with valid credentials was answered `res`. Where it carried the configured
 * InstitutionCustomerId and was refused (a 4xx other than 429), the control: `resend`, the same request
 * without it. Served, the value is disproven (the target knows no such customer): the run remembers
 * it, and this throws "could not test", naming the key. Refused too, the control cannot tell: returned
 * is the note a failure carries. Where none was configured, a refusal may be a business banking target
 * that requires one: the note says so.
 */
export async function customerIdControl(
  t: CaseContext,
  what: 'change' | 'delete',
  res: HttpResult,
  resend: () => Promise<HttpResult>,
): Promise<string | undefined> {
  if (!refusedForData(res)) return undefined;
  const configured = t.config.testData.institutionCustomerId;
  if (configured === undefined)
    return (
      `the request carried no InstitutionCustomerId (${CUSTOMER_ID_KEY} is not set), which the spec makes mandatory ` +
      `for business banking requests: on a business banking target, set ${CUSTOMER_ID_KEY}`
    );
  const named = `InstitutionCustomerId ${JSON.stringify(configured)} (${CUSTOMER_ID_KEY})`;
  const control = await resend();
  if (is2xx(control)) {
    const e = new CouldNotTestError(
      `the ${what} carrying ${named} was refused (status ${res.status}) while the same ${what} without it was ` +
        `served (status ${control.status}): the target knows no such business customer; leave ${CUSTOMER_ID_KEY} ` +
        'unset on a target without business banking, or set it to a customer the target knows',
      CUSTOMER_ID_KEY,
    );
    t.run.get(DISPROVEN).why = e;
    throw e;
  }
  return (
    `the request carried ${named}; the same ${what} without it was refused too (status ${control.status}), ` +
    `so the control cannot tell whether the value is the cause: check ${CUSTOMER_ID_KEY}`
  );
}

/**
 * A change or delete refused as a request that does not meet the requirements (400 or 422) while it carried no
 * InstitutionCustomerId ("mandatory for business banking requests") or, a delete, no AccountType ("mandatory for
 * multi-statement disclosures"), their keys not set: the target may rightly require them (harness/rules/
 * user-disclosures.ts gives the exchange no verdict), so the case could not test, naming the key to set.
 */
export function unconfiguredRefusal(t: CaseContext, what: 'change' | 'delete', res: HttpResult): never | undefined {
  if (res.status !== 400 && res.status !== 422) return undefined;
  const { institutionCustomerId, accountType } = t.config.testData;
  const lacking: Array<[string, string]> = [];
  if (institutionCustomerId === undefined)
    lacking.push([CUSTOMER_ID_KEY, 'InstitutionCustomerId ("mandatory for business banking requests")']);
  if (what === 'delete' && accountType === undefined)
    lacking.push([ACCOUNT_TYPE_KEY, 'AccountType ("mandatory for multi-statement disclosures")']);
  if (lacking.length === 0) return undefined;
  // The target's error names something else (a member the request carried, a configured value) and none of the
  // parameters it lacked: its words are the evidence, not a guess at what the request lacked (session 41).
  if (
    namesSomethingElse(
      t,
      res,
      lacking.map(([k]) => k),
    )
  )
    return undefined;
  const keys = lacking.map(([k]) => k).join(' or ');
  t.couldNotTest(
    `the ${what} carried no ${lacking.map(([, q]) => q).join(' and ')} (${keys} not set) and was refused ` +
      `(status ${res.status}) as a request that does not meet the requirements: on a target that requires it, ` +
      `set ${keys}`,
    lacking[0]![0],
  );
}

/**
 * The error of a refused change or delete names a member the request carried (its AccountType, its AccountId) or
 * quotes a configured value, and says nothing of the parameters it lacked: it is about something else.
 */
function namesSomethingElse(t: CaseContext, res: HttpResult, lacking: string[]): boolean {
  const error = res.text;
  const words = (k: string) => (k === CUSTOMER_ID_KEY ? /institution.?customer/i : /account.?type/i);
  if (lacking.some((k) => words(k).test(error))) return false;
  const { accountId, institutionUserId, institutionId } = t.config.testData;
  const quoted = [accountId, institutionUserId, institutionId].some((v) => v.length >= 3 && error.includes(v));
  return quoted || ownWords(res.exchange, []) !== undefined;
}

/** The configured values a change or delete of a user disclosure carries and relies on being right (setup/proof.ts). */
export function reliedBy(req: { query?: Record<string, string | undefined>; headers?: Record<string, unknown> }) {
  const keys = [
    ...(req.query?.InstitutionCustomerId !== undefined ? [CUSTOMER_ID_KEY] : []),
    ...(req.query?.AccountType !== undefined ? [ACCOUNT_TYPE_KEY] : []),
    ...(req.headers?.AccountId !== undefined ? ['testData.accountId'] : []),
  ];
  return keys.length ? keys : undefined;
}

/**
 * A create answered 2xx whose record the list for the configured user does not show: where
 * testData.institutionUserId is not the user the bearer token stands for, the record is on that user,
 * where the run can neither see nor delete it (a delete might hit a record of that user from before the
 * run). Listed as left on the target, to check by hand.
 */
export function createdButNotListed(t: CaseContext, d: DisclosureRef, res: HttpResult): void {
  const { institutionUserId, accountId } = t.config.testData;
  const name = JSON.stringify(d.institutionDisclosureName);
  const key = ['user-disclosure-not-listed', t.settings.runId, t.config.baseUrl, institutionUserId, d.institutionId];
  const user = JSON.stringify(institutionUserId);
  t.leftBehind({
    key: [...key, name].join('|'),
    what:
      `acceptance record of disclosure ${name} (institutionDisclosureId ${d.institutionDisclosureId}, account ` +
      `${accountId}) whose create was answered ${res.status}, not listed for ${USER_KEY} ${user}`,
    now: 'unknown: on record for the user the bearer token stands for, where that is not the configured user',
    restore:
      `where that user has it and did not before the run, delete it (operation 7, DELETE {baseUrl}/db-disclosures/v1/` +
      `institution-user-disclosures for institutionDisclosureName ${name})`,
    why: `the create was served but the list for ${USER_KEY} does not show the record; check ${USER_KEY}`,
  });
}
