import fc from 'fast-check';
import { disclosureNamePrefix } from '../../data-builders/disclosures';
import { TransportError } from '../../harness/http/client';
import type { Seen } from '../../harness/rules/exchange';
import { everyVerdict, type Reached } from '../../harness/rules/judge-log';
import { institutionCommandArbitraries, institutionTours, type InstitutionModel } from './institution-commands';
import { InstitutionSequence, type InstitutionGround } from './institution-sequence';
import type { SearchOptions } from './search';
import { cloneCommands, counterexample, failing, keepGradedOnly, shrinkTour, tallyVerdicts } from './search-common';
import { StopSequence, Unsteady, type Sender } from './sequence';

/**
 * The explorer's search on institution disclosures: as search.ts (fast-check sequences, tours first, the log held
 * to the rules, a failure shrunk), with nothing to clean up (no delete operation: only the embedded target gets
 * them by default). A failing tour is shrunk a command at a time (fast-check shrinks only what it generated).
 */

type Cmd = fc.AsyncCommand<InstitutionModel, InstitutionSequence>;
type Commands = Iterable<Cmd>;

export interface InstitutionRun {
  seq: InstitutionSequence;
  commands: Commands;
  verdicts: Reached[];
  inconclusive?: string;
}

export interface InstitutionSearchResult {
  runs: number;
  requests: number;
  inconclusive: string[];
  graded: Map<string, Reached>;
  passed: Map<string, number>;
  /** Every served create, of every sequence run (shrinking tries included): none can be removed. */
  created: InstitutionSequence['created'];
  /** The first answer of each status to each kind of open change (an id never issued, the empty name), by label. */
  open: Map<string, InstitutionSequence['results'][number]>;
  transitions: Set<string>;
  /** Lists served with an institutionDisclosures array (none: the sequences could read nothing back). */
  lists: number;
  found?: { commands: string[]; seed: number; path: string; replay: string; run: InstitutionRun };
}

export interface InstitutionSearchOptions extends SearchOptions {
  declared: readonly string[];
}

export async function runInstitutionSequence(
  ground: InstitutionGround,
  send: Sender,
  commands: Commands,
  strict: boolean,
  mine: (v: Reached[]) => Reached[],
): Promise<InstitutionRun> {
  let judged = 0;
  // Other tests create and change disclosures of these names meanwhile: their writes are not in this log.
  const known = { runNamePrefix: disclosureNamePrefix(ground.t.settings.runId) };
  const fails = (log: readonly Seen[]): boolean => {
    const failed = mine(failing(everyVerdict(log.slice(judged), log, known), strict)).length > 0;
    judged = log.length;
    return failed;
  };
  const seq = new InstitutionSequence(ground, send, fails);
  const run: InstitutionRun = { seq, commands, verdicts: [] };
  try {
    await fc.asyncModelRun(() => ({ model: { seq }, real: seq }), commands);
  } catch (e) {
    if (e instanceof TransportError) run.inconclusive = `no answer: ${e.message}`;
    else if (e instanceof Unsteady) run.inconclusive = `the target ${e.message}: what happened is unknown`;
    else if (!(e instanceof StopSequence)) throw e;
  }
  if (!run.inconclusive) run.verdicts = everyVerdict(seq.log, seq.log, known);
  return run;
}

export async function searchInstitution(
  ground: InstitutionGround,
  send: Sender,
  o: InstitutionSearchOptions,
): Promise<InstitutionSearchResult> {
  const mine = (v: Reached[]) => v.filter((r) => o.declared.includes(r.requirement));
  const result: InstitutionSearchResult = {
    runs: 0,
    requests: 0,
    inconclusive: [],
    graded: new Map(),
    passed: new Map(),
    created: [],
    open: new Map(),
    transitions: new Set(),
    lists: 0,
  };
  const tally = (run: InstitutionRun) => {
    result.runs++;
    result.requests += run.seq.results.length;
    result.lists += run.seq.state.listsSeen();
    result.created.push(...run.seq.created);
    for (const r of run.seq.openAnswers) {
      const key = `${r.status} ${r.exchange.label ?? ''}`;
      if (!result.open.has(key)) result.open.set(key, r);
    }
    for (const t of run.seq.transitions) result.transitions.add(t);
  };
  let last: { run: InstitutionRun; commands: string } | undefined;
  let error: unknown;
  let stopped = false;
  const tours = institutionTours();
  const property = fc.asyncProperty(
    fc.commands(institutionCommandArbitraries(), { maxCommands: o.maxCommands, size: 'max' }),
    async (commands) => {
      if (error !== undefined || stopped || Date.now() > o.deadline) return true;
      let run: InstitutionRun;
      try {
        run = await runInstitutionSequence({ ...ground, deadline: o.deadline }, send, commands, o.strict, mine);
      } catch (e) {
        error = e;
        return true;
      }
      tally(run);
      if (run.inconclusive) {
        stopped = true;
        result.inconclusive.push(run.inconclusive);
        return true;
      }
      tallyVerdicts(result, run.verdicts);
      const ok = mine(failing(run.verdicts, o.strict)).length === 0;
      if (!ok) last = { run, commands: String(commands) };
      return ok;
    },
  );
  const details = await fc.check(property, {
    seed: o.seed,
    numRuns: o.count + (o.path ? 0 : tours.length),
    ...(o.path ? { path: o.path } : { examples: tours.map((e) => [e] as [never]) }),
  });
  if (error !== undefined) throw error;
  keepGradedOnly(result, o.strict);
  if (details.failed && last && Array.isArray(last.run.commands) && tours.includes(last.run.commands)) {
    // A tour failed: shrunk a command at a time (search-common.ts).
    const rerun = async (fewer: Cmd[]) => {
      const again = await runInstitutionSequence({ ...ground, deadline: o.deadline }, send, fewer, o.strict, mine);
      tally(again);
      return !again.inconclusive && mine(failing(again.verdicts, o.strict)).length ? again : undefined;
    };
    last = await shrinkTour(last.run.commands as Cmd[], last.run, rerun, o.deadline);
  }
  result.found = counterexample(details, last, o.seed);
  return result;
}

/** The same commands, to run again (fast-check's clone of a commands sequence; a tour is an array). */
export const againInstitution = (run: InstitutionRun) => cloneCommands(run.commands);
