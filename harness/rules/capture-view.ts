import type { CheckVerdict } from '../checks';
import type { CaptureView } from '../model';
import type { Authority, Known, Seen, Verifier } from './exchange';
import { judgeExchange, judgeLog } from './judge';

/** What an active run knows the request carried (Seen.authority), which a capture cannot tell. */
const CARRIED: Record<Authority, string> = {
  configured: "the operator's credentials as configured",
  'made-up': 'credentials the suite made up',
  unauthorized: "the operator's valid token that lacks authorization (transfersForbiddenToken)",
  none: 'no credentials at all (a capture may have dropped them)',
};

/** What an active case held to the rules: one exchange (t.judge) or a log (t.judgeLog), and what the run knew. */
export interface Judged {
  log: Seen[];
  single: boolean;
  known?: Known;
  /** A case's window of the run's log (judgeLog): the exchanges it drove, whose verdicts are its own. */
  drove?: ReadonlySet<number>;
}

/**
 * What a capture of the same exchanges does not show of what an active run knows beyond the exchanges
 * themselves; everything else a rule reads, a capture holds too. `strip` takes it away, `why` says it.
 */
const UNKNOWN_TO_A_CAPTURE = {
  /** Whose credentials a request carried (Seen.authority): the operator's as configured, or made up by the suite. */
  credentials: {
    applies: (j: Judged) => j.log.some((s) => s.authority !== undefined),
    strip: (j: Judged): Judged => ({ ...j, log: j.log.map(({ authority: _known, ...captured }) => captured) }),
    why: (j: Judged) =>
      'cannot tell that the request carried ' +
      [...new Set(j.log.map((s) => s.authority).filter((a) => a !== undefined))].map((a) => CARRIED[a]).join(' or '),
  },
  /** An exchange at a path other than the documented one: a capture maps exchanges by the documented paths. */
  paths: {
    applies: (j: Judged) => j.log.some((s) => s.undocumentedPath),
    strip: (j: Judged): Judged => ({ ...j, log: j.log.filter((s) => !s.undocumentedPath) }),
    why: () => 'maps no exchange sent at a path other than the documented one to the operation',
  },
  /** The state before the log begins, as the run's configuration gives it (Known). */
  configuration: {
    applies: (j: Judged) => Object.keys(j.known?.phonesOnRecord ?? {}).length > 0,
    strip: ({ known: _known, ...j }: Judged): Judged => j,
    why: (j: Judged) =>
      'knows nothing of the state before it begins (' +
      Object.values(j.known?.phonesOnRecord ?? {})
        .map((p) => `the number on record ${p.from}`)
        .join(', ') +
      ')',
  },
};

/** The log as a capture holds it. */
export function asCaptured(j: Judged): Judged {
  return Object.values(UNKNOWN_TO_A_CAPTURE).reduce((at, k) => k.strip(at), j);
}

/** The verdicts the rules give `requirement` on what was judged. */
function verdictsOn({ log, single, known, drove }: Judged, requirement: string): CheckVerdict[] {
  const verdicts: CheckVerdict[] = [];
  const collect: Verifier = {
    verify(_requirement: string, v: CheckVerdict): boolean {
      verdicts.push(v);
      return v.outcome !== 'failed';
    },
  };
  if (!single) judgeLog(log, collect, [requirement], known, drove);
  else if (log[0]) judgeExchange(log[0], collect, [requirement]);
  return verdicts;
}

const fails = (verdicts: CheckVerdict[]) => verdicts.some((v) => v.outcome === 'failed');

/**
 * Judge `judged` (one exchange, or a log) once more as a capture shows it, for `requirement` alone:
 * the rules are the same, only what the run knew beyond the exchanges is gone. Derives, from the
 * rules, which of an active run's failures a recorded capture of the same traffic can show, and where
 * it cannot, which knowledge the failure rests on.
 */
export function captureView(judged: Judged, requirement: string): CaptureView {
  const captured = verdictsOn(asCaptured(judged), requirement);
  if (fails(captured)) return { fails: true };
  const kinds = Object.values(UNKNOWN_TO_A_CAPTURE).filter((k) => k.applies(judged));
  const decisive = kinds.filter((k) => !fails(verdictsOn(k.strip(judged), requirement)));
  const unknown = (decisive.length ? decisive : kinds).map((k) => k.why(judged));
  const verdict = captured.length ? 'the rule passes it' : 'the rule gives no verdict on it';
  return {
    fails: false,
    why: unknown.length
      ? `${verdict} in a capture, which ${unknown.join(', and ')}`
      : `${verdict} in a capture of the same exchanges`,
  };
}
