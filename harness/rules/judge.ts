import type { CheckVerdict } from '../checks';
import type { Known, Seen, Verifier } from './exchange';
import { EXCHANGE_RULES } from './exchange-rules';
import { CHANGE_ONLY_NAMED, judgeInstitutionOthers } from './institution-others';
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
 * Hold `s` to its operation's rules. The verdicts on `only` go to `v` (every verdict when `only` is
 * omitted); a verdict on another requirement is not recorded, but a failed one is counted, since it
 * may be why a rule asked for judged nothing.
 */
export function judgeExchange(s: Seen, v: Verifier, only?: readonly string[]): ExchangeJudgement {
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
  EXCHANGE_RULES[s.mapped.operation](s, filtered);
  return { judged, failedElsewhere };
}

/**
 * The one judge of a log's state rules (sequence-rules.ts), whichever source logged it: the verdicts on
 * `only` go to `v`, whichever exchange of the log shows the evidence; `notes` say what the sequence
 * concluded where it could not judge (an unknown outcome, an overlapping write). `known`: what an active
 * run knows of the state before the log begins, from its configuration (a capture knows nothing).
 */
export function judgeLog(
  log: Seen[],
  v: Verifier,
  only: readonly string[],
  known: Known = {},
): ExchangeJudgement & { notes: string[] } {
  const judged = new Set<string>();
  const failedElsewhere: string[] = [];
  const filtered: Verifier = {
    verify(requirement: string, verdict: CheckVerdict): boolean {
      if (!only.includes(requirement)) {
        if (verdict.outcome === 'failed' && !failedElsewhere.includes(requirement)) failedElsewhere.push(requirement);
        return verdict.outcome !== 'failed';
      }
      judged.add(requirement);
      return v.verify(requirement, verdict);
    },
  };
  const { notes } = judgeSequence(log, () => filtered, known);
  if (only.includes(CHANGE_ONLY_NAMED)) judgeInstitutionOthers(log, () => filtered, known);
  return { judged, failedElsewhere, notes: [...notes.values()].flat() };
}
