import type { CredentialId } from '../credentials';
import { OPERATIONS, type OperationKey } from '../operations';
import { hasRequirement, requirement } from '../../requirements';
import type { CaseReport, CheckResult, Exchange } from '../model';
import { restsOn } from './error-names';
import { sameAnswerAsChanged } from './named-values';
import { phoneRestsOn } from './phone-controls';
import { REFUSAL_CHECKS, type SetupProof, type SetupSuspicion } from './proof';
import { suspicionKey, suspicionText } from './suspicion-text';

/**
 * The re-grading of every case once the run's setup is known (harness/setup/proof.ts gathers the evidence): a verdict
 * the setup may explain becomes "could not test", naming the key; a failure that stands names the values it rests on.
 */

/** A check re-graded because its evidence may come from the setup: kept, marked not applicable with the reason. */
function voided(k: CheckResult, why: string): CheckResult {
  return { ...k, outcome: 'not-applicable', note: `could not test: ${why}${k.note ? ` (was: ${k.note})` : ''}` };
}

/**
 * Re-grade a case on what the run proved: a failure, a warning or a "not applicable" that rests on
 * an answer the setup may explain (a refused credential never served, a base URL that served
 * nothing) is "could not test"; a passed refusal check without its control likewise. A case whose
 * every doubtful verdict is settled is returned as it was.
 */
export function regradeCase(c: CaseReport, proof: SetupProof): CaseReport {
  // A case that blamed a configured value on a refusal that came after its credential flipped, or whose
  // request was not sent because of the flip (harness/http/credential-watch.ts): the flip is the one root
  // cause (never the test data).
  const changed = stoppedServing(c, proof) ?? changedByTarget(c, proof);
  if (changed) return changed;
  if (c.outcome === 'could-not-test') {
    const elsewhere = namedElsewhere(c, proof) ?? keyless(c, proof);
    if (elsewhere) return elsewhere;
    const afterFlip = c.setup && c.exchanges.find((x) => proof.flippedCredential(x));
    if (afterFlip) {
      const s = proof.suspicion(afterFlip)!;
      return couldNotTest(c, suspicionText(s, afterFlip), suspicionKey(s), c.checks);
    }
    const held = c.exchanges.find((x) => x.notSent && x.error?.kind === 'target-stopped' && x.credentials?.length);
    const id = held?.credentials?.find((x) => proof.flip(x)) as CredentialId | undefined;
    if (id) {
      const s: SetupSuspicion = { kind: 'expired', key: id, flip: proof.flip(id)! };
      return couldNotTest(c, suspicionText(s, s.flip.firstRefused), suspicionKey(s), c.checks);
    }
  }
  const judged = c.checks.map((k) => ({ k, e: proof.exchange(k.exchange) }));
  // A pass needs its evidence: an answer from a base URL that served something, and for a refusal
  // its control, whatever else the case concluded.
  const unproven = judged.filter(({ k, e }) => k.outcome === 'passed' && e?.response && !passHasEvidence(k, e, proof));
  const voidPasses = (checks: CheckResult[]) =>
    checks.map((k) => {
      const u = unproven.find((x) => x.k === k);
      return u ? voided(k, suspicionText(proof.suspicion(u.e!) ?? proof.missingControl(u.e!), u.e!)) : k;
    });
  const doubtful = c.outcome === 'failed' || c.outcome === 'warning' || c.outcome === 'not-applicable';
  const rest = [...judged.map(({ e }) => e), ...(c.judged ?? []).map((seq) => proof.exchange(seq))];
  const suspects = [...c.exchanges, ...rest]
    .flatMap((e) => {
      const s = e && proof.suspicion(e);
      return s ? [{ e: e!, s }] : [];
    })
    // The cause that explains the most first: a credential that flipped during the run.
    .sort((a, b) => Number(b.s.kind === 'expired') - Number(a.s.kind === 'expired'));
  if (doubtful && suspects.length > 0) {
    const { e, s } = suspects[0]!;
    const why = suspicionText(s, e);
    return couldNotTest(
      c,
      why,
      suspicionKey(s),
      voidPasses(c.checks.map((k) => (k.outcome === 'failed' ? voided(k, why) : k))),
      unservedFold(s),
    );
  }
  if (c.outcome === 'failed') return withSetupNotes(c, proof);
  if (unproven.length === 0) return c;
  const e = unproven[0]!.e!;
  const s = proof.suspicion(e) ?? proof.missingControl(e);
  return couldNotTest(c, suspicionText(s, e), suspicionKey(s), voidPasses(c.checks), unservedFold(s));
}

/**
 * A test that could not test naming a configured value, on a 404 to a request the target served earlier in the run
 * (the very same method and URL): a value proven earlier and refused later means the target changed, not the setup
 * (session 40). The test stays could not test, saying so; the DIAGNOSIS names nothing.
 */
function changedByTarget(c: CaseReport, proof: SetupProof): CaseReport | undefined {
  if (c.outcome !== 'could-not-test' || !c.setup || c.setup.target) return undefined;
  const key = c.setup.key;
  const changed = proof.firstStoppedServing();
  const since = changed && proof.servedBefore(changed)?.seq;
  const refusal = c.exchanges.find((x) => proof.servedBefore(x) || sameAnswerAsChanged(x, changed, since));
  const served = refusal && (proof.servedBefore(refusal) ?? proof.servedBefore(changed!));
  // Or the value the test names is one a served request of the run relied on (a change carrying the configured
  // InstitutionCustomerId was served, its delete refused): proven, so not the setup (session 41).
  if (!served && !proof.dataProven(key)) return undefined;
  const relied = c.exchanges.find((x) => x.relies?.includes(key) && (x.response?.status ?? 0) >= 400);
  const same = served && refusal!.request.url !== served.request.url;
  const why = same
    ? `the target answered ${refusal!.request.method} ${refusal!.request.url} (${refusal!.response?.status}) as it ` +
      `answered ${changed!.request.method} ${changed!.request.url}, a request it had served earlier in the run: that ` +
      `answer cannot tell ${key} from a value the target proved, so the target changed, not ${key}`
    : served
      ? `the target served ${served.request.method} ${served.request.url} earlier in the run ` +
        `(${served.response?.status}) ` +
        `and refused ${refusal!.request.method} ${refusal!.request.url} later (${refusal!.response?.status}): ` +
        `a value proven earlier and refused later means the target changed, not ${key}`
      : `a request relying on ${key} was served in this run` +
        (relied ? `, and ${relied.request.method} ${relied.request.url} relying on it was refused ` : ' and refused ') +
        `${relied ? `(${relied.response?.status})` : 'later'}: a value proven earlier and refused later means the ` +
        `target changed, not ${key}`;
  return {
    ...c,
    reason: `could not test: ${why}\n  (the test said: ${c.reason ?? ''})`,
    setup: { key, problem: why, target: true },
  };
}

/**
 * A read the target served, answered 404 later (the very same method and URL): the target changed, and the operation's
 * request rule fails on it (session 40). Only the case that holds the run's first such answer reports it: a case that
 * took it as not applicable ("reported by OP4-REQUEST") is that report; the others stay not applicable.
 */
function stoppedServing(c: CaseReport, proof: SetupProof): CaseReport | undefined {
  const e = proof.firstStoppedServing();
  const open = c.outcome === 'not-applicable' || (c.outcome === 'could-not-test' && !c.setup?.target);
  if (!open || !e || !c.exchanges.includes(e)) return undefined;
  const id = REQUEST_RULE[e.operation] ?? `OP${OPERATIONS[e.operation as OperationKey]?.number}-REQUEST`;
  if (!hasRequirement(id)) return undefined;
  const r = requirement(id);
  const served = proof.servedBefore(e)!;
  const check: CheckResult = {
    check: 'success_status',
    requirement: id,
    grade: r.grade,
    section: r.section,
    outcome: 'failed',
    description: 'the very request the target served earlier in the run is served again',
    expected: `a 2xx, as exchange #${served.seq} (${served.response?.status}) was`,
    received: `status 404 to ${e.request.method} ${e.request.url}, body ${e.response?.body ?? ''}`.slice(0, 400),
    exchange: e.seq,
    curl: e.curl,
  };
  const reason =
    `${r.grade} ${id} (spec section "${r.section}"): the target served ${e.request.method} ${e.request.url} ` +
    `(exchange #${served.seq}) and answered the very same request 404 later (exchange #${e.seq}): a value proven ` +
    'earlier and refused later means the target changed';
  const outcome = r.grade === 'MUST' ? 'failed' : 'warning';
  const { setup: _driverKey, ...rest } = c; // the key its driver named is what the target changed
  return { ...rest, outcome, reason, checks: [...c.checks, check], requirements: [...c.requirements, id] };
}

/**
 * A test that could not test naming a configured value (its driver's word), where the target's error on a request of
 * its that relied on that value names another configured value instead (a country code, where the driver named the
 * phone number): the error is the evidence, so the test names what it names (session 41).
 */
function namedElsewhere(c: CaseReport, proof: SetupProof): CaseReport | undefined {
  const key = c.setup?.key;
  if (!key || c.setup?.target || !key.startsWith('testData.')) return undefined;
  for (const e of c.exchanges) {
    if (!e.relies?.includes(key)) continue;
    const s = proof.suspicion(e);
    if (s?.kind !== 'testData' || s.key === key || (s.candidates ?? []).includes(key)) continue;
    return couldNotTest(c, suspicionText(s, e), suspicionKey(s), c.checks);
  }
  return undefined;
}

/**
 * A test that could not test without naming a key (the rule gave its exchange no verdict), where a refusal of its
 * relied on configured test data no request proved (SetupProof.suspicion: the error names it, or nothing that separates
 * it from the target): that key is what to check (session 41).
 */
function keyless(c: CaseReport, proof: SetupProof): CaseReport | undefined {
  if (c.setup) return undefined;
  for (const e of c.exchanges) {
    const s = e.relies?.length ? proof.suspicion(e) : undefined;
    if (s?.kind === 'testData') return couldNotTest(c, suspicionText(s, e), suspicionKey(s), c.checks);
  }
  return undefined;
}

/** The rule a documented request of an operation breaks when it is not served, where it is not OPn-REQUEST. */
const REQUEST_RULE: Record<string, string> = { updateContactInfo: 'OP10-RULE1-SUPPLIED-OBJECTS' };

/** A refusal folded under its operation's own failure: the target's, never a finding of the setup. */
const unservedFold = (s: SetupSuspicion): boolean => s.kind === 'control' && !!s.unserved;

/** A failure that stands on a refusal of test data no request proved: its checks say what it rests on. */
function withSetupNotes(c: CaseReport, proof: SetupProof): CaseReport {
  let changed = false;
  const checks = c.checks.map((k) => {
    const e = proof.exchange(k.exchange);
    if (k.outcome !== 'failed' || !e) return k;
    const phone = proof.phoneStands(e);
    const authorized = servedForbidden(e);
    if (!proof.formRefusal(e) && !phone && !authorized) return k;
    changed = true;
    const note = authorized ?? (phone ? phoneRestsOn(e, phone) : restsOn(e, proof.provenNamed(e)));
    return { ...k, note: k.note ? `${k.note}; ${note}` : note };
  });
  if (!changed) return c;
  const notes = [...new Set(checks.flatMap((k) => (k.note?.includes('setup: ') ? [k.note] : [])))];
  return { ...c, checks, reason: [c.reason, ...notes.map((n) => `  ${n}`)].filter(Boolean).join('\n') };
}

/**
 * The target served the token the configuration says lacks the right (credentials.transfersForbiddenToken): the
 * exchanges cannot tell a target that does not check the right from a token that has it. The failure stands, naming it.
 */
function servedForbidden(e: Exchange): string | undefined {
  const status = e.response?.status ?? 0;
  if (!e.forbiddenToken || status < 200 || status >= 300) return undefined;
  return (
    "setup: judged as the target's (it served DBSI_TRANSFERS_FORBIDDEN_TOKEN, which the configuration gives as a " +
    'valid token without the right to create transfers; where that token does have the right, set one that does ' +
    'not); it rests on DBSI_TRANSFERS_FORBIDDEN_TOKEN (credentials.transfersForbiddenToken)'
  );
}

function passHasEvidence(k: CheckResult, e: Exchange, proof: SetupProof): boolean {
  if (proof.suspicion(e)) return false;
  return !REFUSAL_CHECKS.has(k.check) || proof.refusalHasControl(e);
}

function couldNotTest(c: CaseReport, why: string, key: string, checks: CheckResult[], unserved = false): CaseReport {
  const was = c.reason ? `\n  (judged before the run's setup was known: ${c.reason.split('\n')[0]})` : '';
  return {
    ...c,
    outcome: 'could-not-test',
    reason: `could not test: ${why}${was}`,
    checks,
    setup: { key, problem: why, ...(unserved ? { target: true } : {}) },
  };
}
