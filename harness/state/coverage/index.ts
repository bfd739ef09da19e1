import type { Seen } from '../../rules/exchange';
import { contactInfoCoverage } from './contact-info';
import { institutionDisclosureCoverage } from './institution-disclosures';
import type { StateCoverage } from '../../contract-coverage/states';
import { userDisclosureCoverage } from './user-disclosures';

export {
  mergeStateCoverage,
  stateCoverageLine,
  type FamilyCoverage,
  type StateCoverage,
} from '../../contract-coverage/states';

/**
 * The state coverage of a log (either source's): per family, which transitions were taken and read back
 * (harness/contract-coverage/states.ts). Transfers and token revocations keep no state the interface reads back
 * (each answer is its own read-back, measured by the contract coverage).
 */
export function stateCoverage(log: readonly Seen[]): StateCoverage {
  return { families: [userDisclosureCoverage(log), institutionDisclosureCoverage(log), contactInfoCoverage(log)] };
}
