import type { CheckVerdict } from '../checks';
import type { Known, Seen, Verifier } from './exchange';
import { judgeExchange } from './judge';
import { judgeInstitutionOthers } from './institution-others';
import { judgeSequence } from './sequence-rules';

/** A verdict a rule reached, on the exchange that shows it (Seen.x.index). */
export interface Reached {
  requirement: string;
  verdict: CheckVerdict;
  index: number;
}

/**
 * Every verdict the rules reach on a log, none dropped: each of `own` held to its operation's exchange rules
 * (harness/rules/exchange-rules.ts), and the whole `log` (own and whatever else ran meanwhile) to the state
 * rules (sequence-rules.ts). What the explorer's property reads (suites/explore/): one judge, no second oracle.
 */
export function everyVerdict(own: readonly Seen[], log: readonly Seen[], known: Known = {}): Reached[] {
  const out: Reached[] = [];
  const at = (index: number): Verifier => ({
    verify(requirement: string, verdict: CheckVerdict): boolean {
      out.push({ requirement, verdict, index });
      return verdict.outcome !== 'failed';
    },
  });
  for (const s of own) judgeExchange(s, at(s.x.index));
  judgeSequence([...log], at, known);
  judgeInstitutionOthers(log, at, known);
  return out;
}
