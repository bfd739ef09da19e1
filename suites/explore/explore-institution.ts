import { feature, type CaseContext } from '../../harness/case';
import { EXPLORE_EMBEDDED, EXPLORE_MAX_COMMANDS } from '../../harness/explore-settings';
import { holdExplored } from '../../harness/explore-verdicts';
import { NotAllowedError } from '../../harness/http/client';
import type { Reached } from '../../harness/rules/judge-log';
import { evidence, seedOf } from './evidence';
import { againInstitution, runInstitutionSequence, searchInstitution, type InstitutionRun } from './institution-search';
import type { InstitutionGround } from './institution-sequence';
import { failing } from './search-common';
import { isEmbeddedTarget } from '../../harness/embedded-target';
import { RUN_LOG } from '../../harness/log/run-log';

/**
 * The model-based explorer of institution disclosures (operations 1–3; issue 33, docs/explorer.md): seeded sequences
 * of creates with each status, changes of the disclosures created to each status with a new name or the same one
 * (the third and fourth change of one disclosure too) and changes by ids never issued near the real ones, every
 * write read back by operation 1's list and the log held to the state rules. A failing sequence is shrunk, replayed
 * through this test and reported with its steps, seed, replay path and curl lines. Disclosures cannot be deleted
 * through the interface: only the embedded reference target gets them; every one created is listed in the run's
 * "created, cannot be removed" block.
 */

export const EXPLORED_INSTITUTION_REQUIREMENTS = [
  'STATE-ID-CREATE',
  'STATE-ID-CHANGE',
  'STATE-ID-CHANGE-ONLY-NAMED',
  'RES-DISCLOSURE-ID-UNIQUE',
  // The lists that read the writes back show what the run wrote: held to the list's rules too.
  'RES-DISCLOSURE-FIELD-TYPES',
  'RES-DISCLOSURE-DATA-URL',
];

const mine = (v: Reached[]) => v.filter((r) => EXPLORED_INSTITUTION_REQUIREMENTS.includes(r.requirement));

export const EXPLORE_INSTITUTION_TITLE = 'explored sequences of institution disclosures hold every rule (model-based)';

async function explore(t: CaseContext): Promise<void> {
  const budget = t.settings.explore ?? EXPLORE_EMBEDDED;
  if (budget.count === 0 && budget.institution === undefined) t.notApplicable('exploration is off (--explore 0)');
  const url = '{baseUrl}/db-disclosures/v1/institution-disclosures';
  if (!t.config.allow.institutionDisclosureWrites)
    throw new NotAllowedError('institutionDisclosureWrites', 'POST', url);
  const embedded = isEmbeddedTarget(t.config);
  const count = budget.institution ?? (embedded ? budget.count : 0);
  if (count === 0)
    t.notApplicable(
      embedded
        ? 'exploration of institution disclosures is off (--explore-institution 0)'
        : 'institution disclosures cannot be deleted through the interface: the explorer creates them on a ' +
            'configured target only with --explore-institution N (and allow.institutionDisclosureWrites on)',
    );
  const ground: InstitutionGround = { t, deadline: Date.now() + budget.seconds * 1000 };
  const quiet = (o: Parameters<typeof t.send>[0]) => t.client.send(o, {}, t.signal);
  let result: Awaited<ReturnType<typeof searchInstitution>> | undefined;
  try {
    result = await searchInstitution(ground, quiet, {
      count,
      deadline: ground.deadline,
      seed: seedOf(t, 'institution-disclosures'),
      strict: t.settings.strict,
      maxCommands: EXPLORE_MAX_COMMANDS,
      declared: EXPLORED_INSTITUTION_REQUIREMENTS,
    });
  } finally {
    // What it created stays on the target: its creates are this test's exchanges (the run lists them).
    if (result) await keepCreated(t, [...result.created, ...renames(t, result.created)]);
  }
  const summary = `${result.runs} sequence${result.runs === 1 ? '' : 's'}, ${result.requests} requests`;
  await t.parameter('explored', summary);
  await t.parameter('transitions', [...result.transitions].sort().join('; '));
  if (result.found) return confirm(t, ground, result.found);
  await t.step('the explorer: the first answer of each status to a change by an id never issued', async () => {
    for (const r of result.open.values()) {
      t.exchanges.push(r.exchange);
      await t.sink.exchange(r.exchange);
    }
  });
  if (result.runs > 0 && result.lists === 0)
    t.notApplicable(
      'no list of institution disclosures was served: nothing can be read back (reported by OP1-REQUEST)',
    );
  if (result.runs === 0) t.couldNotTest('no sequence ran within the time budget (--explore-time)');
  if (result.inconclusive.length) t.couldNotTest(`an explored sequence could not be judged: ${result.inconclusive[0]}`);
  const passed = [...result.passed].filter(([id]) => EXPLORED_INSTITUTION_REQUIREMENTS.includes(id));
  if (passed.length === 0) t.couldNotTest(`the explored sequences gave no verdict (${summary})`);
  holdExplored(t, {
    declared: EXPLORED_INSTITUTION_REQUIREMENTS,
    runs: result.runs,
    graded: [...result.graded.values()],
    passed,
  });
}

/**
 * The changes of what it created, from the run's log (the explorer sends quietly): the run lists each disclosure by the
 * name its last change gave it (harness/run/unremovable.ts), as a person looks for it (session 41's hold-out, H32).
 */
function renames(t: CaseContext, created: Array<{ exchange: CaseContext['exchanges'][number] }>) {
  const ids = new Set(
    created.map((r) => /"institutionDisclosureId"\s*:\s*"([^"]+)"/.exec(r.exchange.response?.body ?? '')?.[1]),
  );
  return t.run
    .get(RUN_LOG)
    .withUnanswered()
    .filter((s) => s.mapped.operation === 'changeInstitutionDisclosure')
    .filter((s) => ids.has(s.mapped.pathParams.institutionDisclosureId))
    .map((s) => s.res);
}

async function keepCreated(t: CaseContext, created: Array<{ exchange: CaseContext['exchanges'][number] }>) {
  if (created.length === 0) return;
  await t.step('the explorer: the disclosures it created (cannot be removed through the interface)', async () => {
    for (const r of created) {
      t.exchanges.push(r.exchange);
      await t.sink.exchange(r.exchange);
    }
  });
}

/** Replay the shrunk sequence through the test (recorded) and report what fails on it. */
async function confirm(
  t: CaseContext,
  ground: InstitutionGround,
  found: NonNullable<Awaited<ReturnType<typeof searchInstitution>>['found']>,
): Promise<void> {
  const replay = await t.step('replay of the shrunk sequence', () =>
    runInstitutionSequence(
      { ...ground, deadline: Date.now() + 60_000 },
      (o) => t.send(o),
      againInstitution(found.run),
      t.settings.strict,
      mine,
    ),
  );
  const declared = (run: InstitutionRun) => mine(failing(run.verdicts, t.settings.strict));
  let failed = declared(replay);
  let text = evidence(t, found, replay, true, 'disclosures');
  if (failed.length === 0) {
    failed = declared(found.run);
    text = evidence(t, found, found.run, false, 'disclosures');
  }
  holdExplored(t, {
    declared: EXPLORED_INSTITUTION_REQUIREMENTS,
    runs: 0,
    failed: { verdicts: failed, text },
    graded: [],
    passed: [],
  });
}

export default feature('disclosures', 'changeInstitutionDisclosure', [
  { title: EXPLORE_INSTITUTION_TITLE, requirements: EXPLORED_INSTITUTION_REQUIREMENTS, run: explore },
]);
