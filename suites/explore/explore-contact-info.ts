import { feature, type CaseContext } from '../../harness/case';
import type { CustomerData } from '../../harness/config';
import { EXPLORE_EMBEDDED, EXPLORE_MAX_COMMANDS } from '../../harness/explore-settings';
import { holdExplored } from '../../harness/explore-verdicts';
import type { HttpResult } from '../../harness/http/client';
import { Customer } from '../contact-info/customer';
import { couldNotConfirm, sentAlone } from '../contact-info/_customer-on-record';
import { phoneKey } from '../contact-info/_phone-on-record';
import { againContact, runContactSequence, searchContact, type ContactRun } from './contact-search';
import { customerName, type ContactGround, type Unconfirmed } from './contact-sequence';
import { failing } from './search-common';
import type { Sender } from './sequence';
import type { Reached } from '../../harness/rules/judge-log';
import { evidence, seedOf } from './evidence';
import { RUN_LOG } from '../../harness/log/run-log';
import { lockIsFree } from '../../harness/lock';
import { foldContactInfo } from '../../harness/state/contact-info';
import { isEmbeddedTarget } from '../../harness/embedded-target';

/**
 * The model-based explorer of a customer's contact data (operation 10; issue 33, docs/explorer.md): seeded
 * sequences of phone changes (to new numbers and the same one, with and without country codes, to another country
 * code), stale and near-variant old numbers, e-mail and postal updates and all three together, on one customer or
 * two (both userIdType values where configured), each sequence from the number found and back to it, every accepted
 * change read back by rule 2, the whole log held to the rules. A failing sequence is shrunk, replayed through this
 * test and reported with its numbered steps, seed, replay path and curl lines.
 */

/**
 * The rules of what the explored sequences show: the stored, kept and matched number, and the updates rules 1 and 3
 * say are served. The rest of operation 10 (its path, credentials, LOGIN_ID, a missing oldPhoneNumber) is the
 * hand-written cases' (a verdict the rules reach on them here is not recorded).
 */
export const EXPLORED_CONTACT_REQUIREMENTS = [
  'OP10-SUCCESS-NO-CONTENT',
  'OP10-RULE1-SUPPLIED-OBJECTS',
  'OP10-RULE1-PHONE-STORED',
  'OP10-RULE1-COUNTRY-CODE-STORED',
  'OP10-RULE1-UNSUPPLIED-KEPT',
  'OP10-RULE2-OLD-PHONE-MATCH',
  'OP10-RULE3-ALL-THREE',
  'OP10-RULE3-PHONE-STORED',
];

const mine = (v: Reached[]) => v.filter((r) => EXPLORED_CONTACT_REQUIREMENTS.includes(r.requirement));

export const EXPLORE_CONTACT_TITLE = 'explored sequences of contact updates hold every rule (model-based, shrunk)';

/**
 * The customers whose number the run's log shows unchanged so far (the number as found) and no other test holds: a
 * phone change sent with another object as a customer's first change is a state of its own (the state coverage's
 * "number as found"), which only such a customer can take. Ranked: as found and free, as found, any.
 */
function asFound(t: CaseContext): (c: CustomerData) => number {
  const state = foldContactInfo(t.run.get(RUN_LOG).withUnanswered());
  return (c) =>
    (state.changes(c.customerId) === 0 ? 2 : 0) + (lockIsFree(phoneKey(t.config.baseUrl, c.customerId)) ? 1 : 0);
}

/** The best ranked of `cs` (the first of them on a tie). */
const best = (cs: CustomerData[], rank: (c: CustomerData) => number) =>
  cs.reduce<CustomerData | undefined>((a, c) => (a === undefined || rank(c) > rank(a) ? c : a), undefined);

/**
 * The explorer's customers, chosen before any lock is asked for (none is awaited between): one, a second of the other
 * userIdType where one is configured, and a third where one is as found and free (its tour takes a first phone change
 * with another country code). Each is one whose number is as found where the log shows one.
 */
function picks(t: CaseContext): CustomerData[] {
  const all = [t.config.testData.customer, ...t.config.testData.moreCustomers];
  const rank = asFound(t);
  const a = best(all, rank);
  if (!a) return [];
  // Another customer, not the same one configured twice (a copied entry): its lock is the same, held once.
  const others = all.filter((c) => c.customerId !== a.customerId);
  const otherType = best(
    others.filter((c) => c.userIdType !== a.userIdType),
    rank,
  );
  const b = otherType && rank(otherType) >= 2 ? otherType : best(others, rank);
  const c = best(
    others.filter((o) => o.customerId !== b?.customerId),
    rank,
  );
  return [a, b, c && rank(c) === 3 ? c : undefined].filter((x): x is CustomerData => x !== undefined);
}

/** Hold the customers of `picks` (each lock asked for at once), else the one the hand-written tests would take. */
async function hold(t: CaseContext): Promise<Customer[]> {
  const chosen = picks(t);
  if (chosen.length === 0) return [await Customer.forPhoneChanges(t)];
  return Promise.all(chosen.map((p) => Customer.forPhoneChanges(t, { which: (c) => c === p })));
}

/**
 * The number on record, confirmed by an update naming it as old and new number (recorded). Where an earlier test
 * left it and that update is refused, the configured number is set back and confirmed first (Customer.fromOnRecord).
 */
async function control(t: CaseContext, c: Customer): Promise<void> {
  const { res } = await c.fromOnRecord((from, again) =>
    t.step(`control: ${from.number} is on record for ${c.customerId}${again ? ' (again)' : ''}`, () =>
      c.update(
        {
          phone: {
            oldPhoneNumber: from.number,
            oldCountryCode: from.countryCode,
            newPhoneNumber: from.number,
            newCountryCode: from.countryCode,
          },
        },
        'explore: control, the number on record as old and new (changes nothing)',
      ),
    ),
  );
  if (res.status < 200 || res.status >= 300)
    t.notApplicable(
      `a phone update naming the number on record as old and new was not served ` +
        `(${c.notServed(res.status, 'OP10-PATH or OP10-RULE1-SUPPLIED-OBJECTS')}), so no sequence can start`,
      res,
    );
}

async function explore(t: CaseContext): Promise<void> {
  const budget = t.settings.explore ?? EXPLORE_EMBEDDED;
  if (budget.count === 0) t.notApplicable('exploration is off (--explore 0)');
  const held = await hold(t);
  // The number on record of each, confirmed (an update naming it as old and new number, recorded).
  for (const c of held) await control(t, c);
  const ground: ContactGround = {
    t,
    customers: held.map((c) => ({ datum: c.datum, found: { ...c.onRecord } })),
    other:
      isEmbeddedTarget(t.config) &&
      held.every((c) => c.datum.emailAddress !== undefined && c.datum.postalAddress !== undefined),
  };
  await t.parameter(
    'explored customers',
    held.map((c, k) => `${customerName(k)}: ${c.customerId} (${c.datum.userIdType})`).join('; '),
  );
  const quiet = alone(t, (o) => t.client.send(o, {}, t.signal));
  const result = await searchContact(ground, quiet, {
    count: budget.count,
    deadline: Date.now() + budget.seconds * 1000,
    seed: seedOf(t, 'contact-info'),
    strict: t.settings.strict,
    // One request a command (the next update reads a change back), where an acceptance record's command takes two.
    maxCommands: 2 * EXPLORE_MAX_COMMANDS,
    declared: EXPLORED_CONTACT_REQUIREMENTS,
  });
  // A restore no update confirmed: the last test out on the customer reconciles it.
  for (const u of result.unconfirmed) handOver(t, ground, u);
  const summary = `${result.runs} sequence${result.runs === 1 ? '' : 's'}, ${result.requests} requests`;
  await t.parameter('explored', summary);
  if (result.found) return confirm(t, ground, result.found);
  await keep(t, 'the explorer: the first answer of each status to an update without country codes', [
    ...result.open.values(),
  ]);
  if (result.runs === 0) t.couldNotTest('no sequence ran within the time budget (--explore-time)');
  const passed = [...result.passed].filter(([id]) => EXPLORED_CONTACT_REQUIREMENTS.includes(id));
  if (passed.length === 0) t.couldNotTest(`the explored sequences gave no verdict (${summary})`);
  holdExplored(t, {
    declared: EXPLORED_CONTACT_REQUIREMENTS,
    runs: result.runs,
    graded: [...result.graded.values()],
    passed,
  });
}

/**
 * The explorer holds its customers alone (exclusively): its updates, in the run's log like every other (the client
 * appends them), move the phone the run believes (harness/state/contact-believed.ts), as a case's own do.
 */
function alone(t: CaseContext, send: Sender): Sender {
  return async (o) => {
    const res = await send(o);
    const id = o.pathParams?.customerId;
    if (res.logged && id !== undefined) sentAlone(t, phoneKey(t.config.baseUrl, id), res.logged.x.index);
    return res;
  };
}

/** What a sequence could not set back: the customer's lock learns it, so its last test out reconciles the number from
 * what the run's log says may be on record (the explorer's updates are in it), and sets the rest back. */
function handOver(t: CaseContext, ground: ContactGround, u: Unconfirmed): void {
  const c = ground.customers[u.k]!;
  couldNotConfirm(t, phoneKey(t.config.baseUrl, c.datum.customerId), u.phone, u);
}

async function keep(t: CaseContext, step: string, results: HttpResult[]): Promise<void> {
  await t.step(step, async () => {
    for (const r of results) {
      t.exchanges.push(r.exchange);
      await t.sink.exchange(r.exchange);
    }
  });
}

/** Replay the shrunk sequence through the test (recorded) and report what fails on it (as the first explorer). */
async function confirm(
  t: CaseContext,
  ground: ContactGround,
  found: NonNullable<Awaited<ReturnType<typeof searchContact>>['found']>,
): Promise<void> {
  const replay = await t.step('replay of the shrunk sequence', () =>
    runContactSequence(
      ground,
      alone(t, (o) => t.send(o)),
      againContact(found.run),
      t.settings.strict,
      mine,
    ),
  );
  const declared = (run: ContactRun) => mine(failing(run.verdicts, t.settings.strict));
  let failed = declared(replay);
  let text = evidence(t, found, replay, true, 'contact-info');
  if (failed.length === 0) {
    await keep(t, 'the shrunk sequence as it first failed', found.run.seq.results);
    failed = declared(found.run);
    text = evidence(t, found, found.run, false, 'contact-info');
  }
  for (const u of replay.seq.unconfirmed) handOver(t, ground, u);
  holdExplored(t, {
    declared: EXPLORED_CONTACT_REQUIREMENTS,
    runs: 0,
    failed: { verdicts: failed, text },
    graded: [],
    passed: [],
  });
}

export default feature('contact-info', 'updateContactInfo', [
  { title: EXPLORE_CONTACT_TITLE, requirements: EXPLORED_CONTACT_REQUIREMENTS, run: explore },
]);
