import {
  revocationHeaders,
  type BasicCredentials,
  type OptionalRevocationHeader,
  type RevocationHeader,
} from '../../data-builders/authentication';
import { feature, type CaseContext } from '../../harness/case';
import { holdExplored } from '../../harness/explore-verdicts';
import { NotAllowedError, type HttpResult } from '../../harness/http/client';
import type { Seen } from '../../harness/rules/exchange';
import { everyVerdict, type Reached } from '../../harness/rules/judge-log';
import { failing, keepGradedOnly, tallyVerdicts, type Tally } from './search-common';

/**
 * Family 5 of the explorer (docs/explorer.md): token revocation (operation 8) in sequences, where the hand-written
 * tests send each request once, first. The same token revoked again and a third time, a body without any of the
 * Token request's members ("Which body fields are required: not shown"), a request without the Accept header
 * (Required "no"), and the refusals the spec documents sent after revocations were served (a wrong secret key, none,
 * a required header missing), then the first request again. Each answer is held to the rules (a 200 to the token
 * record, a 400/401/500 to the error record).
 *
 * Revocation is destructive: the configured Token request body is never sent (only the hand-written test sends
 * it, once). Every body names a refresh token nobody issued and carries no user name or password, so a target that
 * serves it revokes nothing real. What a target answers to a token it never issued, or revoked already, is not
 * shown: those exchanges are judged as a capture would judge them (the credentials' authority unknown), so a refusal
 * is accepted and only the body of the answer is held to the rules.
 */

export const EXPLORED_REVOCATION_REQUIREMENTS = [
  'OP8-RESPONSE-TOKEN-RECORD',
  'OP8-ERROR-SHAPE',
  'OP8-AUTH-401',
  'OP8-HEADER-REQUIRED-400',
];

export const EXPLORE_REVOCATIONS_TITLE =
  'explored sequences of revocations hold every rule (repeats, a body without members, refusals after successes)';

/** One request of a tour: its credentials, a header left out, its body, and whether its answer is open. */
interface Step {
  line: string;
  credentials?: BasicCredentials;
  omit?: RevocationHeader | OptionalRevocationHeader;
  body: 'token' | 'empty';
  /** What the target answers is not shown (a token never issued, revoked already): judged as a capture. */
  open: boolean;
}

const revokeToken = (line: string): Step => ({ line, body: 'token', open: true });

/** The tours: each request the hand-written tests send once, here after others and again. */
export const REVOCATION_TOURS: Step[][] = [
  [
    revokeToken('revoke a refresh token never issued'),
    revokeToken('revoke the same token again'),
    revokeToken('revoke the same token a third time'),
    { line: 'revoke with a wrong secret key', credentials: 'wrong', body: 'token', open: false },
    { line: 'revoke without Authorization', credentials: 'none', body: 'token', open: false },
    revokeToken('revoke the same token once more'),
    // Accept is "Required: no": a request without it is served as any other (the hand-written test leaves it out
    // only of a refused one).
    { line: 'revoke without Accept (not required)', omit: 'Accept', body: 'token', open: true },
  ],
  [
    { line: 'revoke with a body carrying none of the members', body: 'empty', open: true },
    revokeToken('revoke a refresh token never issued'),
    { line: 'revoke without transactionId', omit: 'transactionId', body: 'token', open: false },
    { line: 'revoke with a body carrying none of the members, again', body: 'empty', open: true },
    { line: 'revoke a refresh token never issued, without Accept', omit: 'Accept', body: 'token', open: true },
  ],
];

interface TourRun {
  log: Seen[];
  lines: string[];
  results: HttpResult[];
}

async function runTour(t: CaseContext, tour: Step[], k: number): Promise<TourRun> {
  const run: TourRun = { log: [], lines: [], results: [] };
  const token = `dbsi-conformance-decoy-${t.settings.runId}-${k}-${t.faker.string.alphanumeric(12)}`;
  for (const step of tour) {
    const members = step.body === 'token' ? { grant_type: 'refresh_token', refresh_token: token } : {};
    const body = members;
    const headers = revocationHeaders(t.faker, t.config, { credentials: step.credentials, omit: step.omit });
    const res = await t.client.send(
      { operation: 'revokeToken', headers, body, label: `explore: ${step.line}` },
      {},
      t.signal,
    );
    run.results.push(res);
    if (res.logged)
      run.log.push({ ...res.logged, keepsAuthorization: true, ...(step.open ? { authority: undefined } : {}) });
    run.lines.push(`${run.lines.length + 1}. ${step.line} → ${res.status}`);
  }
  return run;
}

const mine = (v: Reached[]) => v.filter((r) => EXPLORED_REVOCATION_REQUIREMENTS.includes(r.requirement));

async function explore(t: CaseContext): Promise<void> {
  if ((t.settings.explore?.count ?? 1) === 0) t.notApplicable('exploration is off (--explore 0)');
  if (!t.config.allow.tokenRevocation)
    throw new NotAllowedError('tokenRevocation', 'DELETE', '{authBaseUrl}/oauth2/v1/revoke');
  const tally: Tally = { graded: new Map(), passed: new Map() };
  for (const [k, tour] of REVOCATION_TOURS.entries()) {
    const run = await t.step(`tour ${k + 1}`, () => runTour(t, tour, k));
    // A tour is short: its exchanges are the test's evidence, whatever they show.
    for (const r of run.results) {
      t.exchanges.push(r.exchange);
      await t.sink.exchange(r.exchange);
    }
    const verdicts = everyVerdict(run.log, run.log);
    const failed = mine(failing(verdicts, t.settings.strict));
    if (failed.length) {
      const text = ['', `tour ${k + 1}, as sent:`, ...run.lines.map((l) => `  ${l}`)].join('\n');
      return holdExplored(t, {
        declared: EXPLORED_REVOCATION_REQUIREMENTS,
        runs: k + 1,
        failed: { verdicts: failed, text },
        graded: [],
        passed: [],
      });
    }
    tallyVerdicts(tally, verdicts);
  }
  keepGradedOnly(tally, t.settings.strict);
  const passed = [...tally.passed].filter(([id]) => EXPLORED_REVOCATION_REQUIREMENTS.includes(id));
  if (passed.length === 0) t.couldNotTest('the explored revocations gave no verdict');
  holdExplored(t, {
    declared: EXPLORED_REVOCATION_REQUIREMENTS,
    runs: REVOCATION_TOURS.length,
    graded: [...tally.graded.values()],
    passed,
  });
}

export default feature('authentication', 'revokeToken', [
  { title: EXPLORE_REVOCATIONS_TITLE, requirements: EXPLORED_REVOCATION_REQUIREMENTS, run: explore },
]);
