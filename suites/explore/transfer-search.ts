import fc from 'fast-check';
import { TransportError, type HttpResult } from '../../harness/http/client';
import type { Seen } from '../../harness/rules/exchange';
import { everyVerdict, type Reached } from '../../harness/rules/judge-log';
import { transferCommandArbitraries, transferTours, type TransferModel } from './transfer-commands';
import { TransferSequence, type TransferGround } from './transfer-sequence';
import type { SearchOptions } from './search';
import { cloneCommands, counterexample, failing, keepGradedOnly, shrinkTour, tallyVerdicts } from './search-common';
import { StopSequence, type Sender } from './sequence';

/**
 * The explorer's search on transfers: as search.ts (fast-check sequences, the log held to the rules, a failure
 * shrunk), with nothing to clean up (a transfer has no documented undo: only the embedded target gets them).
 */

type Cmd = fc.AsyncCommand<TransferModel, TransferSequence>;
type Commands = Iterable<Cmd>;

export interface TransferRun {
  seq: TransferSequence;
  commands: Commands;
  verdicts: Reached[];
  inconclusive?: string;
}

export interface TransferSearchResult {
  runs: number;
  requests: number;
  inconclusive: string[];
  graded: Map<string, Reached>;
  passed: Map<string, number>;
  /**
   * The first answer of each status other than 2xx, per kind of request (which schedules, memos and bodies a target
   * takes is not shown), keyed "status kind".
   */
  open: Map<string, HttpResult>;
  found?: { commands: string[]; seed: number; path: string; replay: string; run: TransferRun };
}

/** The search's options, and the requirements whose failure fails a sequence (the test's own). */
export interface TransferSearchOptions extends SearchOptions {
  declared: readonly string[];
}

export async function runTransferSequence(
  ground: TransferGround,
  send: Sender,
  commands: Commands,
  strict: boolean,
  mine: (v: Reached[]) => Reached[],
): Promise<TransferRun> {
  let judged = 0;
  const fails = (log: readonly Seen[]): boolean => {
    const failed = mine(failing(everyVerdict(log.slice(judged), log), strict)).length > 0;
    judged = log.length;
    return failed;
  };
  const seq = new TransferSequence(ground, send, fails);
  const run: TransferRun = { seq, commands, verdicts: [] };
  try {
    await fc.asyncModelRun(() => ({ model: { seq }, real: seq }), commands);
  } catch (e) {
    if (e instanceof TransportError) run.inconclusive = `no answer: ${e.message}`;
    else if (!(e instanceof StopSequence)) throw e;
  }
  if (seq.unsteady) run.inconclusive = `the target ${seq.unsteady}: what happened is unknown`;
  if (!run.inconclusive) run.verdicts = everyVerdict(seq.log, seq.log);
  return run;
}

export async function searchTransfers(
  ground: TransferGround,
  send: Sender,
  o: TransferSearchOptions,
): Promise<TransferSearchResult> {
  const mine = (v: Reached[]) => v.filter((r) => o.declared.includes(r.requirement));
  const result: TransferSearchResult = {
    runs: 0,
    requests: 0,
    inconclusive: [],
    graded: new Map(),
    passed: new Map(),
    open: new Map(),
  };
  let last: { run: TransferRun; commands: string } | undefined;
  let error: unknown;
  let stopped = false;
  const { amount: configured, currencyCode } = ground.t.config.testData.transfer;
  const tours = transferTours(configured);
  const property = fc.asyncProperty(
    fc.commands(transferCommandArbitraries(configured, currencyCode), { maxCommands: o.maxCommands, size: 'max' }),
    async (commands) => {
      if (error !== undefined || stopped || Date.now() > o.deadline) return true;
      let run: TransferRun;
      try {
        run = await runTransferSequence(ground, send, commands, o.strict, mine);
      } catch (e) {
        error = e;
        return true;
      }
      result.runs++;
      result.requests += run.seq.results.length;
      for (const r of run.seq.refusals) {
        const key = `${r.status} ${(r.exchange.label ?? '').split(/ of | \(/)[0]}`;
        if (!result.open.has(key)) result.open.set(key, r);
      }
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
      const again = await runTransferSequence(ground, send, fewer, o.strict, mine);
      return !again.inconclusive && mine(failing(again.verdicts, o.strict)).length ? again : undefined;
    };
    last = await shrinkTour(last.run.commands as Cmd[], last.run, rerun, o.deadline);
  }
  result.found = counterexample(details, last, o.seed);
  return result;
}

/** The same commands, to run again (fast-check's clone of a commands sequence). */
export const againTransfers = (run: TransferRun) => cloneCommands(run.commands);
