import {
  oneTimeTransfer,
  scheduledTransfer,
  transferHeaders,
  type TransferCredentials,
} from '../../data-builders/transfers';
import { NEAR_VARIANTS, NEAR_VARIANT_WORDS, nearVariant } from '../../harness/credential-variants';
import type { CaseContext, CaseDef } from '../../harness/case';
import { feature } from '../../harness/case';
import type { HttpResult } from '../../harness/http/client';
import { SCHEDULE_MEMBERS, TRANSFER_MEMBERS } from '../../harness/transfer-members';
import { COVERAGE_CELL } from '../../harness/contract-coverage/files';
import { withinBudget } from './_within-budget';

/**
 * Operation 9: POST {transfersBaseUrl}/db-transfers/v1/transfers. Every request that can succeed moves
 * the configured amount (the smallest the target permits) between the configured accounts. The
 * interface has no operation to cancel a transfer, so nothing can be undone.
 */

/**
 * A request with the configured token relies on the configured accounts and amount being ones the
 * target accepts: a refusal while no transfer was ever served may be theirs (harness/setup/proof.ts).
 */
const TRANSFER_DATA = 'testData.transfer (fromAccountId, toAccountId, amount)';

/** A request built to be refused (`refusable`) is sent within the run's budget of transfers accepted by mistake. */
function create(
  t: CaseContext,
  body: unknown,
  label: string,
  o: { credentials?: TransferCredentials; omitTransactionId?: boolean; refusable?: boolean } = {},
): Promise<HttpResult> {
  const relies = (o.credentials ?? 'valid') === 'valid' ? [TRANSFER_DATA] : [];
  const bearerEnv = o.credentials === 'forbidden' ? 'DBSI_TRANSFERS_FORBIDDEN_TOKEN' : 'DBSI_TRANSFERS_TOKEN';
  const send = () =>
    t.send({
      operation: 'createTransfer',
      headers: transferHeaders(t.faker, t.config, o),
      body,
      label,
      bearerEnv,
      relies,
    });
  return o.refusable ? withinBudget(t, send) : send();
}

const SUCCESS = [
  'CONV-JSON-BODIES',
  'CONV-JSON-MEDIA-TYPE',
  'OP9-RESPONSE-TRANSFER',
  'OP9-RESPONSE-REFLECTS-REQUEST',
  'OP9-ENUM-VALUES',
];

const ERROR = ['CONV-JSON-BODIES', 'CONV-JSON-MEDIA-TYPE', 'OP9-ERROR-SHAPE'];

type Json = Record<string, any>;

function successCase(
  title: string,
  requestRule: 'OP9-REQUEST' | 'OP9-REQUEST-EVERY-MEMBER',
  build: (t: CaseContext) => Json,
): CaseDef {
  return {
    title,
    requirements: [requestRule, ...SUCCESS],
    async run(t) {
      const body = build(t);
      await t.parameter('amount', `${body.amount.amount} ${body.amount.currencyCode}`);
      if (requestRule === 'OP9-REQUEST-EVERY-MEMBER') {
        const unsent = [
          ...TRANSFER_MEMBERS.filter((m) => body[m] === undefined),
          ...SCHEDULE_MEMBERS.filter((m) => body.schedule?.[m] === undefined).map((m) => `schedule.${m}`),
        ];
        if (unsent.length)
          await t.parameter(
            'members not sent',
            `${unsent.join(', ')} (not configured: ` + `testData.transfer.fromAccountHolderId / toAccountHolderId)`,
          );
      }
      // harness/rules/transfers.ts holds the body to OP9-REQUEST-EVERY-MEMBER also without the account
      // holder ids (sent only where configured).
      t.judge(await create(t, body, title.split(':')[0]!), requestRule, ...SUCCESS);
    },
  };
}

/**
 * The documented status of an authentication or authorization failure (401 without a token or with one the
 * target never issued, 403 with the configured token that lacks authorization), then the code/message body.
 */
function authCase(title: string, credentials: TransferCredentials, requirementId: string): CaseDef {
  return {
    title,
    requirements: [requirementId, ...ERROR],
    async run(t) {
      if (credentials === 'forbidden' && !t.config.credentials.transfersForbiddenToken)
        t.notApplicable(
          'no valid-but-unauthorized token is configured ' +
            '(credentials.transfersForbiddenToken or DBSI_TRANSFERS_FORBIDDEN_TOKEN)',
        );
      const res = await create(
        t,
        oneTimeTransfer(t.faker, t.config, t.settings.runId),
        `create a transfer (${credentials} token)`,
        { credentials, refusable: true },
      );
      t.judge(res, requirementId, ...ERROR);
    },
  };
}

/**
 * A request that breaks a documented rule: not served (the grade of `requirementId`); 400 with code and
 * message (SHOULD). `cell` names the contract-coverage cell a generated case exercises.
 */
export function invalidCase(
  title: string,
  requirementId: string,
  build: (t: CaseContext) => { body: unknown; omitTransactionId?: boolean; why: string; cell?: string },
): CaseDef {
  return {
    title,
    requirements: [requirementId, 'OP9-INVALID-ANSWERS-400', ...ERROR],
    async run(t) {
      const { body, omitTransactionId, why, cell } = build(t);
      await t.parameter('broken rule', why);
      if (cell) await t.parameter(COVERAGE_CELL, cell);
      const res = await create(t, body, `create a transfer: ${why}`, { omitTransactionId, refusable: true });
      // The rule holds an answer other than the 400 expected to nothing more (its warning is reported once).
      t.judge(res, requirementId, 'OP9-INVALID-ANSWERS-400', ...(res.status === 400 ? ERROR : []));
    },
  };
}

const oneTime = (t: CaseContext) => oneTimeTransfer(t.faker, t.config, t.settings.runId);

export default feature('money-movement', 'createTransfer', [
  successCase(
    'creates a one-time transfer: 200 with a Transfer ' + 'object that reflects the request',
    'OP9-REQUEST',
    oneTime,
  ),
  successCase(
    'creates a scheduled transfer that carries every documented member: 200 with a ' +
      'Transfer object that reflects the request and its schedule',
    'OP9-REQUEST-EVERY-MEMBER',
    (t) => scheduledTransfer(t.faker, t.config, t.settings.runId),
  ),
  authCase('answers 401 with code and message without a token', 'none', 'OP9-AUTH-401'),
  authCase('answers 401 with code and message with an invalid token', 'invalid', 'OP9-AUTH-401'),
  // One test per near variant of the configured token (harness/credential-variants.ts), one request each.
  ...NEAR_VARIANTS.map(
    (kind): CaseDef => ({
      title: `answers 401 with code and message to ${NEAR_VARIANT_WORDS[kind].replace('credential', 'token')}`,
      requirements: ['OP9-AUTH-401', ...ERROR],
      async run(t) {
        if (nearVariant(t.config.credentials.transfersToken ?? '', kind) === undefined)
          t.notApplicable('the configured token is hexadecimal or a UUID: its letter case may mean nothing');
        const label = `create a transfer with ${NEAR_VARIANT_WORDS[kind].replace('credential', 'token')}`;
        const res = await create(t, oneTime(t), label, { credentials: `near-${kind}`, refusable: true });
        t.judge(res, 'OP9-AUTH-401', ...ERROR);
      },
    }),
  ),
  authCase(
    'answers 403 with code and message with a valid ' + 'token that lacks authorization',
    'forbidden',
    'OP9-AUTH-403',
  ),
  invalidCase(
    'refuses a request without transactionId, with ' + '400 and code and message',
    'OP9-TRANSACTIONID-REQUIRED',
    (t) => ({ body: oneTime(t), omitTransactionId: true, why: 'no transactionId header' }),
  ),
  invalidCase('refuses an amount given as a string, with 400 and code and message', 'OP9-BODY-TYPES', (t) => {
    const body = oneTime(t) as Json;
    return {
      body: { ...body, amount: { ...body.amount, amount: String(body.amount.amount) } },
      why: 'amount.amount a string where a number ' + 'is documented',
    };
  }),
  invalidCase('refuses an account id given as a number, with ' + '400 and code and message', 'OP9-BODY-TYPES', (t) => ({
    body: { ...oneTime(t), toAccountId: 100300 },
    why: 'toAccountId a number where a string is documented',
  })),
]);
