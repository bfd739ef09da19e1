import type { CheckVerdict } from '../checks';

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
