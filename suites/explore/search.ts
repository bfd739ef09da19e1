import fc from 'fast-check';
import { cloneCommands, counterexample, failing, keepGradedOnly, shrinkTour, tallyVerdicts } from './search-common';
import type { HttpResult } from '../../harness/http/client';
import { TransportError } from '../../harness/http/client';
import type { Seen } from '../../harness/rules/exchange';
import { everyVerdict, type Reached } from '../../harness/rules/judge-log';
import { writesMeanwhile } from '../disclosures/_case-records';
import { commandArbitraries, type Model } from './commands';
import { Sequence, StopSequence, Unsteady, type Ground, type Sender } from './sequence';

/**
 * The explorer's search: fast-check generates sequences of commands (commands.ts), each runs against the target
 * from a clean state and ends with its clean-up (sequence.ts), and the property holds the whole log to the rules
 * (harness/rules/judge-log.ts). A failing sequence is shrunk by fast-check (every try is a real run); its seed and
 * replay path reproduce it.
 */

export interface SearchOptions {
  /** Sequences to try (fast-check's numRuns). */
  count: number;
  /** No new sequence (nor shrinking try) starts after this (epoch ms). */
  deadline: number;
  seed: number;
  strict: boolean;
  /** Commands per sequence, at most. */
  maxCommands: number;
  /** Sequences run first, before the `count` random ones (tours.ts). */
  examples?: Iterable<fc.AsyncCommand<Model, Sequence>>[];
  /** fast-check's replay path (with the seed): runs that counterexample only. */
  path?: string;
  /**
   * The requirements a failure of a sequence is counted on (the test's): a verdict on another (OP4-OTHER-CONSUMER of a
   * list of another consumer) is left to the run's log, which judges every exchange of the run.
   */
  declared?: readonly string[];
}

/** The failures of `verdicts` on `declared` (all of them where none is given). */
const failingOn = (verdicts: Reached[], strict: boolean, declared?: readonly string[]) =>
  failing(verdicts, strict).filter((r) => declared === undefined || declared.includes(r.requirement));

/** What one run of a sequence gave: the verdicts, or why it could not be judged. */
export interface SequenceRun {
  seq: Sequence;
  /** The commands it ran (fast-check's; a clone runs them again). */
  commands: Iterable<fc.AsyncCommand<Model, Sequence>>;
  verdicts: Reached[];
  /** It could not be judged (no answer, a write of another test meanwhile without one). */
  inconclusive?: string;
}

export interface SearchResult {
  /** Sequences run (shrinking tries included). */
  runs: number;
  requests: number;
  /** Sequences that could not be judged, with why. */
  inconclusive: string[];
  /** A failure under SHOULD or INFO without --strict, per requirement (the first seen). */
  graded: Map<string, Reached>;
  /** Requirements that got a passing verdict, and how many. */
  passed: Map<string, number>;
  /** The first answer of each operation and status to a write of a record the log did not show (the spec leaves it
   * open): the choices the target made, as evidence. */
  open: Map<string, HttpResult>;
  /** The transitions the sequences took (transitions.ts). */
  transitions: Set<string>;
  found?: { commands: string[]; seed: number; path: string; replay: string; run: SequenceRun };
  /** fast-check stopped for another reason (a suite error): its message. */
  error?: string;
}

const toSeen = (r: HttpResult): Seen | undefined => (r.logged ? { ...r.logged, keepsAuthorization: true } : undefined);

/** Run `commands` once from a clean state, clean up, and hold the log to the rules. */
export async function runSequence(
  ground: Ground,
  send: Sender,
  commands: Iterable<fc.AsyncCommand<Model, Sequence>>,
  strict: boolean,
  declared?: readonly string[],
): Promise<SequenceRun> {
  // Each read-back: the exchanges not yet held to their exchange rules, and the log so far to the state rules.
  let judged = 0;
  const fails = (log: readonly Seen[]): boolean => {
    const failed = failingOn(everyVerdict(log.slice(judged), log), strict, declared).length > 0;
    judged = log.length;
    return failed;
  };
  const seq = new Sequence(ground, send, fails);
  const run: SequenceRun = { seq, commands, verdicts: [] };
  try {
    try {
      await seq.list('start');
      await fc.asyncModelRun(() => ({ model: { seq }, real: seq }), commands);
    } catch (e) {
      if (!(e instanceof StopSequence)) throw e;
    } finally {
      await seq.cleanUp();
    }
  } catch (e) {
    if (!(e instanceof TransportError || e instanceof Unsteady)) throw e;
    run.inconclusive = e instanceof Unsteady ? e.message : `no answer: ${e.message}`;
    return run;
  }
  const own = seq.log;
  const meanwhile = await writesMeanwhile(ground.t, seq.results[0]!, seq.results.at(-1)!, seq.results);
  if (!meanwhile) {
    run.inconclusive = 'a write of another test that ran meanwhile got no answer';
    return run;
  }
  const others = meanwhile.map(toSeen).filter((s): s is Seen => s !== undefined);
  run.verdicts = everyVerdict(own, [...own, ...others]);
  return run;
}

export async function search(ground: Ground, send: Sender, o: SearchOptions): Promise<SearchResult> {
  const result: SearchResult = {
    runs: 0,
    requests: 0,
    inconclusive: [],
    graded: new Map(),
    passed: new Map(),
    open: new Map(),
    transitions: new Set(),
  };
  let last: { run: SequenceRun; commands: string } | undefined;
  let error: unknown;
  const property = fc.asyncProperty(
    fc.commands(commandArbitraries(ground.slots.length), { maxCommands: o.maxCommands, size: 'max' }),
    async (commands) => {
      // After a sequence that could not be judged (no answer, 429, 5xx), no other starts.
      if (error !== undefined || result.inconclusive.length || Date.now() > o.deadline) return true;
      let run: SequenceRun;
      try {
        run = await runSequence(ground, send, commands, o.strict, o.declared);
      } catch (e) {
        error = e;
        return true;
      }
      result.runs++;
      result.requests += run.seq.results.length;
      for (const x of run.seq.transitions) result.transitions.add(x);
      for (const r of run.seq.openAnswers) {
        const key = `${r.exchange.operation} ${r.status}`;
        if (!result.open.has(key)) result.open.set(key, r);
      }
      if (run.inconclusive) result.inconclusive.push(run.inconclusive);
      tallyVerdicts(result, run.verdicts);
      const ok = failingOn(run.verdicts, o.strict, o.declared).length === 0;
      // fast-check shrinks by trying smaller sequences: the last one that failed is the counterexample it reports.
      if (!ok) last = { run, commands: String(commands) };
      return ok;
    },
  );
  const details = await fc.check(property, {
    seed: o.seed,
    numRuns: o.count + (o.path ? 0 : (o.examples?.length ?? 0)),
    ...(o.examples && !o.path ? { examples: o.examples.map((e) => [e] as [never]) } : {}),
    ...(o.path ? { path: o.path } : {}),
  });
  if (error !== undefined) throw error;
  keepGradedOnly(result, o.strict);
  if (details.failed && last && Array.isArray(last.run.commands) && o.examples?.includes(last.run.commands)) {
    // A tour failed (tours.ts): shrunk a command at a time (search-common.ts).
    const rerun = async (fewer: fc.AsyncCommand<Model, Sequence>[]) => {
      const again = await runSequence(ground, send, fewer, o.strict, o.declared);
      result.runs++;
      result.requests += again.seq.results.length;
      return !again.inconclusive && failingOn(again.verdicts, o.strict, o.declared).length ? again : undefined;
    };
    last = await shrinkTour(last.run.commands as fc.AsyncCommand<Model, Sequence>[], last.run, rerun, o.deadline);
  }
  result.found = counterexample(details, last, o.seed);
  return result;
}

/** The same commands, to run again from a clean state (fast-check's clone of a commands sequence). */
export const again = (run: SequenceRun) => cloneCommands(run.commands);
