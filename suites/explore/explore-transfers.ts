import { feature, type CaseContext } from '../../harness/case';
import { EXPLORE_EMBEDDED, EXPLORE_MAX_COMMANDS } from '../../harness/explore-settings';
import { holdExplored } from '../../harness/explore-verdicts';
import { NotAllowedError } from '../../harness/http/client';
import type { Reached } from '../../harness/rules/judge-log';
import { evidence, seedOf } from './evidence';
import { failing } from './search-common';
import { againTransfers, runTransferSequence, searchTransfers, type TransferRun } from './transfer-search';
import type { TransferGround } from './transfer-sequence';
import { isEmbeddedTarget } from '../../harness/embedded-target';

/**
 * The model-based explorer of transfers (operation 9; issue 33, docs/explorer.md): seeded sequences of one-time and
 * scheduled transfers with amounts with fractions, schedules with each shown value and the integers the spec leaves
 * free, previousYearContribution true and false, other currency codes, repeats (with and without Authorization), each
 * answer held to the rules (a 2xx Transfer reflects what was sent). A failing sequence is shrunk, replayed through this
 * test and reported with its steps, seed, replay path and curl lines. Money moves: only the embedded reference target
 * gets them (allow.moneyMovement on); a configured target none.
 */

/**
 * What a transfer's answer shows (a refusal of a schedule is the target's choice: not judged here), the 401 and 403
 * to the credentials they are documented for, sent after others were served and twice in a row, and the error body.
 */
export const EXPLORED_TRANSFER_REQUIREMENTS = [
  'OP9-RESPONSE-TRANSFER',
  'OP9-RESPONSE-REFLECTS-REQUEST',
  'OP9-AUTH-401',
  'OP9-AUTH-403',
  'OP9-ERROR-SHAPE',
];

const mine = (v: Reached[]) => v.filter((r) => EXPLORED_TRANSFER_REQUIREMENTS.includes(r.requirement));

export const EXPLORE_TRANSFERS_TITLE = 'explored sequences of transfers hold every rule (model-based, shrunk)';

async function explore(t: CaseContext): Promise<void> {
  const budget = t.settings.explore ?? EXPLORE_EMBEDDED;
  if (budget.count === 0) t.notApplicable('exploration is off (--explore 0)');
  const url = '{transfersBaseUrl}/db-transfers/v1/transfers';
  if (!t.config.allow.moneyMovement) throw new NotAllowedError('moneyMovement', 'POST', url);
  if (!isEmbeddedTarget(t.config))
    t.notApplicable('transfers move money: the explorer sends them to the embedded reference target only');
  const ground: TransferGround = { t };
  const quiet = (o: Parameters<typeof t.send>[0]) => t.client.send(o, {}, t.signal);
  const result = await searchTransfers(ground, quiet, {
    count: budget.count,
    deadline: Date.now() + budget.seconds * 1000,
    seed: seedOf(t, 'transfers'),
    strict: t.settings.strict,
    maxCommands: EXPLORE_MAX_COMMANDS,
    declared: EXPLORED_TRANSFER_REQUIREMENTS,
  });
  const summary = `${result.runs} sequence${result.runs === 1 ? '' : 's'}, ${result.requests} requests`;
  await t.parameter('explored', summary);
  if (result.found) return confirm(t, ground, result.found);
  await t.step('the explorer: the first answer of each status other than 2xx', async () => {
    for (const r of result.open.values()) {
      t.exchanges.push(r.exchange);
      await t.sink.exchange(r.exchange);
    }
  });
  if (result.runs === 0) t.couldNotTest('no sequence ran within the time budget (--explore-time)');
  const passed = [...result.passed].filter(([id]) => EXPLORED_TRANSFER_REQUIREMENTS.includes(id));
  if (passed.length === 0) t.couldNotTest(`the explored sequences gave no verdict (${summary})`);
  holdExplored(t, {
    declared: EXPLORED_TRANSFER_REQUIREMENTS,
    runs: result.runs,
    graded: [...result.graded.values()],
    passed,
  });
}

/** Replay the shrunk sequence through the test (recorded) and report what fails on it. */
async function confirm(
  t: CaseContext,
  ground: TransferGround,
  found: NonNullable<Awaited<ReturnType<typeof searchTransfers>>['found']>,
): Promise<void> {
  const replay = await t.step('replay of the shrunk sequence', () =>
    runTransferSequence(ground, (o) => t.send(o), againTransfers(found.run), t.settings.strict, mine),
  );
  const declared = (run: TransferRun) => mine(failing(run.verdicts, t.settings.strict));
  let failed = declared(replay);
  let text = evidence(t, found, replay, true, 'money-movement');
  if (failed.length === 0) {
    failed = declared(found.run);
    text = evidence(t, found, found.run, false, 'money-movement');
  }
  holdExplored(t, {
    declared: EXPLORED_TRANSFER_REQUIREMENTS,
    runs: 0,
    failed: { verdicts: failed, text },
    graded: [],
    passed: [],
  });
}

export default feature('money-movement', 'createTransfer', [
  { title: EXPLORE_TRANSFERS_TITLE, requirements: EXPLORED_TRANSFER_REQUIREMENTS, run: explore },
]);
