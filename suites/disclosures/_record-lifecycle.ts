import { slot } from '../../harness/run-state';
import type { DisclosureRef } from '../../data-builders/disclosures';
import type { CaseContext } from '../../harness/case';
import type { HttpResult } from '../../harness/http/client';
import { writesMeanwhileLogged } from './_case-records';
import { caseKnows } from './_known-records';
import { changeSteps, createSteps, deleteSteps, LifeRun } from './_life-run';
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
import { findRecord, type UserRecord } from './_user-records';

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
  // What the write did to the record is in the run's log: the runner's clean-up asks it (caseKnows).
  const write = (send: () => Promise<HttpResult>) => send().finally(leave);
  // A case that fails before it sends still lets the clean-up go ahead.
  t.cleanup('let the clean-up of the shared records go ahead', async () => leave());
  return { ...offered, write };
}

/**
 * The exchanges a change or delete of the life drove to show it acted on no other record: the list before, the
 * write, the list after. The log judged is the run's over their window (CaseContext.judgeLog), with the writes of
 * user disclosures other tests sent meanwhile (the records they wrote are theirs to judge; a capture of the run
 * shows them too): this waits until those are answered. Could not test where one of them went unanswered: what
 * it did to the records beside cannot be told.
 */
export async function stepBesideOthers(t: CaseContext, acted: Acted): Promise<HttpResult[]> {
  const { before, res, after } = acted;
  if (!before) throw new Error('suite bug: a step of the life without the list before it');
  const unanswered = await writesMeanwhileLogged(t, before.res, after.res, [res]);
  if (unanswered)
    t.couldNotTest(
      `a write of a user disclosure another test sent meanwhile went unanswered (${unanswered}), so what the list ` +
        'after the step shows of the records beside cannot be told',
    );
  return [before.res, res, after.res];
}

async function live(
  t: CaseContext,
  steps: Map<LifecycleStep, Deferred>,
  end: EndOfLife,
  tookThem: () => void,
  free: (d: DisclosureRef) => void,
): Promise<void> {
  const took = await takeDisclosures(t);
  const [a, b] = took.disclosures;
  tookThem();
  const run = new LifeRun(t, steps);
  const { first, second } = await createSteps(run, a, b);
  await changeSteps(run, a, first);
  await deleteSteps(run, second ?? a, first);
  // B is no longer needed: where the last list shows it gone, its disclosure is free for other cases now.
  if (second && !findRecord(run.listed.records, second) && caseKnows(t, second) === 'absent') {
    took.release(second);
    free(second);
  }
  // The end of the life: the readers that asked send their refused requests on A, then the clean-up.
  end.open = false;
  const last = findRecord(run.listed.records, a);
  if (end.readers > 0 && last) {
    end.offer({ d: a, record: last });
    await end.idle();
  }
}
