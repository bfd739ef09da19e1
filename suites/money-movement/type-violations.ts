import { oneTimeTransfer, scheduledTransfer } from '../../data-builders/transfers';
import { feature, type CaseDef } from '../../harness/case';
import {
  documentedType,
  memberAt,
  typeViolationCells,
  violatingTypeOf,
  violatingValue,
  withMember,
} from '../../harness/contract-coverage/generate';
import { chosenByClient } from '../../harness/transfer-assigned';
import { invalidCase } from './create-transfer';

/**
 * Operation 9, generated (issue 23): one case per body member whose documented type the contract-coverage
 * model can violate, each a request a conformant target refuses, sent within the run's budget of transfers
 * accepted by mistake (suites/money-movement/_within-budget.ts). The body is the one-time transfer of
 * create-transfer.ts with the member's top-level object taken from the scheduled transfer that carries every
 * member, and the member's value of another JSON type (seeded).
 *
 * Grading: a member the client chooses (the values the Transfer answered repeats, harness/transfer-values.ts)
 * is OP9-BODY-TYPES (MUST: not served); a member the target assigns or computes itself (id, status, fee, …)
 * is OP9-BODY-TYPES-ASSIGNED (SHOULD): the spec does not say whether a target reads those members of a
 * request, so one that ignores them may serve. 400 is OP9-INVALID-ANSWERS-400 (SHOULD) either way.
 */

/** Members covered by the hand-written cases of create-transfer.ts (same violation, stable titles). */
const WRITTEN_BY_HAND = new Set(['amount.amount', 'toAccountId']);

const cells = typeViolationCells('createTransfer').filter((c) => !WRITTEN_BY_HAND.has(c.element));

const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');

const cases: CaseDef[] = cells.map((cell) => {
  const type = documentedType(cell);
  const other = violatingTypeOf(type);
  const rule = chosenByClient(cell.element) ? 'OP9-BODY-TYPES' : 'OP9-BODY-TYPES-ASSIGNED';
  const title =
    `refuses a body whose ${cell.element} is a ${other} where ${article(type)} ${type} is documented, ` +
    'with 400 and code and message';
  return invalidCase(title, rule, (t) => {
    const full = scheduledTransfer(t.faker, t.config, t.settings.runId);
    const top = cell.element.split('.')[0]!;
    const base = {
      ...oneTimeTransfer(t.faker, t.config, t.settings.runId),
      ...(top in full ? { [top]: full[top] } : {}),
    };
    const value = violatingValue(type, memberAt(base, cell.element), t.faker);
    const why = `${cell.element} ${JSON.stringify(value)}, a ${other} where ${article(type)} ${type} is documented`;
    return { body: withMember(base, cell.element, value), why, cell: cell.id };
  });
});

export default feature('money-movement', 'createTransfer', cases);
