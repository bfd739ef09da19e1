import fc from 'fast-check';
import { TransportError, type HttpResult } from '../../harness/http/client';
import type { Seen } from '../../harness/rules/exchange';
import { everyVerdict, type Reached } from '../../harness/rules/judge-log';
import { contactCommandArbitraries, contactTours, type ContactModel } from './contact-commands';
import { ContactSequence, type ContactGround, type Unconfirmed } from './contact-sequence';
import type { SearchOptions } from './search';
import { cloneCommands, counterexample, failing, keepGradedOnly, shrinkTour, tallyVerdicts } from './search-common';
import { StopSequence, type Sender } from './sequence';

/**
 * The explorer's search on contact data: as search.ts for the acceptance records (fast-check sequences, each from
 * the number found and back to it, the whole log held to the rules, a failure shrunk), with the customers held
 * exclusively by the case (no other test writes them meanwhile).
 */

type Cmd = fc.AsyncCommand<ContactModel, ContactSequence>;
type Commands = Iterable<Cmd>;

export interface ContactRun {
  seq: ContactSequence;
  commands: Commands;
  verdicts: Reached[];
  inconclusive?: string;
}

export interface ContactSearchResult {
  runs: number;
  requests: number;
  inconclusive: string[];
  graded: Map<string, Reached>;
  passed: Map<string, number>;
  /** The first answer of each status to an update whose outcome the spec leaves open (no country codes). */
  open: Map<string, HttpResult>;
  found?: { commands: string[]; seed: number; path: string; replay: string; run: ContactRun };
  /** A restore no update confirmed: the customers and every number the sequence may have left on record. */
  unconfirmed: Unconfirmed[];
}

/** Run `commands` once from the number found, set everything back, and hold the log to the rules. */
/** The search's options, and the requirements whose failure fails a sequence (the test's own). */
export interface ContactSearchOptions extends SearchOptions {
  declared: readonly string[];
}

export async function runContactSequence(
  ground: ContactGround,
  send: Sender,
  commands: Commands,
  strict: boolean,
  mine: (v: Reached[]) => Reached[],
): Promise<ContactRun> {
  let judged = 0;
  const fails = (log: readonly Seen[]): boolean => {
    const failed = mine(failing(everyVerdict(log.slice(judged), log), strict)).length > 0;
    judged = log.length;
    return failed;
  };
  const seq = new ContactSequence(ground, send, fails);
  const run: ContactRun = { seq, commands, verdicts: [] };
  try {
    let began = false;
    try {
      began = await seq.begin();
      if (began) await fc.asyncModelRun(() => ({ model: { seq }, real: seq }), commands);
    } catch (e) {
      if (!(e instanceof StopSequence)) throw e;
      began = true;
    } finally {
      if (began) await seq.cleanUp();
    }
    if (!began) run.inconclusive = 'the number found was not accepted as oldPhoneNumber at the start';
    else if (seq.unsteady) run.inconclusive = `the target ${seq.unsteady}: what happened is unknown`;
  } catch (e) {
    if (!(e instanceof TransportError)) throw e;
    run.inconclusive = `no answer: ${e.message}`;
    return run;
  }
  run.verdicts = everyVerdict(seq.log, seq.log);
  return run;
}

export async function searchContact(
  ground: ContactGround,
  send: Sender,
  o: ContactSearchOptions,
): Promise<ContactSearchResult> {
  const mine = (v: Reached[]) => v.filter((r) => o.declared.includes(r.requirement));
  const result: ContactSearchResult = {
    runs: 0,
    requests: 0,
    inconclusive: [],
    graded: new Map(),
    passed: new Map(),
    open: new Map(),
    unconfirmed: [],
  };
  let last: { run: ContactRun; commands: string } | undefined;
  let error: unknown;
  /** Once a restore is not confirmed (or a sequence could not start), no further sequence runs. */
  let stopped = false;
  const property = fc.asyncProperty(
    fc.commands(contactCommandArbitraries(ground.customers.length), { maxCommands: o.maxCommands, size: 'max' }),
    async (commands) => {
      if (error !== undefined || stopped || Date.now() > o.deadline) return true;
      let run: ContactRun;
      try {
        run = await runContactSequence(ground, send, commands, o.strict, mine);
      } catch (e) {
        error = e;
        return true;
      }
      result.runs++;
      result.requests += run.seq.results.length;
      for (const r of run.seq.openAnswers) {
        const key = `${r.exchange.operation} ${r.status}`;
        if (!result.open.has(key)) result.open.set(key, r);
      }
      result.unconfirmed.push(...run.seq.unconfirmed);
      if (run.inconclusive || run.seq.unconfirmed.length) stopped = true;
      if (run.inconclusive) {
        result.inconclusive.push(run.inconclusive);
        return true;
      }
      tallyVerdicts(result, run.verdicts);
      const ok = mine(failing(run.verdicts, o.strict)).length === 0;
      if (!ok) last = { run, commands: String(commands) };
      return ok;
    },
  );
  // The tours first (contact-commands.ts), unless a replay path names one sequence.
  const tours = o.count > 0 ? contactTours(ground.customers.length) : [];
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
      const again = await runContactSequence(ground, send, fewer, o.strict, mine);
      return !again.inconclusive && mine(failing(again.verdicts, o.strict)).length ? again : undefined;
    };
    last = await shrinkTour(last.run.commands as Cmd[], last.run, rerun, o.deadline);
  }
  result.found = counterexample(details, last, o.seed);
  return result;
}

/** The same commands, to run again from the number found (fast-check's clone of a commands sequence). */
export const againContact = (run: ContactRun) => cloneCommands(run.commands);
