import type { CheckVerdict } from '../checks';
import type { Seen } from '../log/entry';
import type { OperationKey } from '../operations';

/**
 * The log's entry as the rules read it lives below them, in harness/log/entry.ts (the client writes it, the
 * rules read it); re-exported here for the rules of this folder. What is the rules' own: the Verifier.
 */
export {
  credentialOf,
  header,
  type Authority,
  type Credential,
  type Known,
  type Logged,
  type Mapped,
  type Observed,
  type Seen,
  type Sent,
} from '../log/entry';

/** What a judge collects: the requirement and the check's verdict, in order. Graded later by the catalog. */
export interface Verifier {
  verify(requirement: string, v: CheckVerdict): boolean;
}

/** The per-exchange rule of one operation. */
export type OperationRule = (s: Seen, v: Verifier) => void;
/** An area's rules, per operation (each area's file of harness/rules/ exports one). */
export type OperationRules = Partial<Record<OperationKey, OperationRule>>;
