/** How a failed check of a requirement counts: MUST fails the run; SHOULD and INFO fail it under --strict. */
export type Grade = 'MUST' | 'SHOULD' | 'INFO';

/**
 * One testable (or deliberately untestable) statement of the spec, in the manner of test262's
 * spec anchors: a stable id, the section it comes from, the statement, its grade.
 */
export interface Requirement {
  /** Stable id: AREA-TOPIC-DETAIL in capitals, e.g. OP1-RESPONSE-ENVELOPE. Never reuse a retired id. */
  id: string;
  /** The spec heading the statement is under, exactly as written (the anchor is derived from it). */
  section: string;
  /** The statement, quoted from the spec where it can be, else a faithful paraphrase. */
  statement: string;
  /** MUST: the spec states it. SHOULD: a sound expectation the spec does not state. INFO: an observation. */
  grade: Grade;
  /** Numbers of the spec operations it concerns (empty when it concerns none in particular). */
  operations: number[];
  /** Set for statements the spec leaves "not shown": listed so the evidence shows they were considered. */
  notTestable?: string;
  /**
   * Set for statements about the client's side, judged only in recorded traffic (--traffic): no active
   * test declares them (the suite is the client there), and an active run reports them "not run".
   */
  judgedInTraffic?: string;
}
