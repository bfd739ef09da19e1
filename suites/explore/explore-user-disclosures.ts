import { CATALOG } from '../../requirements';
import { feature, type CaseContext } from '../../harness/case';
import { EXPLORE_EMBEDDED, EXPLORE_MAX_COMMANDS } from '../../harness/explore-settings';
import { holdExplored } from '../../harness/explore-verdicts';
import type { HttpResult } from '../../harness/http/client';
import { freshDisclosure } from '../disclosures/_user-records';
import { explorerTurn } from '../disclosures/_explorer-lock';
import type { DisclosureRef } from '../../data-builders/disclosures';
import { again, runSequence, search, type SearchResult, type SequenceRun } from './search';
import { failing } from './search-common';
import { Sequence, slotName, type Ground } from './sequence';
import { EXPLORABLE } from './transitions';
import { SEVERAL, tours } from './tours';
import { evidence, seedOf } from './evidence';
import { isEmbeddedTarget } from '../../harness/embedded-target';

/**
 * The model-based explorer of the users' acceptance records (issue 33, docs/explorer.md): seeded sequences of
 * creates, changes and deletes (every status, both forms, ids never issued and near variants of real ones) on
 * up to six records of the configured user (two of listed disclosures, the rest made up), each read back and
 * cleaned up, the whole log held to the rules. A failing sequence is shrunk, replayed once more through this test
 * (its exchanges are this test's evidence) and reported with its numbered steps, seed, replay path and curl lines.
 */

const USER_OPERATIONS = [4, 5, 6, 7];
/**
 * Every requirement the rules may judge on operations 4–7 (and the conventions they share), but the refusal of
 * requests without valid credentials (the explorer sends only the configured ones) and the list of another consumer
 * (it lists only the configured user).
 */
export const EXPLORED_REQUIREMENTS = CATALOG.filter(
  (r) =>
    !r.notTestable &&
    !r.judgedInTraffic &&
    !['DISC-AUTH-REQUIRED', 'OP4-OTHER-CONSUMER'].includes(r.id) &&
    (r.operations.some((o) => USER_OPERATIONS.includes(o)) || r.id === 'CONV-JSON-BODIES'),
).map((r) => r.id);

/** The evidence a passing exploration keeps: how the target answered where the spec leaves the answer open. */
const OPEN_ANSWERS = 'the explorer: the first answer of each kind to a write of a record no list showed';

export const EXPLORE_TITLE = 'explored sequences of acceptance records hold every rule (model-based, shrunk)';

async function listedSlots(t: CaseContext): Promise<DisclosureRef[]> {
  const a = await freshDisclosure(t);
  // A second record where a second free disclosure is listed (one configured testData.disclosure: one record).
  if (t.config.testData.disclosure) return [a];
  try {
    return [a, await freshDisclosure(t, { besides: a })];
  } catch {
    return [a];
  }
}

/**
 * The records a sequence works on: those of listed disclosures (held by the case), then made-up disclosures of the
 * run's own up to SEVERAL (several records of the user at once; a record never written before). What a target
 * answers to a record of a disclosure it does not list is not shown: those creates are judged as open (a refusal
 * is accepted: the reference target's fixture set `retail` refuses them), and a 2xx is read back as any; every
 * sequence deletes what a list shows of them.
 */
async function slots(t: CaseContext): Promise<{ slots: DisclosureRef[]; listed: number }> {
  const listed = await listedSlots(t);
  // Disclosures of the run's own only on the suite's own target: on another, a record of one that a delete answered
  // and did not remove would be left unnamed (safety hold-out D3), and a configured testData.disclosure is the one
  // the operator lets the suite write.
  const room = isEmbeddedTarget(t.config) && !t.config.testData.disclosure ? SEVERAL - listed.length : 0;
  const madeUp = Array.from({ length: Math.max(0, room) }, (_, k) => {
    const id = `dbsi-${t.settings.runId}-record-${slotName(listed.length + k)}`;
    return {
      institutionDisclosureId: id,
      institutionDisclosureName: id,
      institutionId: t.config.testData.institutionId,
    };
  });
  return { slots: [...listed, ...madeUp], listed: listed.length };
}

async function explore(t: CaseContext): Promise<void> {
  const budget = t.settings.explore ?? EXPLORE_EMBEDDED;
  if (budget.count === 0) t.notApplicable('exploration is off (--explore 0)');
  await explorerTurn(t);
  const deadline = Date.now() + budget.seconds * 1000;
  const ground: Ground = {
    t,
    deadline,
    user: t.config.testData.institutionUserId,
    ...(await slots(t)),
    ghost: {
      institutionDisclosureId: `dbsi-${t.settings.runId}-ghost`,
      institutionDisclosureName: `dbsi-${t.settings.runId}-ghost`,
      institutionId: t.config.testData.institutionId,
    },
  };
  await t.parameter(
    'explored records',
    ground.slots.map((d, k) => `${slotName(k)}: ${d.institutionDisclosureName}`).join('; '),
  );
  const quiet = (o: Parameters<typeof t.send>[0]) => t.client.send(o, {}, t.signal);
  const seed = seedOf(t);
  const result = await search(ground, quiet, {
    count: budget.count,
    deadline,
    seed,
    strict: t.settings.strict,
    maxCommands: EXPLORE_MAX_COMMANDS,
    examples: budget.count > 0 ? tours(ground.slots.length) : [],
    declared: EXPLORED_REQUIREMENTS,
  });
  // What the sequences did is in the run's log: the clean-ups of freshDisclosure ask it (_known-records.ts, caseKnows).
  // A last sweep: a sequence cut short (a 5xx or no answer in its clean-up) may have left a record of a disclosure of
  // the run's own, which nothing else deletes. The sweep lists the user and deletes what it shows of the slots.
  await new Sequence(ground, quiet).cleanUp().catch(() => undefined);
  await t.parameter('explored', summaryLine(result));
  t.explored = {
    sequences: result.runs,
    requests: result.requests,
    reached: EXPLORABLE.filter((x) => result.transitions.has(x)),
    notReached: EXPLORABLE.filter((x) => !result.transitions.has(x)),
  };
  if (result.found) return confirm(t, ground, result);
  await keep(t, OPEN_ANSWERS, [...result.open.values()]);
  if (result.runs === 0) t.couldNotTest('no sequence ran within the time budget (--explore-time)');
  const passed = [...result.passed].filter(([id]) => EXPLORED_REQUIREMENTS.includes(id));
  if (passed.length === 0) t.couldNotTest(`the explored sequences gave no verdict (${summaryLine(result)})`);
  holdExplored(t, { declared: EXPLORED_REQUIREMENTS, runs: result.runs, graded: [...result.graded.values()], passed });
}

/** Exchanges the explorer sent with its own client, kept as this test's evidence under a step. */
async function keep(t: CaseContext, step: string, results: HttpResult[]): Promise<void> {
  await t.step(step, async () => {
    for (const r of results) {
      t.exchanges.push(r.exchange);
      await t.sink.exchange(r.exchange);
    }
  });
}

export function summaryLine(r: SearchResult): string {
  const inconclusive = r.inconclusive.length ? `, ${r.inconclusive.length} could not be judged` : '';
  return `${r.runs} sequence${r.runs === 1 ? '' : 's'}, ${r.requests} requests${inconclusive}`;
}

/**
 * Replay the shrunk sequence through the test (recorded: its exchanges are the evidence) and report what fails on
 * it. Where the replay passes, the target's answers depend on what ran before it (what an earlier sequence left, a
 * record the fault removed): the failure the rules reached while exploring is reported, with its own exchanges,
 * and says so (a verdict the rules reach on an exchange of the run reaches the summary).
 */
async function confirm(t: CaseContext, ground: Ground, result: SearchResult): Promise<void> {
  const found = result.found!;
  const replay = await t.step('replay of the shrunk sequence', () =>
    runSequence(ground, (o) => t.send(o), again(found.run), t.settings.strict, EXPLORED_REQUIREMENTS),
  );
  const mine = (run: SequenceRun) =>
    failing(run.verdicts, t.settings.strict).filter((r) => EXPLORED_REQUIREMENTS.includes(r.requirement));
  let failed = mine(replay);
  let text = evidence(t, found, replay, true);
  if (failed.length === 0) {
    await keep(t, 'the shrunk sequence as it first failed', found.run.seq.results);
    failed = mine(found.run);
    text = evidence(t, found, found.run, false);
  }
  holdExplored(t, {
    declared: EXPLORED_REQUIREMENTS,
    runs: result.runs,
    failed: { verdicts: failed, text },
    graded: [],
    passed: [],
  });
}

export default feature('disclosures', 'listUserDisclosures', [
  { title: EXPLORE_TITLE, requirements: EXPLORED_REQUIREMENTS, run: explore },
]);
