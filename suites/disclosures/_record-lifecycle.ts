import { slot } from '../../harness/run-state';
import {
  changeUserDisclosureRequest,
  deleteUserDisclosureRequest,
  type DisclosureRef,
} from '../../data-builders/disclosures';
import { CouldNotTestError, NotApplicableError, type CaseContext } from '../../harness/case';
import { TransportError, type HttpResult } from '../../harness/http/client';
import type { Exchange } from '../../harness/model';
import { caseKnows, sendToBeRefused, writesMeanwhile } from './_case-records';
import { is2xx } from './_institution-disclosures';
import { markNoRecord } from './_known-records';
import { takeDisclosures } from './_lifecycle-disclosures';
import {
  deferred,
  endOfLife,
  type Acted,
  type Deferred,
  type EndOfLife,
  type Life,
  type LifecycleStep,
} from './_lifecycle-parts';
import { createdButNotListed, customerIdControl, withoutCustomerId } from './_test-data';
import {
  createRecord,
  findRecord,
  listUserRecords,
  recordId,
  sendInForm,
  type Form,
  type UserRecord,
} from './_user-records';

/**
 * One life of two acceptance records of the configured user, shared by the cases of operations 5, 6
 * and 7 that create, change or delete a record with valid credentials. Each case judges its own rule
 * on the step that exercises it; the first case that asks runs the whole life (its report holds every
 * exchange, and its clean-ups delete what is left), the others cite the exchanges they judge
 * (CaseContext.cite). So a change is sent once for its status check, its state check and its
 * "no other record" check, and the cleanup of one step is the set-up of the next:
 *
 *   1. create A (ACCEPTED) .................. 5: answers 204
 *   2. create B (ACCEPTED), 3. list ......... 5: A is listed with the status sent
 *   4. change A to NOT_ACCEPTED (collection), 5. list
 *                                             6: answers 204; A has the status sent; B and the records
 *                                                from before the run are as they were
 *   6. A back to ACCEPTED, 7. list .......... (only where 4 changed it: the next change needs an
 *                                             ACCEPTED record beside another ACCEPTED one)
 *   8. change A to NOT_ACCEPTED (/{id}), 9. list
 *                                             6: the same three rules in the /{id} form
 *  10. delete B (collection), 11. list ...... 7: answers 204; B is gone; A (NOT_ACCEPTED: a delete
 *                                                keyed on either status shows) and the others stay
 *  12. create B again, 13. list ............. (only where 10 removed it)
 *  14. delete B (/{id}), 15. list ........... 7: the same three rules in the /{id} form
 *      clean-up: delete A (and B if left), list.
 *
 * A and B are disclosures the user has no record for (found as freshDisclosure finds one), held
 * exclusively from the first look to the end of the clean-up. Where only one is free (testData.disclosure
 * configured, or a sandbox with one), the life runs on A alone and the "no other record" checks look at
 * the other records the list before shows (those from before the run, and other tests' records their
 * writes did not touch meanwhile). A write whose outcome is unknown (no answer, 5xx, 429) ends the
 * life: the steps not yet run are "could not test" with the reason, and the clean-up reconciles
 * (_case-records.ts). A step that cannot be taken (no id for the /{id} form, a write not served) is
 * "not applicable" for the cases that judge it, with the rule that reports why, and the life goes on.
 */

export type { Acted, LifecycleStep } from './_lifecycle-parts';

/** The step of a control request: the same change or delete without the configured InstitutionCustomerId. */
const CONTROL_STEP = 'control, without InstitutionCustomerId:';

const STEPS: LifecycleStep[] = ['create', 'change:collection', 'change:by-id', 'delete:collection', 'delete:by-id'];

/** One life per run (t.run). */
const LIFE = slot('user-disclosure life', () => ({ life: undefined as Life | undefined }));

/**
 * The outcome of one step of the life for this case: the runner waits for the whole life (so its
 * clean-ups run after the last step), the others for their step, whose exchanges they cite. Rethrows
 * why a step could not be taken (not applicable, could not test).
 */
export async function lifecycleStep(t: CaseContext, step: LifecycleStep): Promise<Acted> {
  const running = t.run.get(LIFE).life;
  if (!running) {
    const life = start(t);
    t.run.get(LIFE).life = life;
    await life.done;
    return (await life.steps.get(step)!.promise).acted;
  }
  const settled = await running.steps.get(step)!.promise;
  await t.parameter('institutionDisclosureName', settled.acted.d.institutionDisclosureName);
  await t.cite(running.runner, settled.exchanges);
  return settled.acted;
}

function start(t: CaseContext): Life {
  const steps = new Map(STEPS.map((s) => [s, deferred()] as const));
  const end = endOfLife();
  let tookThem!: () => void;
  const took = new Promise<void>((resolve) => (tookThem = resolve));
  let free!: (d: DisclosureRef | undefined) => void;
  const freed = new Promise<DisclosureRef | undefined>((resolve) => (free = resolve));
  const done = live(t, steps, end, tookThem, free)
    .catch((e: unknown) => {
      for (const d of steps.values()) d.reject(e);
    })
    .finally(() => {
      end.open = false;
      end.offer(undefined);
      tookThem();
      free(undefined);
    });
  return { runner: t.def.title, steps, done, end, took, freed };
}

/**
 * For a case that needs a disclosure of its own for one request (a create a conformant target
 * refuses): where the life is starting, it takes its disclosures first, so that the longest chain of
 * the run is not the one that waits.
 */
export async function afterTheLifeTookItsDisclosures(t: CaseContext): Promise<void> {
  await t.run.get(LIFE).life?.took;
}

/** The disclosure the life frees first (B before the life's end), undefined where there is no life or it freed none. */
export async function disclosureTheLifeFrees(t: CaseContext): Promise<DisclosureRef | undefined> {
  return t.run.get(LIFE).life?.freed;
}

/**
 * For a case that sends a change or delete a conformant target refuses: the life's record A after its
 * last step, with `write` to send the request through (the runner's clean-up waits for it). Undefined
 * where there is no life running, or it is past its last step (then the case uses the shared record).
 */
export async function recordAtTheEndOfLife(
  t: CaseContext,
): Promise<
  { d: DisclosureRef; record: UserRecord; write: (send: () => Promise<HttpResult>) => Promise<HttpResult> } | undefined
> {
  const life = t.run.get(LIFE).life;
  if (!life?.end.open) return undefined;
  const end = life.end;
  end.readers++;
  let sent = false;
  const leave = () => {
    if (sent) return;
    sent = true;
    end.readers--;
    if (end.readers === 0) end.wake?.();
  };
  const offered = await end.offered;
  if (!offered) {
    leave();
    return undefined;
  }
  t.priority = 1; // the runner's clean-up waits for this request
  await t.parameter('institutionDisclosureName', offered.d.institutionDisclosureName);
  await t.parameter(
    'record',
    `the record of the test "${life.runner}" after its last ` + `step, before its clean-up deletes it`,
  );
  const write = (send: () => Promise<HttpResult>) => sendToBeRefused(send, () => (end.written = true)).finally(leave);
  // A case that fails before it sends still lets the clean-up go ahead.
  t.cleanup('let the clean-up of the shared records go ahead', async () => leave());
  return { ...offered, write };
}

/**
 * The log that shows whether a change or delete of the life acted on no other record: the list before,
 * the write, the list after, and the writes of user disclosures other tests sent meanwhile (the records
 * they wrote are theirs to judge; a capture of the run would show them too). Could not test where one
 * of those went unanswered: what it did to the records beside cannot be told.
 */
export async function logBesideTheStep(t: CaseContext, acted: Acted): Promise<HttpResult[]> {
  const { before, res, after } = acted;
  if (!before) throw new Error('suite bug: a step of the life without the list before it');
  const meanwhile = await writesMeanwhile(t, before.res, after.res, [res]);
  if (!meanwhile)
    t.couldNotTest(
      'a write of a user disclosure another test sent meanwhile went unanswered, so what the list after the ' +
        'step shows of the records beside cannot be told',
    );
  // Shown with the case's evidence: those served, which set the records they wrote apart (a refused one changed
  // nothing).
  for (const w of meanwhile) if (is2xx(w)) t.judged(w.exchange);
  return [before.res, res, ...meanwhile, after.res];
}

async function live(
  t: CaseContext,
  steps: Map<LifecycleStep, Deferred>,
  end: EndOfLife,
  tookThem: () => void,
  free: (d: DisclosureRef) => void,
): Promise<void> {
  const took = await takeDisclosures(t, end);
  const [a, b] = took.disclosures;
  tookThem();
  let listed: { res: HttpResult; records: UserRecord[] };
  const list = async () => (listed = await t.step('list the records', () => listUserRecords(t)));

  /** Exchanges of the runner that the cases judging a step do not cite (the second record's create). */
  const aside = new Set<Exchange>();
  /** The last request of a step that went unanswered (the step's cases could not test). */
  let unanswered: TransportError | undefined;
  /**
   * Run a step. A step that cannot be taken (not applicable) is reported to its cases, and the life
   * goes on. A request of it that went unanswered (a timeout, a cut-off answer, a 5xx or 429 on a
   * write) leaves its cases "could not test", and the life goes on from what a new list shows (the
   * write may have landed); where that list goes unanswered too, the life ends there.
   */
  const take = async (step: LifecycleStep, fn: () => Promise<Acted>) => {
    const from = t.exchanges.length;
    try {
      const acted = await fn();
      steps.get(step)!.resolve({ acted, exchanges: t.exchanges.slice(from).filter((e) => !aside.has(e)) });
    } catch (e) {
      if (e instanceof TransportError) {
        steps.get(step)!.reject((unanswered = e));
        await list();
        return;
      }
      // A configured value a control disproved (_test-data.ts): this step and every later one could not test.
      if (e instanceof CouldNotTestError) {
        steps.get(step)!.reject(e);
        await list();
        throw new CouldNotTestError(`not sent, as its requests would carry the same value: ${e.message}`, e.setupKey);
      }
      if (!(e instanceof NotApplicableError)) throw e;
      steps.get(step)!.reject(e);
    }
  };
  const skip = (step: LifecycleStep, why: string) => steps.get(step)!.reject(new NotApplicableError(why));
  /** A set-up write between steps, then a list; unanswered, it may have landed: the list says what the next step finds.
   * */
  const setUp = async (fn: () => Promise<HttpResult>): Promise<HttpResult | undefined> => {
    let res: HttpResult | undefined;
    try {
      res = await fn();
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
      unanswered = e;
    }
    await list();
    return res;
  };

  // 1–3: create A (and B beside it), list.
  let created: HttpResult | undefined;
  let createdB: HttpResult | undefined;
  await take('create', async () => {
    // B's create goes side by side with A's (the records are independent); only A's is judged.
    const other =
      b && createRecord(t, b, 'create a second user disclosure (ACCEPTED), which ' + 'the changes must not touch');
    other?.catch(() => undefined);
    created = await t.step('create the record', () => createRecord(t, a));
    if (other) aside.add((createdB = await other).exchange);
    await list();
    return { d: a, res: created, after: listed };
  });
  // A create without an answer may have landed: the life goes on where the list shows the record.
  if (created && !is2xx(created))
    throw new NotApplicableError(
      `creating the acceptance record was not served (status ` + `${created.status}; reported by OP5-REQUEST)`,
    );
  // A create served whose record is not listed may be on another user (_test-data.ts): left to check by hand.
  if (created && is2xx(created) && !findRecord(listed!.records, a)) createdButNotListed(t, a, created);
  if (b && createdB && is2xx(createdB) && !findRecord(listed!.records, b)) createdButNotListed(t, b, createdB);
  const first = findRecord(listed!.records, a);
  if (!first)
    throw created
      ? new NotApplicableError('the created acceptance record is not listed ' + '(reported by STATE-UD-CREATE)')
      : unanswered;
  const second = b && findRecord(listed!.records, b) ? b : undefined;
  // Where the list gives no institutionUserDisclosureId, the /{id} forms cannot be addressed: their steps are not
  // applicable (recordId says why), and nothing is sent for them.
  const byIdForm = async (step: LifecycleStep, steps: () => Promise<void>) => {
    if (typeof first.institutionUserDisclosureId === 'string' && first.institutionUserDisclosureId !== '')
      await steps();
    else await take(step, async () => (recordId(t, first), undefined as never));
  };

  // 4–9: change A to NOT_ACCEPTED in each form, with B (ACCEPTED) beside it.
  const change = (form: Form) => async (): Promise<Acted> => {
    const before = listed;
    const req = changeUserDisclosureRequest(t.faker, t.config, a, 'NOT_ACCEPTED');
    const ops = { collection: 'changeUserDisclosure', byId: 'changeUserDisclosureById' } as const;
    const record = findRecord(before.records, a)!;
    const res = await sendInForm(t, form, record, ops, req, 'change');
    const control = () => sendInForm(t, form, record, ops, withoutCustomerId(req), CONTROL_STEP);
    const setupNote = await customerIdControl(t, 'change', res, control);
    await list();
    return { d: a, res, before, after: listed, setupNote };
  };
  await take('change:collection', change('collection'));
  await byIdForm('change:by-id', async () => {
    let recA = findRecord(listed.records, a);
    if (recA && recA.institutionUserDisclosureStatus !== 'ACCEPTED') {
      const req = changeUserDisclosureRequest(t.faker, t.config, a, 'ACCEPTED');
      await setUp(() =>
        t.step('set the record back to ACCEPTED, for the change in the /{institutionUserDisclosureId} form', () =>
          sendInForm(
            t,
            'collection',
            recA!,
            { collection: 'changeUserDisclosure', byId: 'changeUserDisclosureById' },
            req,
            'set back',
          ),
        ),
      );
      recA = findRecord(listed.records, a);
    }
    if (recA?.institutionUserDisclosureStatus === 'ACCEPTED') await take('change:by-id', change('by-id'));
    else
      skip(
        'change:by-id',
        `the record is ${recA ? `listed as ${JSON.stringify(recA.institutionUserDisclosureStatus)}` : 'not listed'} ` +
          `after the change in the collection form and could not be set back to ACCEPTED, so a change to ` +
          `NOT_ACCEPTED would show nothing (reported by STATE-UD-CHANGE)`,
      );
  });

  // 10–15: delete B in each form, with A (NOT_ACCEPTED) beside it; A where there is no B.
  const target = second ?? a;
  const del = (form: Form) => async (): Promise<Acted> => {
    const before = listed;
    const record = findRecord(before.records, target);
    if (!record)
      throw new NotApplicableError(
        `the acceptance record of "${target.institutionDisclosureName}" to delete is not ` +
          `listed (reported by STATE-UD-CREATE or STATE-UD-CHANGE)`,
      );
    const status =
      typeof record.institutionUserDisclosureStatus === 'string' ? record.institutionUserDisclosureStatus : 'ACCEPTED';
    const req = deleteUserDisclosureRequest(t.faker, t.config, target, status);
    const ops = { collection: 'deleteUserDisclosure', byId: 'deleteUserDisclosureById' } as const;
    const res = await sendInForm(t, form, record, ops, req, 'delete');
    const control = () => sendInForm(t, form, record, ops, withoutCustomerId(req), CONTROL_STEP);
    const setupNote = await customerIdControl(t, 'delete', res, control);
    await list();
    return { d: target, res, before, after: listed, setupNote };
  };
  await take('delete:collection', del('collection'));
  await byIdForm('delete:by-id', async () => {
    if (!findRecord(listed.records, target)) {
      const again = await setUp(() =>
        t.step('create the record again, for the delete in the ' + '/{institutionUserDisclosureId} form', () =>
          createRecord(t, target, 'create the user disclosure again'),
        ),
      );
      if (!findRecord(listed.records, target)) {
        if (!again) throw unanswered;
        return skip(
          'delete:by-id',
          `creating the record again was not served or not listed (status ` +
            `${again.status}; reported by OP5-REQUEST, STATE-UD-CREATE)`,
        );
      }
    }
    await take('delete:by-id', del('by-id'));
  });

  // B is no longer needed: where the last list shows it gone, its disclosure is free for other cases now.
  if (second && !findRecord(listed!.records, second) && caseKnows(t, second) === 'absent') {
    markNoRecord(t, second);
    took.release(second);
    free(second);
  }
  // The end of the life: the readers that asked send their refused requests on A, then the clean-up.
  end.open = false;
  const last = findRecord(listed!.records, a);
  if (end.readers > 0 && last) {
    end.offer({ d: a, record: last });
    await end.idle();
  }
}
