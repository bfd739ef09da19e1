import type { CaseContext } from '../../harness/case';
import type { HttpResult, Seen } from '../../harness/log/entry';
import { RUN_LOG } from '../../harness/log/run-log';
import { judgeSequence } from '../../harness/rules/sequence-rules';

/**
 * Diagnosis by evidence (issue 31, docs/diagnosis.md): a refusal of a phone number is blamed on the operator's
 * configuration only where nothing proved the number on record. Where the run's log shows it on record (the proof
 * before the first write, or any accepted update naming it as oldPhoneNumber, then only accepted updates that kept
 * it) and the target then refuses it, the target changed it: the state rules (harness/rules/sequence/contact-info.ts)
 * fail the requirement the update that should have kept it breaks, on the exchanges that show it (proof, update,
 * refusal). A value proven earlier and refused later means the target changed.
 */
export interface TargetChanged {
  /** The requirements the state rules fail on the refusal. */
  requirements: string[];
  /** The customer's updates in the run's log up to the refusal, in the order sent: what shows it. */
  log: HttpResult[];
  /** What the rules say, one line. */
  why: string;
}

/**
 * The customer's updates at the documented path in the run's log, sent up to exchange `upTo`, those that got no
 * answer included (status 0: they may have landed, so the number is unknown after them until an update proves it).
 */
function customerLog(t: CaseContext, customerId: string, upTo: number): Seen[] {
  return t.run
    .get(RUN_LOG)
    .withUnanswered()
    .filter(
      (s) =>
        s.mapped.operation === 'updateContactInfo' &&
        s.mapped.pathParams.customerId === customerId &&
        !s.undocumentedPath &&
        s.x.index <= upTo,
    );
}

/**
 * Whether the run's log shows that the target changed the number `refusal` named as oldPhoneNumber: the state rules
 * fail a requirement on the refusal, judged over the customer's updates of the whole run (one without an answer may
 * have moved it: the rules then know no number until a later update proves one). Undefined where the log shows no
 * such thing.
 */
export function changedByTarget(t: CaseContext, customerId: string, refusal: HttpResult): TargetChanged | undefined {
  const at = refusal.logged?.x.index;
  if (at === undefined || refusal.status < 400 || refusal.status >= 500) return undefined;
  const seen = customerLog(t, customerId, at);
  const failed = new Map<string, string>();
  judgeSequence(seen, (index) => ({
    verify(requirement, v) {
      if (index === at && v.outcome === 'failed' && !failed.has(requirement))
        failed.set(requirement, `${v.description}${v.received ? `; received ${v.received}` : ''}`);
      return v.outcome !== 'failed';
    },
  }));
  if (failed.size === 0) return undefined;
  const why = [...failed].map(([id, text]) => `${id}: ${text}`).join('; ');
  // An entry without an answer is held as it is (status 0), so that the case's judgement knows it too.
  const log = seen.map(
    (s): HttpResult => (s.res.logged ? s.res : Object.defineProperty({ ...s.res }, 'logged', { value: s })),
  );
  return { requirements: [...failed.keys()], log, why };
}

/**
 * The target changed the number on record: the case holds the customer's log to the rules it declares (its
 * failure), else it gives no verdict of its own (not applicable, naming the requirement and the exchanges), and
 * never blames the configuration.
 */
export function heldAsChanged(t: CaseContext, changed: TargetChanged): never {
  // The exchanges that show it (the proof, the updates since, the refusal) are this case's evidence, whoever sent them.
  for (const r of changed.log) t.judged(r.exchange);
  const declared = changed.requirements.filter((r) => t.def.requirements.includes(r));
  if (declared.length) t.judgeLog(changed.log, ...declared);
  const seqs = changed.log.map((r) => `#${r.exchange.seq}`).join(', ');
  t.notApplicable(
    `the target changed the phone number on record, which the run had proven (exchanges ${seqs}): ` + changed.why,
  );
}
