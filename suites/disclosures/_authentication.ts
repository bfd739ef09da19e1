import type { Credentials } from '../../data-builders/disclosures';
import type { CaseContext, CaseDef } from '../../harness/case';
import type { HttpResult } from '../../harness/http/client';

/**
 * The two authentication cases every disclosures operation has (DISC-AUTH-REQUIRED): a request
 * without credentials, and one with a bearer token the target never issued, must not be served.
 * `send` makes the operation's request with the given credentials (and arranges any clean-up); `form` names the
 * form of an operation the spec documents in two (the title's suffix), for the cases of the second.
 */
export function authenticationCases(
  send: (t: CaseContext, credentials: Exclude<Credentials, 'valid'>) => Promise<HttpResult>,
  form?: string,
): CaseDef[] {
  const of = form ? ` (${form})` : '';
  return [
    {
      title: `is not served without credentials${of}`,
      requirements: ['DISC-AUTH-REQUIRED'],
      async run(t) {
        t.judge(await send(t, 'none'), 'DISC-AUTH-REQUIRED');
      },
    },
    {
      title: `is not served with an invalid bearer token${of}`,
      requirements: ['DISC-AUTH-REQUIRED'],
      async run(t) {
        t.judge(await send(t, 'invalid'), 'DISC-AUTH-REQUIRED');
      },
    },
  ];
}
