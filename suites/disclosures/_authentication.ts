import type { Credentials } from '../../data-builders/disclosures';
import type { CaseContext, CaseDef } from '../../harness/case';
import type { HttpResult } from '../../harness/http/client';
import { NEAR_VARIANTS, NEAR_VARIANT_WORDS, nearVariant } from '../../harness/credential-variants';

/**
 * The authentication cases every disclosures operation has (DISC-AUTH-REQUIRED): a request without
 * credentials, one with a bearer token the target never issued, and ones with near variants of the configured
 * token (another letter case, cut short, extended: harness/credential-variants.ts) must not be served.
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
    // One test per variant: each sends one request (a write's test holds the user's records until its clean-up).
    ...NEAR_VARIANTS.map(
      (kind): CaseDef => ({
        title: `is not served with ${NEAR_VARIANT_WORDS[kind].replace('credential', 'bearer token')}${of}`,
        requirements: ['DISC-AUTH-REQUIRED'],
        async run(t) {
          if (nearVariant(t.config.credentials.bearerToken ?? '', kind) === undefined)
            t.notApplicable('the configured bearer token is hexadecimal or a UUID: its letter case may mean nothing');
          t.judge(await send(t, `near-${kind}`), 'DISC-AUTH-REQUIRED');
        },
      }),
    ),
  ];
}
