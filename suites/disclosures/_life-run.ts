import {
  changeUserDisclosureRequest,
  deleteUserDisclosureRequest,
  type DisclosureRef,
} from '../../data-builders/disclosures';
import { CouldNotTestError, NotApplicableError, type CaseContext } from '../../harness/case';
import { TransportError, type HttpResult } from '../../harness/http/client';
import type { Exchange } from '../../harness/model';
import { is2xx } from './_institution-disclosures';
import type { Acted, Deferred, LifecycleStep } from './_lifecycle-parts';
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

/** The steps of the records' life (_record-lifecycle.ts), as its runner takes them. */

/** The step of a control request: the same change or delete without the configured InstitutionCustomerId. */
const CONTROL_STEP = 'control, without InstitutionCustomerId:';

/** The runner's state between the steps: the last list, the exchanges set aside, the last unanswered request. */
export class LifeRun {
  listed!: { res: HttpResult; records: UserRecord[] };
  /** Exchanges of the runner that the cases judging a step do not cite (the second record's create). */
  readonly aside = new Set<Exchange>();
  /** The last request of a step that went unanswered (the step's cases could not test). */
  unanswered: TransportError | undefined;

  constructor(
    readonly t: CaseContext,
    private readonly steps: Map<LifecycleStep, Deferred>,
  ) {}

  async list(): Promise<{ res: HttpResult; records: UserRecord[] }> {
    this.listed = await this.t.step('list the records', () => listUserRecords(this.t));
    return this.listed;
  }

  /**
   * Run a step. A step that cannot be taken (not applicable) is reported to its cases, and the life
   * goes on. A request of it that went unanswered (a timeout, a cut-off answer, a 5xx or 429 on a
   * write) leaves its cases "could not test", and the life goes on from what a new list shows (the
   * write may have landed); where that list goes unanswered too, the life ends there.
   */
  async take(step: LifecycleStep, fn: () => Promise<Acted>): Promise<void> {
    const t = this.t;
    const from = t.exchanges.length;
    try {
      const acted = await fn();
      this.steps.get(step)!.resolve({ acted, exchanges: t.exchanges.slice(from).filter((e) => !this.aside.has(e)) });
    } catch (e) {
      if (e instanceof TransportError) {
        this.steps.get(step)!.reject((this.unanswered = e));
        await this.list();
        return;
      }
      // A configured value a control disproved (_test-data.ts): this step and every later one could not test.
      if (e instanceof CouldNotTestError) {
        this.steps.get(step)!.reject(e);
        await this.list();
        throw new CouldNotTestError(`not sent, as its requests would carry the same value: ${e.message}`, e.setupKey);
      }
      if (!(e instanceof NotApplicableError)) throw e;
      this.steps.get(step)!.reject(e);
    }
  }

  skip(step: LifecycleStep, why: string): void {
    this.steps.get(step)!.reject(new NotApplicableError(why));
  }

  /** A set-up write between steps, then a list; unanswered, it may have landed: the list says what the next step
   * finds. */
  async setUp(fn: () => Promise<HttpResult>): Promise<HttpResult | undefined> {
    let res: HttpResult | undefined;
    try {
      res = await fn();
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
      this.unanswered = e;
    }
    await this.list();
    return res;
  }

  /**
   * Where the list gives no institutionUserDisclosureId, the /{id} forms cannot be addressed: their steps are not
   * applicable (recordId says why), and nothing is sent for them.
   */
  async byIdForm(first: UserRecord, step: LifecycleStep, steps: () => Promise<void>): Promise<void> {
    if (typeof first.institutionUserDisclosureId === 'string' && first.institutionUserDisclosureId !== '')
      await steps();
    else await this.take(step, async () => (recordId(this.t, first), undefined as never));
  }
}

/** 1–3: create A (and B beside it), list. Gives A's record as listed, and B where it is listed. */
export async function createSteps(
  run: LifeRun,
  a: DisclosureRef,
  b: DisclosureRef | undefined,
): Promise<{ first: UserRecord; second: DisclosureRef | undefined }> {
  const t = run.t;
  let created: HttpResult | undefined;
  let createdB: HttpResult | undefined;
  await run.take('create', async () => {
    // B's create goes side by side with A's (the records are independent); only A's is judged.
    const other =
      b && createRecord(t, b, 'create a second user disclosure (ACCEPTED), which ' + 'the changes must not touch');
    other?.catch(() => undefined);
    created = await t.step('create the record', () => createRecord(t, a));
    if (other) run.aside.add((createdB = await other).exchange);
    await run.list();
    return { d: a, res: created, after: run.listed };
  });
  // A create without an answer may have landed: the life goes on where the list shows the record.
  if (created && !is2xx(created))
    throw new NotApplicableError(
      `creating the acceptance record was not served (status ` + `${created.status}; reported by OP5-REQUEST)`,
    );
  const listed = run.listed;
  // The list was not served (a target that stopped serving it): nothing to go on (session 40: it crashed here).
  if (!listed) throw new NotApplicableError('the list of user disclosures was not served (reported by OP4-REQUEST)');
  // A create served whose record is not listed may be on another user (_test-data.ts): left to check by hand.
  if (created && is2xx(created) && !findRecord(listed.records, a)) createdButNotListed(t, a, created);
  if (b && createdB && is2xx(createdB) && !findRecord(listed.records, b)) createdButNotListed(t, b, createdB);
  const first = findRecord(listed.records, a);
  if (!first)
    throw created
      ? new NotApplicableError('the created acceptance record is not listed ' + '(reported by STATE-UD-CREATE)')
      : run.unanswered;
  return { first, second: b && findRecord(listed.records, b) ? b : undefined };
}

/** A change of A to NOT_ACCEPTED in a form, with its control, then a list. */
const change = (run: LifeRun, a: DisclosureRef, form: Form) => async (): Promise<Acted> => {
  const t = run.t;
  const before = run.listed;
  const req = changeUserDisclosureRequest(t.faker, t.config, a, 'NOT_ACCEPTED');
  const ops = { collection: 'changeUserDisclosure', byId: 'changeUserDisclosureById' } as const;
  const record = findRecord(before.records, a)!;
  const res = await sendInForm(t, form, record, ops, req, 'change');
  const control = () => sendInForm(t, form, record, ops, withoutCustomerId(req), CONTROL_STEP);
  const setupNote = await customerIdControl(t, 'change', res, control);
  await run.list();
  return { d: a, res, before, after: run.listed, setupNote };
};

/** 4–9: change A to NOT_ACCEPTED in each form, with B (ACCEPTED) beside it. */
export async function changeSteps(run: LifeRun, a: DisclosureRef, first: UserRecord): Promise<void> {
  const t = run.t;
  await run.take('change:collection', change(run, a, 'collection'));
  await run.byIdForm(first, 'change:by-id', async () => {
    let recA = findRecord(run.listed.records, a);
    if (recA && recA.institutionUserDisclosureStatus !== 'ACCEPTED') {
      const req = changeUserDisclosureRequest(t.faker, t.config, a, 'ACCEPTED');
      await run.setUp(() =>
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
      recA = findRecord(run.listed.records, a);
    }
    if (recA?.institutionUserDisclosureStatus === 'ACCEPTED') await run.take('change:by-id', change(run, a, 'by-id'));
    else
      run.skip(
        'change:by-id',
        `the record is ${recA ? `listed as ${JSON.stringify(recA.institutionUserDisclosureStatus)}` : 'not listed'} ` +
          `after the change in the collection form and could not be set back to ACCEPTED, so a change to ` +
          `NOT_ACCEPTED would show nothing (reported by STATE-UD-CHANGE)`,
      );
  });
}

/** A delete of the target's record in a form, with its control, then a list. */
const del = (run: LifeRun, target: DisclosureRef, form: Form) => async (): Promise<Acted> => {
  const t = run.t;
  const before = run.listed;
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
  await run.list();
  return { d: target, res, before, after: run.listed, setupNote };
};

/** 10–15: delete B in each form, with A (NOT_ACCEPTED) beside it; A where there is no B. */
export async function deleteSteps(run: LifeRun, target: DisclosureRef, first: UserRecord): Promise<void> {
  const t = run.t;
  await run.take('delete:collection', del(run, target, 'collection'));
  await run.byIdForm(first, 'delete:by-id', async () => {
    if (!findRecord(run.listed.records, target)) {
      const again = await run.setUp(() =>
        t.step('create the record again, for the delete in the ' + '/{institutionUserDisclosureId} form', () =>
          createRecord(t, target, 'create the user disclosure again'),
        ),
      );
      if (!findRecord(run.listed.records, target)) {
        if (!again) throw run.unanswered;
        return run.skip(
          'delete:by-id',
          `creating the record again was not served or not listed (status ` +
            `${again.status}; reported by OP5-REQUEST, STATE-UD-CREATE)`,
        );
      }
    }
    await run.take('delete:by-id', del(run, target, 'by-id'));
  });
}
