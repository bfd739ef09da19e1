import type { TargetConfig } from '../harness/config';
import type { Area, CaseReport } from '../harness/model';
import { exitCodeFor } from '../harness/run/results';
import { setupFindings, type SetupFinding } from '../harness/setup/diagnosis';
import { SetupProof } from '../harness/setup/proof';
import type { FixtureSetName } from '../reference-target/fixture-sets';
import { startFront, throughFront, type Front, type FrontRule } from './_front';
import { runAreas } from './_reference';

/**
 * One case of the hold-out set of the diagnosis (session 40; docs/diagnosis.md, "A hold-out set"): a mistake of an
 * operator (one configured value wrong) or a fault of a target that looks like one, made against the reference target
 * with a configuration or a front on 127.0.0.1 that makes it an independent target (_front.ts), with the verdict and
 * the keys a careful engineer expects. Written from the spec and the configuration's documentation alone.
 */
export interface HoldoutRow {
  /** O1…: an operator's mistake; F1…: a target's fault; X1…: one the exchanges cannot separate. */
  id: string;
  name: string;
  areas: Area[];
  fixtures?: FixtureSetName;
  configure?: (c: TargetConfig) => TargetConfig;
  /** A front made for this run (it may keep what it served). */
  front?: () => FrontRule;
  /** 1: the target failed; 3: could not test; 0: conformant (a target that takes the value as equal). */
  exit: 0 | 1 | 3;
  /** Requirements that must be failed. */
  failed?: string[];
  /**
   * Exactly the keys the DIAGNOSIS block names (each the start of one finding's key, as many findings as entries);
   * [] for none.
   */
  keys: string[];
  /** What the DIAGNOSIS block says (its findings' problem lines). */
  says?: RegExp;
  /** Keys (substrings) no finding may name. */
  notNamed?: string[];
  /** The `setup:` note a failure that stands carries (the configured values it rests on). */
  noted?: RegExp;
  /**
   * Left (docs/diagnosis.md): what a careful engineer expects that the suite does not reach yet, and why. The row
   * asserts what the suite says now, which names no wrong key.
   */
  left?: string;
}

export interface HoldoutOutcome {
  exit: number;
  failed: string[];
  keys: string[];
  cases: CaseReport[];
  findings: SetupFinding[];
}

export async function runHoldoutRow(r: HoldoutRow): Promise<HoldoutOutcome> {
  let front: Front | undefined;
  try {
    const { cases, failed } = await runAreas({
      areas: r.areas,
      fixtures: r.fixtures,
      configure: async (c) => {
        const cfg = r.configure ? r.configure(c) : c;
        if (!r.front) return cfg;
        front = await startFront(cfg.baseUrl, r.front());
        return throughFront(cfg, front);
      },
    });
    const findings = setupFindings(cases, new SetupProof(cases));
    return { exit: exitCodeFor(cases), failed: [...failed].sort(), keys: findings.map((f) => f.key), cases, findings };
  } finally {
    await front?.close();
  }
}

/** Whether the keys named are exactly the expected ones: each expected key starts exactly one finding's key. */
export function sameKeys(named: readonly string[], expected: readonly string[]): boolean {
  if (named.length !== expected.length) return false;
  const left = [...named];
  for (const k of expected) {
    const i = left.findIndex((n) => n.startsWith(k));
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

/** One line per row for the before/after table: what the run said. */
export function outcomeLine(r: HoldoutRow, o: HoldoutOutcome): string {
  const keys = o.keys.map((k) => k.split(' (')[0]).join('; ') || '-';
  const right = o.exit === r.exit && sameKeys(o.keys, r.keys) && (r.failed ?? []).every((f) => o.failed.includes(f));
  const verdict = right ? (r.left ? 'left' : 'right') : 'WRONG';
  return `| ${r.id} | exit ${o.exit} | ${o.failed.join(', ') || '-'} | ${keys} | ${verdict} |`;
}
