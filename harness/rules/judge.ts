import type { CheckVerdict } from '../checks';
import type { Known, Seen, Verifier } from './exchange';
import { EXCHANGE_RULES } from './exchange-rules';
import { judgeSequence } from './sequence-rules';

/**
 * The one judge of a single exchange: the rules of its operation (exchange-rules.ts), whichever source
 * logged it. An active case names the requirements it drove the exchange for; a capture takes them all.
 */

export interface ExchangeJudgement {
  /** The requirements asked for that the exchange gave a verdict on. */
  judged: Set<string>;
  /** Checks of other requirements that failed on the exchange (what stopped a rule before it got there). */
  failedElsewhere: string[];
}

/**
 * A verifier that passes the verdicts on `only` to `v` (every verdict when `only` is omitted) and counts a failed
 * one on another requirement, since it may be why a rule asked for judged nothing.
 */
function filtering(v: Verifier, only: readonly string[] | undefined): ExchangeJudgement & { filtered: Verifier } {
  const judged = new Set<string>();
  const failedElsewhere: string[] = [];
  const filtered: Verifier = {
    verify(requirement: string, verdict: CheckVerdict): boolean {
      if (only && !only.includes(requirement)) {
        if (verdict.outcome === 'failed' && !failedElsewhere.includes(requirement)) failedElsewhere.push(requirement);
        return verdict.outcome !== 'failed';
      }
      judged.add(requirement);
      return v.verify(requirement, verdict);
    },
  };
  return { judged, failedElsewhere, filtered };
}

/**
 * Hold `s` to its operation's rules. The verdicts on `only` go to `v` (every verdict when `only` is
 * omitted); a verdict on another requirement is not recorded, but a failed one is counted, since it
 * may be why a rule asked for judged nothing.
 */
export function judgeExchange(s: Seen, v: Verifier, only?: readonly string[]): ExchangeJudgement {
  const { judged, failedElsewhere, filtered } = filtering(v, only);
  EXCHANGE_RULES[s.mapped.operation](s, filtered);
  return { judged, failedElsewhere };
}

/**
 * The one judge of a log's state rules (sequence-rules.ts), whichever source logged it: the verdicts on
 * `only` go to `v`, whichever exchange of the log shows the evidence; `notes` say what the sequence
 * concluded where it could not judge (an unknown outcome, an overlapping write). `known`: what an active
 * run knows of the state before the log begins, from its configuration (a capture knows nothing).
 * `drove`: an active case's window of the run's log (window.ts) holds other cases' exchanges too. The verdicts
 * kept on a requirement are those whose evidence is one of the exchanges the case drove (by index); where there
 * is none, those the rules gave over the window (another case's list may be the first read to show the case's
 * write). Failures of other requirements count only on the case's own exchanges.
 */
export function judgeLog(
  log: Seen[],
  v: Verifier,
  only: readonly string[],
  known: Known = {},
  drove?: ReadonlySet<number>,
): ExchangeJudgement & { notes: string[] } {
  const { judged, failedElsewhere, filtered } = filtering(v, only);
  if (!drove) {
    const { notes } = judgeSequence(log, () => filtered, known);
    return { judged, failedElsewhere, notes: [...notes.values()].flat() };
  }
  const given: Array<{ requirement: string; verdict: CheckVerdict; own: boolean }> = [];
  const verifierFor = (index: number): Verifier => ({
    verify(requirement, verdict) {
      if (only.includes(requirement)) given.push({ requirement, verdict, own: drove.has(index) });
      else if (drove.has(index)) filtered.verify(requirement, verdict);
      return verdict.outcome !== 'failed';
    },
  });
  const { notes } = judgeSequence(log, verifierFor, known);
  const ownOn = new Set(given.filter((g) => g.own).map((g) => g.requirement));
  for (const g of given) if (g.own || !ownOn.has(g.requirement)) filtered.verify(g.requirement, g.verdict);
  return { judged, failedElsewhere, notes: [...notes.values()].flat() };
}
