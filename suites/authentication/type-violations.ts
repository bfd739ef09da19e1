import { feature, type CaseDef } from '../../harness/case';
import { COVERAGE_CELL } from '../../harness/contract-coverage/files';
import {
  documentedType,
  memberAt,
  typeViolationCells,
  violatingTypeOf,
  violatingValue,
  withMember,
} from '../../harness/contract-coverage/generate';
import { decoy, ERROR_CHECKS, judgeRefusal, revoke } from './revoke-token';

/**
 * Operation 8, generated (issue 23): one case per member of the Token request body whose documented type
 * the contract-coverage model can violate ("400 The request does not match the requirements of the
 * specification": OP8-BODY-400, MUST). Each sends the decoy body of revoke-token.ts (a made-up
 * refresh_token and password, so a faulty target that serves it revokes nothing real) with the member's
 * value of another JSON type (seeded), behind allow.tokenRevocation as every revocation request is.
 */

/** Members covered by the hand-written case of revoke-token.ts (same violation, a stable title). */
const WRITTEN_BY_HAND = new Set(['grant_type']);

const cases: CaseDef[] = typeViolationCells('revokeToken')
  .filter((c) => !WRITTEN_BY_HAND.has(c.element))
  .map((cell) => {
    const type = documentedType(cell);
    const other = violatingTypeOf(type);
    return {
      title: `answers 400 with a documented error body when ${cell.element} is a ${other}, not a ${type}`,
      requirements: ['OP8-BODY-400', ...ERROR_CHECKS],
      async run(t) {
        const base = decoy(t);
        const value = violatingValue(type, memberAt(base, cell.element), t.faker);
        await t.parameter('mistyped member', `${cell.element}: a ${other} where a ${type} is documented`);
        await t.parameter(COVERAGE_CELL, cell.id);
        const body = withMember(base, cell.element, value);
        const res = await revoke(t, { body, label: `revoke with ${cell.element} a ${other}` });
        judgeRefusal(t, res, 'OP8-BODY-400');
      },
    };
  });

export default feature('authentication', 'revokeToken', cases);
