import type { Area } from '../../harness/model';

/** A named fault: the reference target breaks exactly one rule, for the self-tests to prove a check can fail. */
export interface FaultDef {
  name: string;
  area: Area;
  description: string;
  /** The catalog requirement(s) this fault breaks: the run must report them failed. */
  breaks: string[];
  /** Other requirements that may fail as a direct consequence (declared, so nothing else may). */
  collateral?: string[];
  /** The rule is SHOULD or INFO: it is caught only under --strict. */
  strict?: boolean;
  /**
   * Not a fault: a legitimate choice the spec leaves open (e.g. a list without an optional id).
   * It breaks nothing, and the self-tests prove that the suite fails nothing on it.
   */
  variant?: boolean;
}

/** The constructor every area's fault list uses: faultsOf('disclosures')(name, description, breaks, extra). */
export function faultsOf(area: Area) {
  return (name: string, description: string, breaks: string[], extra: Partial<FaultDef> = {}): FaultDef => ({
    name,
    area,
    description,
    breaks,
    ...extra,
  });
}
