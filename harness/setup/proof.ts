import { CREDENTIAL_SOURCES, type CredentialId } from '../credentials';
import { OPERATIONS, type BaseUrlKey, type OperationKey } from '../operations';
import { requirement } from '../../requirements';
import type { CaseReport, CheckResult, Exchange } from '../model';
import { afterFlip, flipOf, type Flip } from './flip';
import { errorNamesValue, refusesTheForm, restsOn } from './error-names';
import { PhoneControls, phoneRestsOn } from './phone-controls';
import { suspicionKey, suspicionText } from './suspicion-text';

export { suspicionKey, suspicionText } from './suspicion-text';

/**
 * What a run proved about the operator's setup, from the exchanges alone: the suite cannot tell a
 * valid credential or a right base URL from a wrong one except by what the target serves.
 * - A credential is proven when a request carrying it (exactly as configured) was answered 2xx.
 * - A base URL is proven when anything sent there was answered other than 404: a 405 says the path exists.
 * - A refusal proves a rule only where the same method and path were served (2xx) with a configured
 *   credential in the same run: the control. A 404 never proves an auth rule.
 */
export class SetupProof {
  private readonly servedCredentials = new Set<string>();
  /** Credentials answered with a refusal of something else than them (400 …), by operation. */
  private readonly passedAuth = new Map<string, Set<string>>();
  /** Operations that refused (401/403) a request without any configured credential. */
  private readonly refusedWithout = new Set<string>();
  private readonly servedData = new Set<string>();
  private readonly refusedCredentials = new Map<string, Exchange[]>();
  private readonly provenBases = new Set<string>();
  private readonly unprovenBaseAnswers = new Map<string, Exchange[]>();
  private readonly controls = new Set<string>();
  private readonly bySeq = new Map<number, Exchange>();
  /** Every answered exchange that carried each configured credential, and when it flipped (cached). */
  private readonly carried = new Map<string, Exchange[]>();
  private readonly flips = new Map<string, Flip | undefined>();
  /** The configured credentials sent to each operation: what a missing control points at. */
  private readonly operationCredentials = new Map<string, Set<string>>();
  /**
   * By operation number: the keys of the setup that kept its tests from sending a request with the configured
   * credentials (tests could not test because of them, e.g. a configured value a control disproved).
   */
  private readonly blockedOperations = new Map<number, Set<string>>();
  /** The controls of configured phone numbers, and the writes that may have moved one since (phone-controls.ts). */
  private readonly phones = new PhoneControls();

  /**
   * `embedded`: the run's target is the embedded reference target, whose setup is the suite's own and
   * cannot be wrong: a refusal there is the target's, never blamed on the setup.
   */
  constructor(
    cases: readonly CaseReport[] = [],
    private readonly opts: { embedded?: boolean } = {},
  ) {
    for (const c of cases) this.observe(c);
  }

  /** Take in a case's exchanges (a run's reports, in any order). */
  observe(c: CaseReport): void {
    for (const e of c.exchanges) this.observeExchange(e);
    if (c.outcome !== 'could-not-test' || !c.setup) return;
    for (const n of c.requirements.flatMap((id) => requirement(id).operations))
      this.blockedOperations.set(n, new Set([...(this.blockedOperations.get(n) ?? []), c.setup.key]));
  }

  private observeExchange(e: Exchange): void {
    this.bySeq.set(e.seq, e);
    const status = e.response?.status;
    if (status === undefined) return;
    this.phones.observe(e);
    const served = status >= 200 && status < 300;
    for (const id of e.credentials ?? []) {
      this.carried.set(id, [...(this.carried.get(id) ?? []), e]);
      this.flips.delete(id);
      if (served) this.servedCredentials.add(id);
      else if (status === 401 || status === 403)
        this.refusedCredentials.set(id, [...(this.refusedCredentials.get(id) ?? []), e]);
    }
    if (served) for (const key of e.relies ?? []) this.servedData.add(key);
    if (!e.credentials?.length && (status === 401 || status === 403)) this.refusedWithout.add(operationKey(e));
    if (status >= 400 && status < 500 && ![401, 403, 404, 405, 429].includes(status))
      for (const id of e.credentials ?? [])
        this.passedAuth.set(id, new Set([...(this.passedAuth.get(id) ?? []), operationKey(e)]));
    if (e.base) {
      // A 405 names a method the path does not take: the path, and so the base URL, exists.
      if (status !== 404) this.provenBases.add(e.base);
      else this.unprovenBaseAnswers.set(e.base, [...(this.unprovenBaseAnswers.get(e.base) ?? []), e]);
    }
    for (const id of e.credentials ?? [])
      this.operationCredentials.set(
        operationKey(e),
        new Set([...(this.operationCredentials.get(operationKey(e)) ?? []), id]),
      );
    if (served && e.credentials?.length) {
      this.controls.add(controlKey(e));
      this.controls.add(operationKey(e));
    }
  }

  exchange(seq: number | undefined): Exchange | undefined {
    return seq === undefined ? undefined : this.bySeq.get(seq);
  }

  /**
   * Served; or, vary one thing, accepted where a made-up one was not: the operation refused a request
   * without the configured credential (401/403) and answered one with it with another refusal (a 400).
   */
  credentialProven(id: string): boolean {
    if (this.servedCredentials.has(id)) return true;
    return [...(this.passedAuth.get(id) ?? [])].some((op) => this.refusedWithout.has(op));
  }

  baseProven(base: string): boolean {
    return this.provenBases.has(base);
  }

  /** When a served credential was refused everywhere from one moment on (harness/setup/flip.ts). */
  flip(id: string): Flip | undefined {
    if (this.opts.embedded) return undefined;
    if (!this.flips.has(id)) this.flips.set(id, flipOf(this.carried.get(id) ?? []));
    return this.flips.get(id);
  }

  /** A refusal check whose operation was never served: it folds under that operation's own failure. */
  private unserved(e: Exchange): SetupSuspicion {
    const op = OPERATIONS[e.operation as OperationKey];
    const name = op ? `operation ${op.number} (${op.name})` : `${e.request.method} ${controlKey(e)}`;
    return { kind: 'control', key: `${name}, never served in this run`, unserved: true };
  }

  /** Every configured credential that flipped from served to refused during the run. */
  flipped(): Array<{ id: CredentialId; flip: Flip }> {
    return [...this.carried.keys()].flatMap((id) => {
      const flip = this.flip(id);
      return flip ? [{ id: id as CredentialId, flip }] : [];
    });
  }

  /** The credential this refusal met after it flipped, if any. */
  flippedCredential(e: Exchange): CredentialId | undefined {
    return (e.credentials ?? []).find((id) => {
      const flip = this.flip(id);
      return flip !== undefined && afterFlip(e, flip);
    }) as CredentialId | undefined;
  }

  /** Why this answer may come from the setup rather than the target, or undefined when it cannot. */
  suspicion(e: Exchange): SetupSuspicion | undefined {
    const status = e.response?.status;
    if (status === undefined || this.opts.embedded) return undefined;
    if (e.base && !this.baseProven(e.base)) return { kind: 'base', key: e.base as BaseUrlKey };
    // Served earlier, refused from one moment on everywhere: the credential changed, not the test data.
    const flipped = this.flippedCredential(e);
    if (flipped) return { kind: 'expired', key: flipped, flip: this.flip(flipped)! };
    if (status === 401 || status === 403) {
      const id = (e.credentials ?? []).find((c) => !this.credentialProven(c));
      if (id) return { kind: 'credential', key: id as CredentialId };
    }
    // A 405 is about the method, never about the data the request carries.
    if (status >= 400 && status < 500 && status !== 429 && status !== 405) {
      // A configured phone number no control disproved before a write could move it: the refusal stands.
      const unproven = this.unprovenRelies(e).filter((k) => !this.phones.standsOn(k));
      // The target's error names the request's form and none of the values: the refusal is the target's.
      if (unproven.length && !refusesTheForm(e, unproven)) {
        const named = unproven.find((k) => errorNamesValue(e, k));
        return { kind: 'testData', key: named ?? unproven[0]!, candidates: named ? [named] : unproven };
      }
    }
    return undefined;
  }

  /** The configured test data this request relies on that no request served. */
  unprovenRelies(e: Exchange): string[] {
    return (e.relies ?? []).filter((k) => !this.servedData.has(k));
  }

  /** A refusal judged as the target's although it rests on test data no request proved (error-names.ts). */
  formRefusal(e: Exchange): boolean {
    const unproven = this.unprovenRelies(e);
    return unproven.length > 0 && refusesTheForm(e, unproven) && !this.suspicion(e);
  }

  /**
   * A refusal judged as the target's although it rests on a configured phone number no request proved: no control
   * disproved it before a write of the customer could have moved it (phone-controls.ts). Its failure stands, naming
   * the number it rests on.
   */
  phoneStands(e: Exchange): string | undefined {
    if (this.suspicion(e) || this.formRefusal(e)) return undefined;
    return this.unprovenRelies(e).find((k) => this.phones.standsOn(k));
  }

  /**
   * A passed refusal check has its evidence: its operation was served (2xx) with a configured
   * credential, and for a refusal answered 404/405 (no such resource or method) at that very path.
   */
  refusalHasControl(e: Exchange): boolean {
    const status = e.response?.status;
    if (status === 404 || status === 405 || e.operation === 'raw') return this.controls.has(controlKey(e));
    return this.controls.has(operationKey(e));
  }

  /**
   * Why a passed refusal has no control: the base URL served nothing, or the credential the
   * operation was sent with was never served, or else the operation was never served with one.
   */
  missingControl(e: Exchange): SetupSuspicion {
    if (this.opts.embedded) return this.unserved(e);
    if (e.base && !this.baseProven(e.base)) return { kind: 'base', key: e.base as BaseUrlKey };
    const sent = this.operationCredentials.get(operationKey(e));
    // The credential it was (or would have been) sent with flipped during the run: that is the cause.
    const flipped = this.flipped().find(
      ({ id }) => sent?.has(id) || (!sent && this.carried.get(id)?.some((x) => x.base === e.base)),
    );
    if (flipped) return { kind: 'expired', key: flipped.id, flip: flipped.flip };
    const id = [...(sent ?? [])].find((c) => !this.credentialProven(c));
    if (id) return { kind: 'control', key: CREDENTIAL_SOURCES[id as CredentialId] };
    // Its tests could not send it, because of the setup: what kept them is what to check.
    const blocked = this.blockedOperations.get(OPERATIONS[e.operation as OperationKey]?.number ?? 0);
    if (blocked?.size) return { kind: 'control', key: [...blocked].join(' or '), blocked: true };
    // The base URL and the credentials were proven: the operation itself was never served, which its own
    // tests report as the target's failure. The refusal folds under it; nothing of the setup is to blame.
    if (e.base && this.baseProven(e.base) && this.operationCredentials.has(operationKey(e))) return this.unserved(e);
    return { kind: 'control', key: `${e.base ?? 'baseUrl'} and the credentials of this operation` };
  }

  /** Every credential refused on every request that carried it, with those requests. */
  refusedEverywhere(): Array<{ id: CredentialId; exchanges: Exchange[] }> {
    if (this.opts.embedded) return [];
    return [...this.refusedCredentials]
      .filter(([id]) => !this.credentialProven(id))
      .map(([id, exchanges]) => ({ id: id as CredentialId, exchanges }));
  }

  /** Every base URL at which nothing was answered other than 404, with those answers. */
  unprovenBases(): Array<{ key: BaseUrlKey; exchanges: Exchange[] }> {
    if (this.opts.embedded) return [];
    return [...this.unprovenBaseAnswers]
      .filter(([b]) => !this.baseProven(b))
      .map(([key, exchanges]) => ({ key: key as BaseUrlKey, exchanges }));
  }
}

export type SetupSuspicion =
  | { kind: 'base'; key: BaseUrlKey }
  | { kind: 'credential'; key: CredentialId }
  | { kind: 'expired'; key: CredentialId; flip: Flip }
  | { kind: 'testData'; key: string; candidates?: string[] }
  | { kind: 'control'; key: string; blocked?: boolean; unserved?: boolean };

/** The checks whose pass rests on the target refusing a request. */
export const REFUSAL_CHECKS: ReadonlySet<string> = new Set(['not_served']);

function operationKey(e: Exchange): string {
  return `${e.request.method} operation ${e.operation}`;
}

function controlKey(e: Exchange): string {
  let path = e.request.url;
  try {
    path = new URL(e.request.url).pathname;
  } catch {
    // keep the URL as recorded
  }
  return `${e.request.method} ${path}`;
}

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
  if (c.outcome === 'could-not-test') {
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
    );
  }
  if (c.outcome === 'failed') return withSetupNotes(c, proof);
  if (unproven.length === 0) return c;
  const e = unproven[0]!.e!;
  const s = proof.suspicion(e) ?? proof.missingControl(e);
  return couldNotTest(c, suspicionText(s, e), suspicionKey(s), voidPasses(c.checks));
}

/** A failure that stands on a refusal of test data no request proved: its checks say what it rests on. */
function withSetupNotes(c: CaseReport, proof: SetupProof): CaseReport {
  let changed = false;
  const checks = c.checks.map((k) => {
    const e = proof.exchange(k.exchange);
    if (k.outcome !== 'failed' || !e) return k;
    const phone = proof.phoneStands(e);
    if (!proof.formRefusal(e) && !phone) return k;
    changed = true;
    const note = phone ? phoneRestsOn(e, phone) : restsOn(e);
    return { ...k, note: k.note ? `${k.note}; ${note}` : note };
  });
  if (!changed) return c;
  const notes = [...new Set(checks.flatMap((k) => (k.note?.includes('setup: ') ? [k.note] : [])))];
  return { ...c, checks, reason: [c.reason, ...notes.map((n) => `  ${n}`)].filter(Boolean).join('\n') };
}

function passHasEvidence(k: CheckResult, e: Exchange, proof: SetupProof): boolean {
  if (proof.suspicion(e)) return false;
  return !REFUSAL_CHECKS.has(k.check) || proof.refusalHasControl(e);
}

function couldNotTest(c: CaseReport, why: string, key: string, checks: CheckResult[]): CaseReport {
  const was = c.reason ? `\n  (judged before the run's setup was known: ${c.reason.split('\n')[0]})` : '';
  return {
    ...c,
    outcome: 'could-not-test',
    reason: `could not test: ${why}${was}`,
    checks,
    setup: { key, problem: why },
  };
}
